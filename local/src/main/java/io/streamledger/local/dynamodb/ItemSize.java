package io.streamledger.local.dynamodb;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Iterator;
import java.util.Map;

/**
 * Item size by DynamoDB's documented rules ("DynamoDB item sizes and formats"), the input of every
 * capacity figure (AMP01–AMP18): name bytes + value bytes; numbers (significant digits / 2) + 1;
 * lists and maps 3 bytes + 1 byte per element.
 */
public final class ItemSize {
    /** DynamoDB's item size limit, 400 KB. */
    public static final long MAX_ITEM_BYTES = 400 * 1024;

    private ItemSize() {}

    /** Size of a whole item (a map of attribute name to wire value). */
    public static long of(JsonNode item) {
        long total = 0;
        Iterator<Map.Entry<String, JsonNode>> it = item.fields();
        while (it.hasNext()) {
            Map.Entry<String, JsonNode> e = it.next();
            total += utf8Length(e.getKey()) + valueSize(e.getValue());
        }
        return total;
    }

    /** Size of one value without its name. */
    public static long valueSize(JsonNode value) {
        Map.Entry<String, JsonNode> e = value.fields().next();
        JsonNode v = e.getValue();
        switch (e.getKey()) {
            case "S":
                return utf8Length(v.asText());
            case "N":
                return numberSize(v.asText());
            case "B":
                return binaryLength(v.asText());
            case "BOOL":
            case "NULL":
                return 1;
            case "SS":
                {
                    long s = 0;
                    for (JsonNode x : v) {
                        s += utf8Length(x.asText());
                    }
                    return s;
                }
            case "NS":
                {
                    long s = 0;
                    for (JsonNode x : v) {
                        s += numberSize(x.asText());
                    }
                    return s;
                }
            case "BS":
                {
                    long s = 0;
                    for (JsonNode x : v) {
                        s += binaryLength(x.asText());
                    }
                    return s;
                }
            case "L":
                {
                    long s = 3;
                    for (JsonNode x : v) {
                        s += valueSize(x) + 1;
                    }
                    return s;
                }
            case "M":
                {
                    long s = 3;
                    Iterator<Map.Entry<String, JsonNode>> it = v.fields();
                    while (it.hasNext()) {
                        Map.Entry<String, JsonNode> m = it.next();
                        s += utf8Length(m.getKey()) + valueSize(m.getValue()) + 1;
                    }
                    return s;
                }
            default:
                return 0;
        }
    }

    /** (significant digits / 2, rounded up) + 1, leading and trailing zeros trimmed. */
    public static long numberSize(String text) {
        int start = 0;
        int end = text.length();
        StringBuilder digits = new StringBuilder(end);
        for (int i = start; i < end; i++) {
            char c = text.charAt(i);
            if (c >= '0' && c <= '9') {
                digits.append(c);
            } else if (c == 'e' || c == 'E') {
                break;
            }
        }
        int a = 0;
        int b = digits.length();
        while (a < b && digits.charAt(a) == '0') {
            a++;
        }
        while (b > a && digits.charAt(b - 1) == '0') {
            b--;
        }
        int significant = Math.max(1, b - a);
        return (significant + 1) / 2 + 1;
    }

    public static long utf8Length(String s) {
        long n = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < 0x80) {
                n += 1;
            } else if (c < 0x800) {
                n += 2;
            } else if (Character.isHighSurrogate(c)) {
                n += 4;
                i++;
            } else {
                n += 3;
            }
        }
        return n;
    }

    static long binaryLength(String base64) {
        return Base64.getDecoder().decode(base64.getBytes(StandardCharsets.US_ASCII)).length;
    }
}
