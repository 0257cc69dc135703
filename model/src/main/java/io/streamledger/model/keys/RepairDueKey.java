package io.streamledger.model.keys;

import java.time.Instant;
import java.util.List;

/**
 * IDX19 (AP18) Idempotency GSI1 sparse repair queue, present only while a request is
 * REPAIR_REQUIRED: {@code TEN#t#REPAIR#shard / DUE#at#key}.
 *
 * @param tenant {@code t}
 * @param shard repair queue {@code shard}
 * @param dueAt due time {@code at}, millisecond precision
 * @param clientKey the request's idempotency {@code key}
 */
public record RepairDueKey(String tenant, int shard, Instant dueAt, String clientKey)
        implements ItemKey {
    public RepairDueKey {
        KeyComponents.require("t", tenant);
        KeyFields.requireRange("shard", shard, 0, KeyFields.MAX_SHARD);
        dueAt = KeyTime.normalise("at", dueAt);
        KeyComponents.require("key", clientKey);
    }

    public static RepairDueKey parse(String pk, String sk) {
        List<String> p = KeyPaths.IDX19_PK.match(pk);
        List<String> s = KeyPaths.IDX19_SK.match(sk);
        return new RepairDueKey(
                p.get(0),
                KeyFields.parseShard("shard", p.get(1)),
                KeyTime.parse("at", s.get(0)),
                s.get(1));
    }

    @Override
    public String indexId() {
        return "IDX19";
    }

    @Override
    public String pk() {
        return KeyPaths.IDX19_PK.build(tenant, KeyFields.shard("shard", shard));
    }

    @Override
    public String sk() {
        return KeyPaths.IDX19_SK.build(KeyTime.format(dueAt), clientKey);
    }
}
