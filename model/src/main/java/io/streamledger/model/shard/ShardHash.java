package io.streamledger.model.shard;

import java.nio.charset.StandardCharsets;
import java.text.Normalizer;

/**
 * The seed's shard-hash contract, hash version 1 (AP09, AP13, AP16): the unsigned first 64 bits
 * (big-endian) of SHA-256 over the canonical UTF-8 business key, modulo N. "Canonical" here means
 * the exact key string in Unicode NFC; a non-NFC key is rejected rather than normalised, so that
 * two spellings of one key can never land on different shards silently.
 */
public final class ShardHash {
    /** The only hash version defined so far. */
    public static final int HASH_VERSION = 1;

    /** Maximum length of a business key, in UTF-16 chars. */
    public static final int MAX_KEY_LENGTH = 1024;

    private ShardHash() {}

    /**
     * The 64-bit hash as a Java {@code long}; interpret it unsigned ({@link
     * Long#toUnsignedString(long)}).
     */
    public static long hash64(String businessKey) {
        byte[] digest =
                Sha256.digest(requireCanonical(businessKey).getBytes(StandardCharsets.UTF_8));
        long h = 0;
        for (int i = 0; i < 8; i++) {
            h = (h << 8) | (digest[i] & 0xFFL);
        }
        return h;
    }

    /** {@code hash64(key) mod n}, unsigned. */
    public static int shard(String businessKey, int shardCount) {
        if (shardCount < 1) {
            throw new IllegalArgumentException("shard count must be >= 1, got " + shardCount);
        }
        return (int) Long.remainderUnsigned(hash64(businessKey), shardCount);
    }

    /**
     * Returns the key when it is canonical: non-empty, at most {@value #MAX_KEY_LENGTH} chars, NFC,
     * no unpaired surrogates.
     */
    public static String requireCanonical(String businessKey) {
        if (businessKey == null || businessKey.isEmpty()) {
            throw new IllegalArgumentException("business key is null or empty");
        }
        if (businessKey.length() > MAX_KEY_LENGTH) {
            throw new IllegalArgumentException(
                    "business key is " + businessKey.length() + " chars; limit " + MAX_KEY_LENGTH);
        }
        for (int i = 0; i < businessKey.length(); i++) {
            char c = businessKey.charAt(i);
            if (Character.isHighSurrogate(c)
                    && i + 1 < businessKey.length()
                    && Character.isLowSurrogate(businessKey.charAt(i + 1))) {
                i++;
            } else if (Character.isSurrogate(c)) {
                throw new IllegalArgumentException(
                        "business key has an unpaired surrogate at index " + i);
            }
        }
        if (!Normalizer.isNormalized(businessKey, Normalizer.Form.NFC)) {
            throw new IllegalArgumentException(
                    "business key is not Unicode NFC; normalise it where it is created");
        }
        return businessKey;
    }
}
