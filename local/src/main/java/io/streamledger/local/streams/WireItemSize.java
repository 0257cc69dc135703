package io.streamledger.local.streams;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Iterator;
import java.util.Map;

/**
 * Size of attributes in DynamoDB's wire form by the documented item-size rules (names + values;
 * numbers ≈ 1 byte per two digits + 1; containers 3 bytes + 1 per element), used for a stream
 * record's {@code SizeBytes} (CS07).
 */
public final class WireItemSize {
    private WireItemSize() {}

    /** Size of a map of attribute name to attribute value, e.g. an item or its keys. */
    public static long ofAttributes(JsonNode attributes) {
        if (attributes == null || attributes.isNull()) {
            return 0;
        }
        long size = 0;
        for (Iterator<Map.Entry<String, JsonNode>> it = attributes.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            size += utf8(e.getKey()) + ofValue(e.getValue());
        }
        return size;
    }

    static long ofValue(JsonNode value) {
        Map.Entry<String, JsonNode> typed = value.fields().next();
        JsonNode v = typed.getValue();
        switch (typed.getKey()) {
            case "S":
                return utf8(v.asText());
            case "N":
                return number(v.asText());
            case "B":
                return Base64.getDecoder().decode(v.asText()).length;
            case "BOOL":
            case "NULL":
                return 1;
            case "SS":
                return sum(v, n -> utf8(n.asText()));
            case "NS":
                return sum(v, n -> number(n.asText()));
            case "BS":
                return sum(v, n -> Base64.getDecoder().decode(n.asText()).length);
            case "L":
                {
                    long s = 3;
                    for (JsonNode element : v) {
                        s += 1 + ofValue(element);
                    }
                    return s;
                }
            case "M":
                {
                    long s = 3;
                    for (Iterator<Map.Entry<String, JsonNode>> it = v.fields(); it.hasNext(); ) {
                        Map.Entry<String, JsonNode> e = it.next();
                        s += 1 + utf8(e.getKey()) + ofValue(e.getValue());
                    }
                    return s;
                }
            default:
                throw new IllegalArgumentException("Unknown attribute type " + typed.getKey());
        }
    }

    private static long sum(JsonNode array, java.util.function.ToLongFunction<JsonNode> f) {
        long s = 0;
        for (JsonNode n : array) {
            s += f.applyAsLong(n);
        }
        return s;
    }

    private static long utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8).length;
    }

    private static long number(String n) {
        long digits = n.chars().filter(Character::isDigit).count();
        return (digits + 1) / 2 + 1;
    }
}
