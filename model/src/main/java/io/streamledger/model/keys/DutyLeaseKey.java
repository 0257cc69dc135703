package io.streamledger.model.keys;

import java.util.List;

/**
 * The lease item of one time-driven duty over one tenant shard (the AP08 lease pattern applied to
 * schedulers: DAY/GTD expiry, AP15 escalation), in the Idempotency table beside the AP08 records it
 * shares its consistency needs with: {@code TEN#t#LEASE#duty#shard / LEASE}. One instance holds it
 * and works that shard; the others stand by. Not a seed path ({@code DUTY-LEASE}).
 *
 * @param tenant {@code t}
 * @param duty {@code duty}, e.g. {@code order-expiry}
 * @param shard {@code shard} of the duty's queue (0 for a tenant-wide duty)
 */
public record DutyLeaseKey(String tenant, String duty, int shard) implements ItemKey {

    public static final KeyPattern PK = KeyPattern.of("TEN#t#LEASE#duty#shard");
    public static final KeyPattern SK = KeyPattern.of("LEASE");

    public DutyLeaseKey {
        KeyComponents.require("t", tenant);
        KeyComponents.require("duty", duty);
        KeyFields.requireRange("shard", shard, 0, KeyFields.MAX_SHARD);
    }

    public static DutyLeaseKey parse(String pk, String sk) {
        List<String> p = PK.match(pk);
        SK.match(sk);
        return new DutyLeaseKey(p.get(0), p.get(1), KeyFields.parseShard("shard", p.get(2)));
    }

    @Override
    public String indexId() {
        return "DUTY-LEASE";
    }

    @Override
    public String pk() {
        return PK.build(tenant, duty, KeyFields.shard("shard", shard));
    }

    @Override
    public String sk() {
        return SK.build();
    }
}
