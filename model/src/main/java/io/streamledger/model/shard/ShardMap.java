package io.streamledger.model.shard;

import java.util.List;
import java.util.Objects;

/**
 * A versioned shard map (seed: "Do not change N in place"): name, shard count N, hash version and
 * map version. A new N is a new {@code shardMapVersion}; the seed's planning values are {@link
 * #INBOX} (AP09, 13 shards), {@link #PROJECTION_CHECKPOINTS} (AP13, 7) and {@link #OUTBOX_READY}
 * (AP16, 13).
 *
 * @param name map name
 * @param shardCount N
 * @param hashVersion hash function version; only {@link ShardHash#HASH_VERSION} exists
 * @param shardMapVersion version of this map (1 or more)
 */
public record ShardMap(String name, int shardCount, int hashVersion, int shardMapVersion) {
    /** AP09 inbox receipts: {@code CONSUMER#name#V#v#SHARD#h(eventId)%13}. */
    public static final ShardMap INBOX = new ShardMap("inbox", 13, ShardHash.HASH_VERSION, 1);

    /** AP13 projection checkpoints: {@code PROJ#name#V#v#SHARD#h(sourceKey)%7}. */
    public static final ShardMap PROJECTION_CHECKPOINTS =
            new ShardMap("projection-checkpoints", 7, ShardHash.HASH_VERSION, 1);

    /** AP16 outbox READY queue: {@code SERVICE#svc#READY#shard} over h(eventId)%13. */
    public static final ShardMap OUTBOX_READY =
            new ShardMap("outbox-ready", 13, ShardHash.HASH_VERSION, 1);

    /** The seed's maps. */
    public static final List<ShardMap> SEED_MAPS =
            List.of(INBOX, PROJECTION_CHECKPOINTS, OUTBOX_READY);

    public ShardMap {
        Objects.requireNonNull(name, "name");
        if (shardCount < 1 || shardCount > 9999) {
            throw new IllegalArgumentException("shardCount must be 1..9999, got " + shardCount);
        }
        if (hashVersion != ShardHash.HASH_VERSION) {
            throw new IllegalArgumentException(
                    "unknown hashVersion " + hashVersion + "; only " + ShardHash.HASH_VERSION);
        }
        if (shardMapVersion < 1) {
            throw new IllegalArgumentException("shardMapVersion must be >= 1");
        }
    }

    /** Hashes a business key onto this map. */
    public ShardAssignment assign(String businessKey) {
        long hash = ShardHash.hash64(businessKey);
        int shard = (int) Long.remainderUnsigned(hash, shardCount);
        return new ShardAssignment(
                businessKey, hash, shard, shardCount, hashVersion, shardMapVersion, name);
    }

    /** A successor map with a new N; the version increases by one. */
    public ShardMap withShardCount(int newShardCount) {
        return new ShardMap(name, newShardCount, hashVersion, shardMapVersion + 1);
    }
}
