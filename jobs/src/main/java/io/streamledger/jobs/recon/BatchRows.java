package io.streamledger.jobs.recon;

import io.streamledger.aws.items.BatchItems;
import io.streamledger.operators.recon.ReconBatch;
import io.streamledger.sinks.versioned.VersionedWrite;
import io.streamledger.sinks.versioned.WriteGuard;
import java.io.Serializable;
import java.time.Instant;
import java.time.LocalDate;

/**
 * A reconciliation window's firing as the write of its AP14 {@link BatchItems} item,
 * version-guarded on {@code sourceVersion} = the firing's revision (records covered), so restarting
 * a window's batch rewrites nothing and a late re-firing only moves it forward.
 */
public final class BatchRows implements Serializable {

    private static final long serialVersionUID = 1L;

    public static final WriteGuard GUARD = WriteGuard.versionGuard();

    private final String table;

    public BatchRows(String table) {
        this.table = table;
    }

    public VersionedWrite batch(ReconBatch b) {
        BatchItems.Batch item =
                new BatchItems.Batch(
                        b.tenant,
                        LocalDate.parse(b.date),
                        b.batchId,
                        Instant.ofEpochMilli(b.windowStartMillis),
                        Instant.ofEpochMilli(b.windowEndMillis),
                        b.allowedLatenessMillis,
                        b.manifest,
                        b.controlTotals,
                        b.outcome,
                        b.closed,
                        b.breakCount);
        return VersionedWrite.of(
                table, BatchItems.key(item), BatchItems.attributes(item), b.revision);
    }
}
