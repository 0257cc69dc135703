package io.streamledger.model.keys;

import java.time.Instant;
import java.util.List;

/**
 * IDX15 (AP15) Reconciliation GSI1 sparse cross-batch due queue: {@code TEN#t#BREAK#status#shard /
 * DUE#at#batch#id}; present only while a break is open.
 *
 * @param tenant {@code t}
 * @param status break {@code status}, e.g. {@code OPEN}
 * @param shard queue {@code shard}
 * @param dueAt due time {@code at}, millisecond precision
 * @param batchId {@code batch}
 * @param breakId {@code id}
 */
public record BreakDueKey(
        String tenant, String status, int shard, Instant dueAt, String batchId, String breakId)
        implements ItemKey {
    public BreakDueKey {
        KeyComponents.require("t", tenant);
        KeyComponents.require("status", status);
        KeyFields.requireRange("shard", shard, 0, KeyFields.MAX_SHARD);
        dueAt = KeyTime.normalise("at", dueAt);
        KeyComponents.require("batch", batchId);
        KeyComponents.require("id", breakId);
    }

    public static BreakDueKey parse(String pk, String sk) {
        List<String> p = KeyPaths.IDX15_PK.match(pk);
        List<String> s = KeyPaths.IDX15_SK.match(sk);
        return new BreakDueKey(
                p.get(0),
                p.get(1),
                KeyFields.parseShard("shard", p.get(2)),
                KeyTime.parse("at", s.get(0)),
                s.get(1),
                s.get(2));
    }

    @Override
    public String indexId() {
        return "IDX15";
    }

    @Override
    public String pk() {
        return KeyPaths.IDX15_PK.build(tenant, status, KeyFields.shard("shard", shard));
    }

    @Override
    public String sk() {
        return KeyPaths.IDX15_SK.build(KeyTime.format(dueAt), batchId, breakId);
    }
}
