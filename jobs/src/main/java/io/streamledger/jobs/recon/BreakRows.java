package io.streamledger.jobs.recon;

import io.streamledger.aws.items.BreakItems;
import io.streamledger.model.table.Attr;
import io.streamledger.operators.recon.BreakRecord;
import io.streamledger.sinks.versioned.VersionedWrite;
import io.streamledger.sinks.versioned.WriteGuard;
import java.io.Serializable;
import java.time.Duration;
import java.time.Instant;

/**
 * A detected AP15 break as the create-once write of its {@link BreakItems} item (IDX14 base item +
 * IDX15 due-queue keys) at version 1, owned by the configured team and due after a fixed delay.
 */
public final class BreakRows implements Serializable {

    private static final long serialVersionUID = 1L;

    /** Create-once: the first write of a deterministic id wins, repeats are counted no-ops. */
    public static final WriteGuard GUARD = WriteGuard.createOnce(Attr.PK, Attr.VERSION);

    private final String table;
    private final String owner;
    private final long dueAfterMillis;

    /**
     * @param table physical Reconciliation table
     * @param owner team that owns new breaks, e.g. {@code finance-ops}
     * @param dueAfter time from detection to due
     */
    public BreakRows(String table, String owner, Duration dueAfter) {
        this.table = table;
        this.owner = owner;
        this.dueAfterMillis = dueAfter.toMillis();
    }

    public String table() {
        return table;
    }

    /** The create-once write of a new OPEN break at version 1. */
    public VersionedWrite newBreak(BreakRecord b) {
        Instant detected = Instant.ofEpochMilli(b.getDetectedAtMillis());
        BreakItems.NewBreak item =
                new BreakItems.NewBreak(
                        b.getTenant(),
                        b.getBatchId(),
                        b.getBreakId(),
                        b.getReason(),
                        b.getOrigin().name(),
                        b.getSubject(),
                        owner,
                        detected,
                        detected.plusMillis(dueAfterMillis),
                        b.getEvidence());
        return VersionedWrite.of(
                table,
                BreakItems.key(b.getTenant(), b.getBatchId(), b.getBreakId()),
                BreakItems.attributes(item),
                1L);
    }
}
