package io.streamledger.local.dynamodb;

import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.streamledger.local.spi.ApiException;
import io.streamledger.model.keys.KeyOrder;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Base64;
import java.util.HashSet;
import java.util.Iterator;
import java.util.Map;
import java.util.Set;
import javax.annotation.Nullable;

/**
 * Validation, normalization, comparison and equality of DynamoDB attribute values in their JSON
 * wire form ({@code {"S":"x"}}, {@code {"N":"1.5"}}, ...) — the representation every image in the
 * engine and the Streams seam (CS07 change records) uses.
 */
public final class AttributeValues {
    public static final JsonNodeFactory JSON = JsonNodeFactory.instance;

    /** Longest attribute name DynamoDB stores, in UTF-8 bytes. */
    static final int MAX_NAME_BYTES = 65535;

    private AttributeValues() {}

    /** A mapper whose read limits admit every item DynamoDB admits (names up to 64 KiB). */
    public static ObjectMapper newMapper() {
        ObjectMapper mapper = new ObjectMapper();
        mapper.getFactory()
                .setStreamReadConstraints(
                        StreamReadConstraints.builder().maxNameLength(MAX_NAME_BYTES + 1).build());
        return mapper;
    }

    /** The single type key of a wire value, e.g. "S"; ValidationException if malformed. */
    public static String type(JsonNode value) {
        if (value == null || !value.isObject() || value.size() != 1) {
            throw ApiException.validation(
                    "Supplied AttributeValue is empty, must contain exactly one of the supported"
                            + " datatypes");
        }
        return value.fieldNames().next();
    }

    public static ObjectNode s(String v) {
        ObjectNode o = JSON.objectNode();
        o.put("S", v);
        return o;
    }

    public static ObjectNode n(BigDecimal v) {
        ObjectNode o = JSON.objectNode();
        o.put("N", Numbers.canonical(v));
        return o;
    }

    /**
     * Validates every attribute of an item (or key) and normalizes numbers in place; returns the
     * same node.
     */
    public static ObjectNode validateItem(JsonNode item) {
        if (item == null || !item.isObject()) {
            throw ApiException.validation("Item must be a map of attribute values");
        }
        Iterator<Map.Entry<String, JsonNode>> it = item.fields();
        while (it.hasNext()) {
            Map.Entry<String, JsonNode> e = it.next();
            if (e.getKey().isEmpty()) {
                throw ApiException.validation(
                        "One or more parameter values are not valid. A value specified for a"
                                + " secondary index key is not supported. Attribute name is"
                                + " empty");
            }
            // only a name of over 21,845 chars can exceed 65,535 UTF-8 bytes
            if (e.getKey().length() > MAX_NAME_BYTES / 3
                    && e.getKey().getBytes(StandardCharsets.UTF_8).length > MAX_NAME_BYTES) {
                throw ApiException.validation(
                        "One or more parameter values were invalid: An attribute name exceeds the"
                                + " maximum length of "
                                + MAX_NAME_BYTES
                                + " bytes");
            }
            validateValue(e.getValue());
        }
        return (ObjectNode) item;
    }

    /** Validates one value and normalizes numbers in place. */
    public static void validateValue(JsonNode value) {
        String type = type(value);
        ObjectNode o = (ObjectNode) value;
        JsonNode v = o.get(type);
        switch (type) {
            case "S" -> {
                if (!v.isTextual()) {
                    throw bad();
                }
            }
            case "N" -> {
                if (!v.isTextual()) {
                    throw bad();
                }
                o.put("N", Numbers.normalize(v.asText()));
            }
            case "B" -> {
                if (!v.isTextual()) {
                    throw bad();
                }
                decodeBinary(v.asText());
            }
            case "BOOL" -> {
                if (!v.isBoolean()) {
                    throw bad();
                }
            }
            case "NULL" -> {
                if (!v.isBoolean() || !v.booleanValue()) {
                    throw ApiException.validation(
                            "One or more parameter values were invalid: Null attribute value types"
                                    + " must have the value of true");
                }
            }
            case "SS", "NS", "BS" -> validateSet(type, o, v);
            case "L" -> {
                if (!v.isArray()) {
                    throw bad();
                }
                for (JsonNode e : v) {
                    validateValue(e);
                }
            }
            case "M" -> {
                if (!v.isObject()) {
                    throw bad();
                }
                Iterator<JsonNode> els = v.elements();
                while (els.hasNext()) {
                    validateValue(els.next());
                }
            }
            default -> throw bad();
        }
    }

