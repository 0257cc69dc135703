package io.streamledger.model.shard;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * AP09/AP13/AP16 shard-hash contract, hash version 1. The vectors below are published (also in
 * model/README.md); they were computed outside Java (Python hashlib) and are re-derived here with
 * MessageDigest + BigInteger, independently of the class under test.
 */
class ShardHashTest {

    /** key, unsigned first 64 bits of SHA-256(UTF-8 key) in decimal, key mod 7, key mod 13. */
    static final Object[][] VECTORS = {
        {"evt-0001", "8205306309149544234", 3, 3},
        {"evt-0002", "6931018164043113075", 5, 0},
        {"ORDER#t1#o-42", "10797943669938986", 1, 2},
        {"acct-7:AAPL", "8776293393082222157", 3, 7},
        {"tenant-a/order-2026-11-30-000001", "11029717311110033776", 2, 6},
        {"\u00fc-unicode-\u00dcn\u00efcode", "3933411054566271452", 6, 5},
        {"5f0c8a8e-3b9e-4c1e-9d2a-7f6b1c2d3e4f", "10070874680236469384", 5, 12},
        {"Portfolio:acct-1:MSFT", "6030276417569032260", 2, 8},
    };

    private static BigInteger independentHash(String key) throws Exception {
        byte[] digest =
                MessageDigest.getInstance("SHA-256").digest(key.getBytes(StandardCharsets.UTF_8));
        return new BigInteger(1, Arrays.copyOf(digest, 8));
    }

    @Test
    void publishedVectorsAgreeWithAnIndependentComputation() throws Exception {
        for (Object[] v : VECTORS) {
            BigInteger h = independentHash((String) v[0]);
            assertThat(h.toString()).as((String) v[0]).isEqualTo(v[1]);
            assertThat(h.mod(BigInteger.valueOf(7)).intValue()).isEqualTo(v[2]);
            assertThat(h.mod(BigInteger.valueOf(13)).intValue()).isEqualTo(v[3]);
        }
    }

    @Test
    void implementationMatchesThePublishedVectors() {
        for (Object[] v : VECTORS) {
            String key = (String) v[0];
            assertThat(Long.toUnsignedString(ShardHash.hash64(key))).as(key).isEqualTo(v[1]);
            assertThat(ShardHash.shard(key, 7)).as(key).isEqualTo(v[2]);
            assertThat(ShardHash.shard(key, 13)).as(key).isEqualTo(v[3]);
        }
    }

    @Test
    void vectorsCoverHashesAboveTwoToThe63() {
        // a signed % would go wrong exactly for these
        long above =
                Arrays.stream(VECTORS)
                        .filter(v -> new BigInteger((String) v[1]).bitLength() == 64)
                        .count();
        assertThat(above).isGreaterThanOrEqualTo(2);
    }

    @Test
    void unsignedModuloMatchesBigIntegerForRandomKeys() throws Exception {
        Random random = new Random(99L);
        for (int i = 0; i < 2_000; i++) {
            String key = "k-" + Long.toHexString(random.nextLong()) + "-" + i;
            BigInteger h = independentHash(key);
            for (int n : new int[] {1, 7, 13, 100}) {
                assertThat(ShardHash.shard(key, n))
                        .isEqualTo(h.mod(BigInteger.valueOf(n)).intValue());
            }
        }
    }

    @Test
    void assignmentCarriesVersions() {
        ShardAssignment a = ShardMap.INBOX.assign("evt-0002");
        assertThat(a.shard()).isZero();
        assertThat(a.shardCount()).isEqualTo(13);
        assertThat(a.hashVersion()).isEqualTo(1);
        assertThat(a.shardMapVersion()).isEqualTo(1);
        assertThat(a.shardMapName()).isEqualTo("inbox");
        assertThat(a.hashUnsigned()).isEqualTo("6931018164043113075");
        assertThat(ShardMap.PROJECTION_CHECKPOINTS.assign("evt-0002").shard()).isEqualTo(5);
        assertThat(ShardMap.OUTBOX_READY.shardCount()).isEqualTo(13);
        ShardMap next = ShardMap.INBOX.withShardCount(17);
        assertThat(next.shardMapVersion()).isEqualTo(2);
        assertThat(next.assign("evt-0002").shardMapVersion()).isEqualTo(2);
    }

    @Test
    void rejectsNonCanonicalKeysAndBadMaps() {
        // "u" + combining diaeresis is the NFD spelling of the NFC "\u00fc"
        assertThatThrownBy(() -> ShardHash.hash64("u\u0308")).hasMessageContaining("NFC");
        assertThatThrownBy(() -> ShardHash.hash64("")).hasMessageContaining("empty");
        assertThatThrownBy(() -> ShardHash.hash64(null)).hasMessageContaining("null");
        assertThatThrownBy(() -> ShardHash.hash64("x\uD800")).hasMessageContaining("surrogate");
        assertThatThrownBy(() -> ShardHash.shard("x", 0)).hasMessageContaining(">= 1");
        assertThatThrownBy(() -> new ShardMap("m", 7, 2, 1)).hasMessageContaining("hashVersion");
        assertThatThrownBy(() -> new ShardMap("m", 0, 1, 1)).hasMessageContaining("shardCount");
    }
}
