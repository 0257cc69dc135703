package io.streamledger.command.ops;

import java.nio.charset.StandardCharsets;
import java.util.Base64;

/**
 * The ops API's id of one AP15 break: base64url of {@code batchId \n breakId} (break ids hold
 * {@code /} and {@code :}, which a path segment cannot carry), reversible to the IDX14 key.
 */
public record BreakRef(String batchId, String breakId) {

    public static String format(String batchId, String breakId) {
        return Base64.getUrlEncoder()
                .withoutPadding()
                .encodeToString((batchId + "\n" + breakId).getBytes(StandardCharsets.UTF_8));
    }

    public String id() {
        return format(batchId, breakId);
    }

    /**
     * @throws IllegalArgumentException when {@code id} is not a break id
     */
    public static BreakRef parse(String id) {
        String text;
        try {
            text = new String(Base64.getUrlDecoder().decode(id), StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("a break id is the base64url id a listing returns");
        }
        int nl = text.indexOf('\n');
        if (nl <= 0 || nl == text.length() - 1 || text.indexOf('\n', nl + 1) >= 0) {
            throw new IllegalArgumentException("a break id is the base64url id a listing returns");
        }
        return new BreakRef(text.substring(0, nl), text.substring(nl + 1));
    }
}
