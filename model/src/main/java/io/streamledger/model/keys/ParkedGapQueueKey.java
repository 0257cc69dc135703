package io.streamledger.model.keys;

import java.time.Instant;
import java.util.List;

/**
 * The DeadLetter table's sparse GSI1 queue of parked gaps (CS07, shaped like IDX15): {@code
 * TEN#t#GAPS#STATUS#status#shard / SINCE#at#job#id}, present only while a gap is OPEN or
 * SKIP_REQUESTED, so a job finds its skip requests and operators the open gaps without a scan.
 *
 * @param tenant {@code t}
 * @param status {@code status}, a {@code ParkedGapStatus} name
 * @param shard {@code shard}, of {@link DeadLetterStatusKey#SHARDS}
 * @param since {@code at}: when the gap opened (OPEN) or the skip was requested
 * @param job {@code job}
 * @param id {@code id}
 */
public record ParkedGapQueueKey(
        String tenant, String status, int shard, Instant since, String job, String id)
        implements ItemKey {

    public static final KeyPattern PK = KeyPattern.of("TEN#t#GAPS#STATUS#status#shard");
    public static final KeyPattern SK = KeyPattern.of("SINCE#at#job#id");

    public ParkedGapQueueKey {
        KeyComponents.require("t", tenant);
        KeyComponents.require("status", status);
        KeyFields.requireRange("shard", shard, 0, DeadLetterStatusKey.SHARDS - 1);
        since = KeyTime.normalise("at", since);
        KeyComponents.require("job", job);
        KeyComponents.require("id", id);
    }

    public static ParkedGapQueueKey parse(String pk, String sk) {
        List<String> p = PK.match(pk);
        List<String> s = SK.match(sk);
        return new ParkedGapQueueKey(
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
        return SK.build(KeyTime.format(since), job, id);
    }
}
