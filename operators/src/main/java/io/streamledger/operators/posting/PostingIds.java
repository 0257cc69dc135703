package io.streamledger.operators.posting;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * Deterministic ledger identities (AP10): the txnId is a function of tenant + source business id,
 * computed exactly as the command service's {@code DeterministicIds.txnId}, so a fill posted by
 * this job and a ledger transaction admitted over HTTP share one txnId namespace.
 */
public final class PostingIds {

    private PostingIds() {}

    /** Source business id of a fill's transaction. */
    public static String tradeSourceId(String tradeId) {
        return "TRADE:" + tradeId;
    }

    /** {@code t-} + first 32 hex chars of SHA-256("txn\n" + tenant + "\n" + sourceId). */
    public static String txnId(String tenant, String sourceId) {
        return "t-" + sha256Hex("txn\n" + tenant + "\n" + sourceId).substring(0, 32);
    }

    static String sha256Hex(String s) {
        try {
            return HexFormat.of()
                    .formatHex(
                            MessageDigest.getInstance("SHA-256")
                                    .digest(s.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required by every JVM", e);
        }
    }
}