    private static void validateSet(String type, ObjectNode o, JsonNode v) {
        if (!v.isArray()) {
            throw bad();
        }
        if (v.isEmpty()) {
            String kind =
                    switch (type) {
                        case "SS" -> "string";
                        case "NS" -> "number";
                        default -> "binary";
                    };
            throw ApiException.validation(
                    "One or more parameter values were invalid: An "
                            + kind
                            + " set  may not be empty");
        }
        ArrayNode normalized = JSON.arrayNode();
        Set<Object> seen = new HashSet<>();
        for (JsonNode e : v) {
            if (!e.isTextual()) {
                throw bad();
            }
            String text = e.asText();
            Object identity;
            if (type.equals("NS")) {
                text = Numbers.normalize(text);
                identity = text;
            } else if (type.equals("BS")) {
                identity = new BytesKey(decodeBinary(text));
            } else {
                identity = text;
            }
            if (!seen.add(identity)) {
                throw ApiException.validation(
                        "One or more parameter values were invalid: Input collection "
                                + v
                                + " contains duplicates.");
            }
            normalized.add(text);
        }
        o.set(type, normalized);
    }

    private static ApiException bad() {
        return ApiException.validation(
                "Supplied AttributeValue has more than one datatypes set, must contain exactly one"
                        + " of the supported datatypes");
    }

    /** Decodes a B/BS element; malformed base64 fails deserialization, as in DynamoDB. */
    public static byte[] decodeBinary(String base64) {
        if (base64.length() % 4 != 0) {
            throw new ApiException(
                    "SerializationException",
                    400,
                    "Base64 encoded length is expected a multiple of 4 bytes but found: "
                            + base64.length());
        }
        try {
            return Base64.getDecoder().decode(base64);
        } catch (IllegalArgumentException e) {
            throw new ApiException(
                    "SerializationException", 400, "Invalid Base64 encoding: " + e.getMessage());
        }
    }

    /**
     * Orders two scalar values of the same type S, N or B; null if they are not comparable
     * (different types, or not scalar), which makes an ordering comparison false.
     */
    public static @Nullable Integer compare(@Nullable JsonNode a, @Nullable JsonNode b) {
        if (a == null || b == null) {
            return null;
        }
        String ta = type(a);
        String tb = type(b);
        if (!ta.equals(tb)) {
            return null;
        }
        return switch (ta) {
            case "S" -> compareUtf8(a.get("S").asText(), b.get("S").asText());
            case "N" ->
                    new BigDecimal(a.get("N").asText())
                            .compareTo(new BigDecimal(b.get("N").asText()));
            case "B" ->
                    Arrays.compareUnsigned(
                            decodeBinary(a.get("B").asText()), decodeBinary(b.get("B").asText()));
            default -> null;
        };
    }

    /** Compares strings by their UTF-8 bytes (code point order): the model's {@link KeyOrder}. */
    public static int compareUtf8(String a, String b) {
        return KeyOrder.compare(a, b);
    }

    /** DynamoDB value equality: sets ignore order, numbers compare by value. */
    public static boolean valueEquals(@Nullable JsonNode a, @Nullable JsonNode b) {
        if (a == null || b == null) {
            return false;
        }
        String ta = type(a);
        if (!ta.equals(type(b))) {
            return false;
        }
        JsonNode va = a.get(ta);
        JsonNode vb = b.get(ta);
        switch (ta) {
            case "N":
                return new BigDecimal(va.asText()).compareTo(new BigDecimal(vb.asText())) == 0;
            case "B":
                return Arrays.equals(decodeBinary(va.asText()), decodeBinary(vb.asText()));
            case "SS":
            case "NS":
            case "BS":
                return setOf(ta, va).equals(setOf(ta, vb));
            case "L":
                if (va.size() != vb.size()) {
                    return false;
                }
                for (int i = 0; i < va.size(); i++) {
                    if (!valueEquals(va.get(i), vb.get(i))) {
                        return false;
                    }
                }
                return true;
            case "M":
                if (va.size() != vb.size()) {
                    return false;
                }
                Iterator<Map.Entry<String, JsonNode>> it = va.fields();
                while (it.hasNext()) {
                    Map.Entry<String, JsonNode> e = it.next();
                    if (!valueEquals(e.getValue(), vb.get(e.getKey()))) {
                        return false;
                    }
                }
                return true;
            default:
                return va.equals(vb);
        }
    }

    /** Elements of a set value as comparable identities. */
    public static Set<Object> setOf(String type, JsonNode array) {
        Set<Object> out = new HashSet<>();
        for (JsonNode e : array) {
            out.add(setIdentity(type, e.asText()));
        }
        return out;
    }

    public static Object setIdentity(String type, String text) {
        return switch (type) {
            case "NS" -> new BigDecimal(text).stripTrailingZeros();
            case "BS" -> new BytesKey(decodeBinary(text));
            default -> text;
        };
    }

    /** Byte array with value equality, for set membership. */
    public record BytesKey(byte[] bytes) {
        @Override
        public boolean equals(Object o) {
            return o instanceof BytesKey k && Arrays.equals(bytes, k.bytes);
        }

        @Override
        public int hashCode() {
            return Arrays.hashCode(bytes);
        }
    }
}
