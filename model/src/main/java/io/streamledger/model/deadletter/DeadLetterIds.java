package io.streamledger.model.deadletter;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * The deterministic id of a dead-letter entry (CS08): SHA-256 over {@code job|origin} where origin
 * is the record's source position or event id, first 128 bits in hex. The same record set aside
 * again — a replay after a restart — lands on the same entry, so the table never holds it twice.
 */
public final class DeadLetterIds {

    /** Hex characters of an id (128 bits). */
    public static final int LENGTH = 32;

    private DeadLetterIds() {}

    /**
     * @param job the job that set the record aside, e.g. {@code posting}
     * @param origin source position ({@code stream/shard/sequence}) or event id
     */
    public static String of(String job, String origin) {
        try {
            byte[] h =
                    MessageDigest.getInstance("SHA-256")
                            .digest((job + "|" + origin).getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(h).substring(0, LENGTH);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required by every JRE", e);
        }
    }
}
