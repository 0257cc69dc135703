package io.streamledger.operators.recon;

import java.math.BigDecimal;
import java.util.Map;
import java.util.TreeMap;

/**
 * Builds the evidence of an AP15 break: a flat JSON object with keys in name order and every value
 * a string (amounts as exact plain decimals, CS10), so the same facts always give the same text.
 */
public final class Evidence {

    private final Map<String, String> fields = new TreeMap<>();

    public static Evidence of() {
        return new Evidence();
    }

    public Evidence put(String name, Object value) {
        fields.put(name, value == null ? "" : text(value));
        return this;
    }

    private static String text(Object value) {
        return value instanceof BigDecimal d ? d.toPlainString() : String.valueOf(value);
    }

    public String json() {
        StringBuilder b = new StringBuilder("{");
        boolean first = true;
        for (Map.Entry<String, String> e : fields.entrySet()) {
            if (!first) {
                b.append(',');
            }
            first = false;
            quote(b, e.getKey());
            b.append(':');
            quote(b, e.getValue());
        }
        return b.append('}').toString();
    }

    private static void quote(StringBuilder b, String s) {
        b.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                case '\n' -> b.append("\\n");
                case '\r' -> b.append("\\r");
                case '\t' -> b.append("\\t");
                default -> {
                    if (c < 0x20) {
                        b.append(String.format("\\u%04x", (int) c));
                    } else {
                        b.append(c);
                    }
                }
            }
        }
        b.append('"');
    }
}
