package io.streamledger.model.keys;

import java.time.Instant;
import java.util.List;

/**
 * The DeadLetter table's sparse GSI1 status queue (CS08, shaped like IDX15): {@code
 * TEN#t#DLQ#STATUS#status#shard / SEEN#at#job#id}, present only while an entry is OPEN, so the open
 * entries of a tenant are listed oldest first without a scan.
 *
 * @param tenant {@code t}
 * @param status {@code status}, e.g. {@code OPEN}
 * @param shard {@code shard}
 * @param firstSeen {@code at}, millisecond precision
 * @param job {@code job}
 * @param id {@code id}
 */
public record DeadLetterStatusKey(
        String tenant, String status, int shard, Instant firstSeen, String job, String id)
        implements ItemKey {

    /** Shards of the status queue; a listing fans out over all of them. */
    public static final int SHARDS = 4;

    public static final KeyPattern PK = KeyPattern.of("TEN#t#DLQ#STATUS#status#shard");
    public static final KeyPattern SK = KeyPattern.of("SEEN#at#job#id");

    public DeadLetterStatusKey {
        KeyComponents.require("t", tenant);
        KeyComponents.require("status", status);
        KeyFields.requireRange("shard", shard, 0, SHARDS - 1);
        firstSeen = KeyTime.normalise("at", firstSeen);
        KeyComponents.require("job", job);
        KeyComponents.require("id", id);
    }

    public static DeadLetterStatusKey parse(String pk, String sk) {
        List<String> p = PK.match(pk);
        List<String> s = SK.match(sk);
        return new DeadLetterStatusKey(
                p.get(0),
                p.get(1),
                KeyFields.parseShard("shard", p.get(2)),
                KeyTime.parse("at", s.get(0)),
                s.get(1),
                s.get(2));
    }

    @Override
    public String indexId() {
        return "DLQ-STATUS";
    }

    @Override
    public String pk() {
        return PK.build(tenant, status, KeyFields.shard("shard", shard));
    }

    @Override
    public String sk() {
        return SK.build(KeyTime.format(firstSeen), job, id);
    }
}
