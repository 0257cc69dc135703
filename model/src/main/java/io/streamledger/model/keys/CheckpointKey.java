package io.streamledger.model.keys;

import io.streamledger.model.shard.ShardMap;
import java.util.List;

/**
 * IDX12 (AP13) projection checkpoint per source key: {@code PROJ#name#V#v#SHARD#h(sourceKey)%7 /
 * SOURCE#key}. {@code v} is the shard-map version (AP13 key predicate "projection+source
 * key+shardVersion").
 *
 * @param projection projection {@code name}
 * @param shardMapVersion {@code v}
 * @param shard {@code h(sourceKey) % N}
 * @param sourceKey source aggregate {@code key}
 */
public record CheckpointKey(String projection, int shardMapVersion, int shard, String sourceKey)
        implements ItemKey {
    public CheckpointKey {
        KeyComponents.require("name", projection);
        KeyFields.requireRange("v", shardMapVersion, 1, Integer.MAX_VALUE);
        KeyFields.requireRange("h(sourceKey)%7", shard, 0, KeyFields.MAX_SHARD);
        KeyComponents.require("key", sourceKey);
    }

    /**
     * The checkpoint key of a source under a map (normally {@link
     * ShardMap#PROJECTION_CHECKPOINTS}).
     */
    public static CheckpointKey forSource(String projection, String sourceKey, ShardMap map) {
        return new CheckpointKey(
                projection, map.shardMapVersion(), map.assign(sourceKey).shard(), sourceKey);
    }

    public static CheckpointKey parse(String pk, String sk) {
        List<String> p = KeyPaths.IDX12_PK.match(pk);
        List<String> s = KeyPaths.IDX12_SK.match(sk);
        return new CheckpointKey(
                p.get(0),
                KeyFields.parseNatural("v", p.get(1), 1, Integer.MAX_VALUE),
                KeyFields.parseShard("h(sourceKey)%7", p.get(2)),
                s.get(0));
    }

    /** True when {@link #shard()} is what {@code map} assigns to {@link #sourceKey()}. */
    public boolean isConsistentWith(ShardMap map) {
        return map.shardMapVersion() == shardMapVersion && map.assign(sourceKey).shard() == shard;
    }

    @Override
    public String indexId() {
        return "IDX12";
    }

    @Override
    public String pk() {
        return KeyPaths.IDX12_PK.build(
                projection,
                KeyFields.version(shardMapVersion),
                KeyFields.shard("h(sourceKey)%7", shard));
    }

    @Override
    public String sk() {
        return KeyPaths.IDX12_SK.build(sourceKey);
    }
}
