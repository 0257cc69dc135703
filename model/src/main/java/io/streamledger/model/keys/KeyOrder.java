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

    public static int compare(String a, String b) {
        int i = 0;
        int j = 0;
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
