package io.streamledger.model.keys;

import io.streamledger.model.shard.ShardMap;
import java.time.Instant;
import java.util.List;

/**
 * The Context table's sparse GSI4 lease-expiry queue of IN_FLIGHT outbox items (AP16 step 4):
 * {@code SERVICE#svc#LEASE#shard / EXP#at#eventId}, shard = h(eventId) % 13 under the READY map
 * ({@link ShardMap#OUTBOX_READY}), present only while the item is IN_FLIGHT, so lease recovery
 * queries what has expired instead of scanning every event ever published. Not a seed path: its id
 * ({@code OUTBOX-LEASE}) stays out of the contract.
 *
 * @param service producing service {@code svc}
 * @param shard {@code shard}
 * @param leaseUntil the claim's lease expiry {@code at}, millisecond precision
 * @param eventId {@code eventId}
 */
public record OutboxLeaseKey(String service, int shard, Instant leaseUntil, String eventId)
        implements ItemKey {

    public static final KeyPattern PK = KeyPattern.of("SERVICE#svc#LEASE#shard");
    public static final KeyPattern SK = KeyPattern.of("EXP#at#eventId");

    public OutboxLeaseKey {
        KeyComponents.require("svc", service);
        KeyFields.requireRange("shard", shard, 0, KeyFields.MAX_SHARD);
        leaseUntil = KeyTime.normalise("at", leaseUntil);
        KeyComponents.require("eventId", eventId);
    }

    /** The lease entry of an event claimed until {@code leaseUntil}, sharded as its READY key. */
    public static OutboxLeaseKey forEvent(
            String service, Instant leaseUntil, String eventId, ShardMap map) {
        return new OutboxLeaseKey(service, map.assign(eventId).shard(), leaseUntil, eventId);
    }

    /** The partition of one shard. */
    public static String partition(String service, int shard) {
        return PK.build(service, KeyFields.shard("shard", shard));
    }

    /** An SK above every lease ending at or before {@code at}. */
    public static String expiredBound(Instant at) {
        return KeyTime.dueBound(SK, at);
    }

    public static OutboxLeaseKey parse(String pk, String sk) {
        List<String> p = PK.match(pk);
        List<String> s = SK.match(sk);
        return new OutboxLeaseKey(
                p.get(0),
                KeyFields.parseShard("shard", p.get(1)),
                KeyTime.parse("at", s.get(0)),
                s.get(1));
    }

    @Override
    public String indexId() {
        return "OUTBOX-LEASE";
    }

    @Override
    public String pk() {
        return partition(service, shard);
    }

    @Override
    public String sk() {
        return SK.build(KeyTime.format(leaseUntil), eventId);
    }
}
