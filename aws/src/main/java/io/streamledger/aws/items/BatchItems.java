package io.streamledger.aws.items;

import io.streamledger.model.keys.ReconBatchKey;
import io.streamledger.model.table.Attr;
import java.time.Instant;
import java.time.LocalDate;
import java.util.HashMap;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * The AP14 batch item (IDX13 {@code TEN#t#RECON#date / BATCH#batchId}): window, manifest, control
 * totals, outcome; the one codec of the reconciliation batch shape.
 */
public final class BatchItems {

    public static final String ENTITY = "BATCH";
    public static final String A_TENANT = "tenant";
    public static final String A_BATCH = "batchId";
    public static final String A_WINDOW_START = "windowStart";
    public static final String A_WINDOW_END = "windowEnd";
    public static final String A_ALLOWED_LATENESS = "allowedLatenessMillis";
    public static final String A_MANIFEST = "manifest";
    public static final String A_CONTROL_TOTALS = "controlTotals";
    public static final String A_OUTCOME = "outcome";
    public static final String A_STATE = "state";
    public static final String A_BREAK_COUNT = "breakCount";

    public static final String STATE_CLOSED = "CLOSED";
    public static final String STATE_PROVISIONAL = "PROVISIONAL";

    /** A batch's content as of one firing of its window. */
    public record Batch(
            String tenant,
            LocalDate date,
            String batchId,
            Instant windowStart,
            Instant windowEnd,
            long allowedLatenessMillis,
            String manifest,
            String controlTotals,
            String outcome,
            boolean closed,
            int breakCount) {}

    private BatchItems() {}

    public static Map<String, AttributeValue> key(Batch b) {
        ReconBatchKey key = new ReconBatchKey(b.tenant(), b.date(), b.batchId());
        return Map.of(Attr.PK, Av.s(key.pk()), Attr.SK, Av.s(key.sk()));
    }

    /** Decodes a stored batch item; its date comes from the IDX13 key. */
    public static Batch view(Map<String, AttributeValue> i) {
        ReconBatchKey k = ReconBatchKey.parse(Av.reqStr(i, Attr.PK), Av.reqStr(i, Attr.SK));
        return new Batch(
                k.tenant(),
                k.date(),
                k.batchId(),
                Instant.parse(Av.reqStr(i, A_WINDOW_START)),
                Instant.parse(Av.reqStr(i, A_WINDOW_END)),
                Av.lng(i, A_ALLOWED_LATENESS, 0),
                Av.str(i, A_MANIFEST),
                Av.str(i, A_CONTROL_TOTALS),
                Av.str(i, A_OUTCOME),
                STATE_CLOSED.equals(Av.str(i, A_STATE)),
                (int) Av.lng(i, A_BREAK_COUNT, 0));
    }

    /** The firing revision the batch item is at (the sink's version guard), 0 when absent. */
    public static long revision(Map<String, AttributeValue> i) {
        return Av.lng(i, Attr.SOURCE_VERSION, 0);
    }

    public static Map<String, AttributeValue> attributes(Batch b) {
        Map<String, AttributeValue> a = new HashMap<>();
        a.put(Attr.ENTITY_TYPE, Av.s(ENTITY));
        a.put(A_TENANT, Av.s(b.tenant()));
        a.put(A_BATCH, Av.s(b.batchId()));
        a.put(A_WINDOW_START, Av.s(b.windowStart().toString()));
        a.put(A_WINDOW_END, Av.s(b.windowEnd().toString()));
        a.put(A_ALLOWED_LATENESS, Av.n(b.allowedLatenessMillis()));
        a.put(A_MANIFEST, Av.s(b.manifest()));
        a.put(A_CONTROL_TOTALS, Av.s(b.controlTotals()));
        a.put(A_OUTCOME, Av.s(b.outcome()));
        a.put(A_STATE, Av.s(b.closed() ? STATE_CLOSED : STATE_PROVISIONAL));
        a.put(A_BREAK_COUNT, Av.n(b.breakCount()));
        return a;
    }
}
