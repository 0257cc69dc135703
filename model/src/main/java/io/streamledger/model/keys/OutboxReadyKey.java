package io.streamledger.model.keys;

import io.streamledger.model.shard.ShardMap;
import java.time.Instant;
import java.util.List;

/**
 * IDX17 (AP16) Context GSI3 sparse READY due queue ({@code readyPk}/{@code readySk}): {@code
 * SERVICE#svc#READY#shard / DUE#at#eventId}, shard = h(eventId) % 13 under {@link
 * ShardMap#OUTBOX_READY}.
 *
 * @param service producing service {@code svc}
 * @param shard READY {@code shard}
 * @param dueAt due time {@code at}, millisecond precision
 * @param eventId {@code eventId}
 */
public record OutboxReadyKey(String service, int shard, Instant dueAt, String eventId)
        implements ItemKey {
    public OutboxReadyKey {
        KeyComponents.require("svc", service);
        KeyFields.requireRange("shard", shard, 0, KeyFields.MAX_SHARD);
        dueAt = KeyTime.normalise("at", dueAt);
        KeyComponents.require("eventId", eventId);
    }

    /** The READY key of an event under a map (normally {@link ShardMap#OUTBOX_READY}). */
    public static OutboxReadyKey forEvent(
            String service, Instant dueAt, String eventId, ShardMap map) {
        return new OutboxReadyKey(service, map.assign(eventId).shard(), dueAt, eventId);
    }

    public static OutboxReadyKey parse(String pk, String sk) {
        List<String> p = KeyPaths.IDX17_PK.match(pk);
        List<String> s = KeyPaths.IDX17_SK.match(sk);
        return new OutboxReadyKey(
                p.get(0),
                KeyFields.parseShard("shard", p.get(1)),
                KeyTime.parse("at", s.get(0)),
                s.get(1));
    }

    @Override
    public String indexId() {
        return "IDX17";
    }

    @Override
    public String pk() {
        return KeyPaths.IDX17_PK.build(service, KeyFields.shard("shard", shard));
    }

    @Override
    public String sk() {
        return KeyPaths.IDX17_SK.build(KeyTime.format(dueAt), eventId);
    }
}
