package io.streamledger.model.keys;

import io.streamledger.model.shard.ShardMap;
import java.util.List;

/**
 * IDX09 (AP09) consumer inbox receipt: {@code CONSUMER#name#V#v#SHARD#h(eventId)%13 / EVENT#id}.
 * {@code v} is the shard-map version the event was first admitted under (AP09 key predicate
 * "consumer+eventId+shardVersion"); retries keep it, so a reshard never re-admits an event.
 *
 * @param consumer consumer {@code name}
 * @param shardMapVersion {@code v}
 * @param shard {@code h(eventId) % N} of that map version
 * @param eventId business event {@code id}
 */
public record InboxKey(String consumer, int shardMapVersion, int shard, String eventId)
        implements ItemKey {
    public InboxKey {
        KeyComponents.require("name", consumer);
        KeyFields.requireRange("v", shardMapVersion, 1, Integer.MAX_VALUE);
        KeyFields.requireRange("h(eventId)%13", shard, 0, KeyFields.MAX_SHARD);
        KeyComponents.require("id", eventId);
    }

    /** The receipt key of an event under a shard map (normally {@link ShardMap#INBOX}). */
    public static InboxKey forEvent(String consumer, String eventId, ShardMap map) {
        return new InboxKey(consumer, map.shardMapVersion(), map.assign(eventId).shard(), eventId);
    }

    public static InboxKey parse(String pk, String sk) {
        List<String> p = KeyPaths.IDX09_PK.match(pk);
        List<String> s = KeyPaths.IDX09_SK.match(sk);
        return new InboxKey(
                p.get(0),
                KeyFields.parseNatural("v", p.get(1), 1, Integer.MAX_VALUE),
                KeyFields.parseShard("h(eventId)%13", p.get(2)),
                s.get(0));
    }

    /** True when {@link #shard()} is what {@code map} assigns to {@link #eventId()}. */
    public boolean isConsistentWith(ShardMap map) {
        return map.shardMapVersion() == shardMapVersion && map.assign(eventId).shard() == shard;
    }

    @Override
    public String indexId() {
        return "IDX09";
    }

    @Override
    public String pk() {
        return KeyPaths.IDX09_PK.build(
                consumer,
                KeyFields.version(shardMapVersion),
                KeyFields.shard("h(eventId)%13", shard));
    }

    @Override
    public String sk() {
        return KeyPaths.IDX09_SK.build(eventId);
    }
}
