package io.streamledger.jobs.recon;

import io.streamledger.model.keys.ReconBatchKey;
import io.streamledger.model.table.Attr;
import io.streamledger.operators.recon.ReconBatch;
import io.streamledger.sinks.versioned.VersionedWrite;
import io.streamledger.sinks.versioned.WriteGuard;
import java.io.Serializable;
import java.time.Instant;
import java.time.LocalDate;
import java.util.HashMap;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * The AP14 batch item (IDX13 {@code TEN#t#RECON#date / BATCH#batchId}): window, manifest, control
 * totals, outcome. Version-guarded on {@code sourceVersion} = the firing's revision (records
 * covered), so restarting a window's batch rewrites nothing and a late re-firing only moves it
 * forward.
 */
public final class BatchRows implements Serializable {

    private static final long serialVersionUID = 1L;

    public static final String ENTITY = "BATCH";
    public static final WriteGuard GUARD = WriteGuard.versionGuard();

    private final String table;

    public BatchRows(String table) {
        this.table = table;
    }

    public VersionedWrite batch(ReconBatch b) {
        ReconBatchKey key = new ReconBatchKey(b.tenant, LocalDate.parse(b.date), b.batchId);
        Map<String, AttributeValue> a = new HashMap<>();
        a.put(Attr.ENTITY_TYPE, AttributeValue.fromS(ENTITY));
        a.put("tenant", AttributeValue.fromS(b.tenant));
        a.put("batchId", AttributeValue.fromS(b.batchId));
        a.put(
                "windowStart",
                AttributeValue.fromS(Instant.ofEpochMilli(b.windowStartMillis).toString()));
        a.put(
                "windowEnd",
                AttributeValue.fromS(Instant.ofEpochMilli(b.windowEndMillis).toString()));
        a.put(
                "allowedLatenessMillis",
                AttributeValue.fromN(Long.toString(b.allowedLatenessMillis)));
        a.put("manifest", AttributeValue.fromS(b.manifest));
        a.put("controlTotals", AttributeValue.fromS(b.controlTotals));
        a.put("outcome", AttributeValue.fromS(b.outcome));
        a.put("breakCount", AttributeValue.fromN(Integer.toString(b.breakCount)));
        return VersionedWrite.of(
                table,
                Map.of(
                        Attr.PK,
                        AttributeValue.fromS(key.pk()),
                        Attr.SK,
                        AttributeValue.fromS(key.sk())),
                a,
                b.revision);
    }
}
