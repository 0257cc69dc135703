package io.streamledger.model.change;

import io.streamledger.model.money.DecimalText;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * An immutable DynamoDB attribute value for change-record images and outbox payloads (seed
 * "DynamoDB Streams and semantic outbox events"), independent of the AWS SDK. Numbers keep their
 * exact text ({@link N#text()}); binaries are defensive copies; maps keep insertion order.
 */
public sealed interface AttributeValue
        permits AttributeValue.S,
                AttributeValue.N,
                AttributeValue.B,
                AttributeValue.Bool,
                AttributeValue.Null,
                AttributeValue.L,
                AttributeValue.M,
                AttributeValue.SS,
                AttributeValue.NS,
                AttributeValue.BS {

    /** The DynamoDB type descriptor, e.g. {@code S}, {@code N}, {@code BOOL}. */
    String type();

    static S s(String value) {
        return new S(value);
    }

    static N n(String text) {
        return new N(text);
    }

    static N n(BigDecimal value) {
        return new N(DecimalText.format(value));
    }

    static N n(long value) {
        return new N(Long.toString(value));
    }

    static Bool bool(boolean value) {
        return new Bool(value);
    }

    static Null nul() {
        return Null.INSTANCE;
    }

    static M m(Map<String, AttributeValue> value) {
        return new M(value);
    }

    static L l(List<AttributeValue> value) {
        return new L(value);
    }

    /** String. */
    record S(String value) implements AttributeValue {
        public S {
            Objects.requireNonNull(value, "S value");
        }

        @Override
        public String type() {
            return "S";
        }
    }

    /**
     * Number, kept as the exact text DynamoDB sent; validated by {@link DecimalText#parse} (no
     * NaN/Infinity, at most 38 significant digits, DynamoDB range).
     */
    record N(String text) implements AttributeValue {
        public N {
            DecimalText.parse(text);
        }

        /** The exact value. */
        public BigDecimal bigDecimal() {
            return new BigDecimal(text);
        }

        @Override
        public String type() {
            return "N";
        }

        /** Numeric equality: {@code "1.50"} equals {@code "1.5"}, as DynamoDB treats them. */
        @Override
        public boolean equals(Object o) {
            return o instanceof N other && bigDecimal().compareTo(other.bigDecimal()) == 0;
        }

        @Override
        public int hashCode() {
            return DecimalText.normalise(bigDecimal()).hashCode();
        }
    }

    /** Binary; the array is copied in and out. */
    record B(byte[] value) implements AttributeValue {
        public B {
            value = Objects.requireNonNull(value, "B value").clone();
        }

        public static B base64(String text) {
            return new B(Base64.getDecoder().decode(text));
        }

        @Override
        public byte[] value() {
            return value.clone();
        }

        public String toBase64() {
            return Base64.getEncoder().encodeToString(value);
        }

        @Override
        public String type() {
            return "B";
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof B other && Arrays.equals(value, other.value);
        }

        @Override
        public int hashCode() {
            return Arrays.hashCode(value);
        }

        @Override
        public String toString() {
            return "B[" + toBase64() + "]";
        }
    }

    /** Boolean. */
    record Bool(boolean value) implements AttributeValue {
        @Override
        public String type() {
            return "BOOL";
        }
    }

    /** The NULL value. */
    record Null() implements AttributeValue {
        public static final Null INSTANCE = new Null();

        @Override
        public String type() {
            return "NULL";
        }
    }

    /** List. */
    record L(List<AttributeValue> values) implements AttributeValue {
        public L {
            values = List.copyOf(values);
        }

        @Override
        public String type() {
            return "L";
        }
    }

    /** Map, insertion-ordered. */
    record M(Map<String, AttributeValue> values) implements AttributeValue {
        public M {
            values = ordered(values);
        }

        @Override
        public String type() {
            return "M";
        }
    }

    /** String set: non-empty, no duplicates; order as received. */
    record SS(List<String> values) implements AttributeValue {
        public SS {
            values = List.copyOf(values);
            requireSet("SS", values);
        }

        @Override
        public String type() {
            return "SS";
        }
    }

    /** Number set: non-empty, no numerically equal members; exact texts. */
    record NS(List<String> values) implements AttributeValue {
        public NS {
            values = List.copyOf(values);
            List<BigDecimal> numbers = new ArrayList<>();
            for (String v : values) {
                numbers.add(DecimalText.parse(v));
            }
            requireSet("NS", numbers);
        }

        @Override
        public String type() {
            return "NS";
        }
    }

    /** Binary set: non-empty, no duplicates. */
    record BS(List<B> values) implements AttributeValue {
        public BS {
            values = List.copyOf(values);
            requireSet("BS", values);
        }

        @Override
        public String type() {
            return "BS";
        }
    }

    /** An unmodifiable insertion-ordered copy of an item/map. */
    static Map<String, AttributeValue> ordered(Map<String, AttributeValue> values) {
        Objects.requireNonNull(values, "map");
        LinkedHashMap<String, AttributeValue> copy = new LinkedHashMap<>();
        values.forEach(
                (k, v) ->
                        copy.put(
                                Objects.requireNonNull(k, "attribute name"),
                                Objects.requireNonNull(v, "value of " + k)));
        return Collections.unmodifiableMap(copy);
    }

    private static void requireSet(String type, List<?> values) {
        if (values.isEmpty()) {
            throw new IllegalArgumentException(type + " must not be empty");
        }
        Set<Object> seen = new HashSet<>();
        for (Object v : values) {
            if (!seen.add(v)) {
                throw new IllegalArgumentException(type + " has duplicate member " + v);
            }
        }
    }
}
