package io.streamledger.model.keys;

import java.util.Comparator;

/**
 * DynamoDB's order of string keys (UTF-8 bytes, i.e. Unicode code points), which differs from
 * {@link String#compareTo} (UTF-16 units) past the BMP: merges of several Query streams compare
 * sort keys with it so the merge agrees with each stream's own order (AP06, AP11, AP16).
 */
public final class KeyOrder {
    /** Ascending DynamoDB string order. */
    public static final Comparator<String> STRING = KeyOrder::compare;

    private KeyOrder() {}

    /**
     * Compares strings by their UTF-8 bytes, which is code point order. UTF-16 order differs only
     * where a surrogate meets a char at or above U+E000, so the first differing char decides unless
     * one of the two is a surrogate.
     */
    public static int compare(String a, String b) {
        int n = Math.min(a.length(), b.length());
        for (int i = 0; i < n; i++) {
            char ca = a.charAt(i);
            char cb = b.charAt(i);
            if (ca != cb) {
                if (!Character.isSurrogate(ca) && !Character.isSurrogate(cb)) {
                    return Character.compare(ca, cb);
                }
                int from = i > 0 && Character.isHighSurrogate(a.charAt(i - 1)) ? i - 1 : i;
                return compareCodePoints(a, b, from);
            }
        }
        return Integer.compare(a.length(), b.length());
    }

    private static int compareCodePoints(String a, String b, int from) {
        int i = from;
        int j = from;
        while (i < a.length() && j < b.length()) {
            int ca = a.codePointAt(i);
            int cb = b.codePointAt(j);
            if (ca != cb) {
                return Integer.compare(ca, cb);
            }
            i += Character.charCount(ca);
            j += Character.charCount(cb);
        }
        return Integer.compare(a.length() - i, b.length() - j);
    }
}
