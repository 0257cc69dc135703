package io.streamledger.model.shard;

/**
 * The result of hashing one business key onto a {@link ShardMap} (AP09, AP13, AP16); store {@code
 * hashVersion} and {@code shardMapVersion} on the item so retries keep their original map.
 *
 * @param businessKey the canonical key that was hashed
 * @param hash unsigned 64-bit hash, as a Java long (see {@link #hashUnsigned()})
 * @param shard {@code hash mod shardCount}
 * @param shardCount N of the map
 * @param hashVersion hash function version ({@link ShardHash#HASH_VERSION})
 * @param shardMapVersion version of the map that chose N
 * @param shardMapName name of the map, e.g. {@code inbox}
 */
public record ShardAssignment(
        String businessKey,
        long hash,
        int shard,
        int shardCount,
        int hashVersion,
        int shardMapVersion,
        String shardMapName) {

    /** The hash as an unsigned decimal string. */
    public String hashUnsigned() {
        return Long.toUnsignedString(hash);
    }
}
