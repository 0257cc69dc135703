package io.streamledger.aws.items;

import java.math.BigDecimal;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/** Small AttributeValue helpers; numbers always travel as exact decimal strings (CS10). */
public final class Av {

    private Av() {}

    public static AttributeValue s(String v) {
        return AttributeValue.fromS(v);
    }

    public static AttributeValue n(long v) {
        return AttributeValue.fromN(Long.toString(v));
    }

    public static AttributeValue n(BigDecimal v) {
        return AttributeValue.fromN(v.toPlainString());
    }

    public static AttributeValue bool(boolean v) {
        return AttributeValue.fromBool(v);
    }

    public static String str(Map<String, AttributeValue> item, String name) {
        AttributeValue v = item.get(name);
        return v == null ? null : v.s();
    }

    public static String reqStr(Map<String, AttributeValue> item, String name) {
        String v = str(item, name);
        if (v == null) {
            throw new IllegalStateException("stored item lacks string attribute '" + name + "'");
        }
        return v;
    }

    public static BigDecimal dec(Map<String, AttributeValue> item, String name) {
        AttributeValue v = item.get(name);
        return v == null || v.n() == null ? null : new BigDecimal(v.n());
    }

    public static long lng(Map<String, AttributeValue> item, String name, long dflt) {
        AttributeValue v = item.get(name);
        return v == null || v.n() == null ? dflt : Long.parseLong(v.n());
    }

    /**
     * Approximate DynamoDB item size (seed capacity model AMP04): attribute names + values (UTF-8),
     * numbers by significant digits, sets by their members, lists and maps with their overhead.
     */
    public static int itemSize(Map<String, AttributeValue> item) {
        int size = 0;
        for (Map.Entry<String, AttributeValue> e : item.entrySet()) {
            size += utf8(e.getKey()) + valueSize(e.getValue());
        }
        return size;
    }

    private static int valueSize(AttributeValue v) {
        if (v.s() != null) {
            return utf8(v.s());
        }
        if (v.n() != null) {
            return numberSize(v.n());
        }
        if (v.bool() != null || Boolean.TRUE.equals(v.nul())) {
            return 1;
        }
        if (v.hasM()) {
            int s = 3;
            for (Map.Entry<String, AttributeValue> e : v.m().entrySet()) {
                s += utf8(e.getKey()) + valueSize(e.getValue()) + 1;
            }
            return s;
        }
        if (v.hasL()) {
            int s = 3;
            for (AttributeValue e : v.l()) {
                s += valueSize(e) + 1;
            }
            return s;
        }
        if (v.b() != null) {
            return v.b().asByteArrayUnsafe().length;
        }
        if (v.hasSs()) {
            return v.ss().stream().mapToInt(Av::utf8).sum();
        }
        if (v.hasNs()) {
            return v.ns().stream().mapToInt(Av::numberSize).sum();
        }
        if (v.hasBs()) {
            return v.bs().stream().mapToInt(b -> b.asByteArrayUnsafe().length).sum();
        }
        return 0;
    }

    // significant digits with leading/trailing zeros trimmed, as DynamoDB stores them
    private static int numberSize(String n) {
        BigDecimal d = new BigDecimal(n).abs();
        int digits = d.signum() == 0 ? 1 : d.stripTrailingZeros().precision();
        return (digits + 1) / 2 + 1;
    }

    /** UTF-8 length without encoding (it runs for every item of every call the metrics size). */
    static int utf8(String s) {
        int n = s.length();
        int bytes = n;
        for (int i = 0; i < n; i++) {
            char c = s.charAt(i);
            if (c >= 0x80) {
                if (c < 0x800) {
                    bytes += 1;
                } else if (Character.isHighSurrogate(c)
                        && i + 1 < n
                        && Character.isLowSurrogate(s.charAt(i + 1))) {
                    bytes += 2; // a pair: 4 bytes for 2 chars
                    i++;
                } else {
                    bytes += 2; // 3 bytes (a lone surrogate encodes as '?', 1 byte, below)
                    if (Character.isSurrogate(c)) {
                        bytes -= 2;
                    }
                }
            }
        }
        return bytes;
    }
}
