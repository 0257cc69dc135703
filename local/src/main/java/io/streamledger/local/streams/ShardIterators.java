package io.streamledger.local.streams;

import io.streamledger.local.spi.ApiException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Base64;

/**
 * Opaque shard iterator tokens: stream ARN, shard id, absolute position and issue time, so that
 * GetRecords can enforce AWS's 15-minute iterator lifetime (CS07).
 */
final class ShardIterators {
    private static final String VERSION = "sli1";

    record Position(String streamArn, String shardId, long position, Instant issuedAt) {}

    private ShardIterators() {}

    static String encode(Position p) {
        String raw =
                String.join(
                        "|",
                        VERSION,
                        p.streamArn(),
                        p.shardId(),
                        Long.toString(p.position()),
                        Long.toString(p.issuedAt().toEpochMilli()));
        return Base64.getUrlEncoder()
                .withoutPadding()
                .encodeToString(raw.getBytes(StandardCharsets.UTF_8));
    }

    static Position decode(String token) {
        try {
            String raw = new String(Base64.getUrlDecoder().decode(token), StandardCharsets.UTF_8);
            String[] parts = raw.split("\\|", -1);
            if (parts.length != 5 || !VERSION.equals(parts[0])) {
                throw invalid();
            }
            return new Position(
                    parts[1],
                    parts[2],
                    Long.parseLong(parts[3]),
                    Instant.ofEpochMilli(Long.parseLong(parts[4])));
        } catch (IllegalArgumentException e) { // bad base64 or number
            throw invalid();
        }
    }

    private static ApiException invalid() {
        return ApiException.validation("Invalid ShardIterator");
    }
}
