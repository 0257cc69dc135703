package io.streamledger.local.streams;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Map;
import java.util.TreeMap;

/**
 * Stable hash of an item's primary key (wire form, attribute order ignored): picks its stream shard
 * and its Kinesis partition key, so every change of one item lands in one ordered sequence (seed
 * CS07: order is per item key).
 */
public final class ItemKeyHash {
    private ItemKeyHash() {}

    /** MD5 of the canonical key string. */
    public static byte[] md5(JsonNode keys) {
        Map<String, String> sorted = new TreeMap<>();
        keys.fields().forEachRemaining(e -> sorted.put(e.getKey(), e.getValue().toString()));
        StringBuilder canonical = new StringBuilder();
        sorted.forEach((k, v) -> canonical.append(k).append('=').append(v).append(';'));
        try {
            return MessageDigest.getInstance("MD5")
                    .digest(canonical.toString().getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("MD5 is part of every JRE", e);
        }
    }

    /** Bucket in [0, buckets). */
    public static int bucket(JsonNode keys, int buckets) {
        byte[] h = md5(keys);
        int v =
                ((h[0] & 0xff) << 24)
                        | ((h[1] & 0xff) << 16)
                        | ((h[2] & 0xff) << 8)
                        | (h[3] & 0xff);
        return Math.floorMod(v, buckets);
    }

    /** Hex MD5, used as a Kinesis partition key. */
    public static String hex(JsonNode keys) {
        return HexFormat.of().formatHex(md5(keys));
    }
}
