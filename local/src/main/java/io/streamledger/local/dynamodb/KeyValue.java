package io.streamledger.local.dynamodb;

import com.fasterxml.jackson.databind.JsonNode;
import java.math.BigDecimal;
import java.util.Arrays;
import java.util.List;

/**
 * Ordered composite key of a stored item or index entry: parts are S (code point order), N
 * (numeric) or B (unsigned bytes), in DynamoDB's sort order; nulls sort first, MIN/MAX bound ranges
 * (IDX01–IDX19 key grammar lives in model/, this is only the ordering).
 */
public final class KeyValue implements Comparable<KeyValue> {
    /** Sorts before every value; used for range bounds. */
    public static final Object MIN = new Object();

    /** Sorts after every value; used for range bounds. */
    public static final Object MAX = new Object();

    private final Object[] parts;

    private KeyValue(Object[] parts) {
        this.parts = parts;
    }

    /** Builds a key from comparable parts (see {@link #part}), MIN, MAX or null. */
    public static KeyValue of(Object... parts) {
        return new KeyValue(parts);
    }

    public static KeyValue of(List<Object> parts) {
        return new KeyValue(parts.toArray());
    }

    /** The comparable form of a scalar wire value. */
    public static Object part(JsonNode wire) {
        JsonNode s = wire.get("S");
        if (s != null) {
            return s.asText();
        }
        JsonNode n = wire.get("N");
        if (n != null) {
            return new BigDecimal(n.asText());
        }
        return new Bytes(AttributeValues.decodeBinary(wire.get("B").asText()));
    }

    public Object part(int i) {
        return parts[i];
    }

    public int size() {
        return parts.length;
    }

    @Override
    public int compareTo(KeyValue o) {
        int n = Math.max(parts.length, o.parts.length);
        for (int i = 0; i < n; i++) {
            Object a = i < parts.length ? parts[i] : null;
            Object b = i < o.parts.length ? o.parts[i] : null;
            int c = comparePart(a, b);
            if (c != 0) {
                return c;
            }
        }
        return 0;
    }

    @SuppressWarnings("unchecked")
    private static int comparePart(Object a, Object b) {
        if (a == b) {
            return 0;
        }
        if (a == MIN || b == MAX) {
            return -1;
        }
        if (a == MAX || b == MIN) {
            return 1;
        }
        if (a == null) {
            return -1;
        }
        if (b == null) {
            return 1;
        }
        if (a instanceof String sa && b instanceof String sb) {
            return AttributeValues.compareUtf8(sa, sb);
        }
        if (a instanceof BigDecimal da && b instanceof BigDecimal db) {
            return da.compareTo(db);
        }
        if (a instanceof Bytes ba && b instanceof Bytes bb) {
            return Arrays.compareUnsigned(ba.bytes, bb.bytes);
        }
        // different types in one position cannot happen within one schema; order by class name
        return a.getClass().getName().compareTo(b.getClass().getName());
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof KeyValue k && compareTo(k) == 0;
    }

    @Override
    public int hashCode() {
        int h = 1;
        for (Object p : parts) {
            h =
                    31 * h
                            + (p instanceof BigDecimal d
                                    ? d.stripTrailingZeros().hashCode()
                                    : p == null ? 0 : p.hashCode());
        }
        return h;
    }

    @Override
    public String toString() {
        return Arrays.toString(parts);
    }

    /** Binary key part with value equality. */
    public record Bytes(byte[] bytes) {
        @Override
        public boolean equals(Object o) {
            return o instanceof Bytes b && Arrays.equals(bytes, b.bytes);
        }

        @Override
        public int hashCode() {
            return Arrays.hashCode(bytes);
        }
    }
}
