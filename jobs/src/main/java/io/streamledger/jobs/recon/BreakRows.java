package io.streamledger.jobs.recon;

import io.streamledger.aws.items.BreakItems;
import io.streamledger.model.table.Attr;
import io.streamledger.operators.recon.BreakRecord;
import io.streamledger.sinks.breaks.BreakWrites;
import io.streamledger.sinks.versioned.VersionedWrite;
import io.streamledger.sinks.versioned.WriteGuard;
import java.io.Serializable;
import java.time.Duration;

/**
 * A detected AP15 break as the create-once write of its {@link BreakItems} item (IDX14 base item +
 * IDX15 due-queue keys) at version 1, owned by the configured team and due after a fixed delay.
 */
public final class BreakRows implements Serializable {

    private static final long serialVersionUID = 1L;

    /** Create-once: the first write of a deterministic id wins, repeats are counted no-ops. */
    public static final WriteGuard GUARD = WriteGuard.createOnce(Attr.PK, Attr.VERSION);

    private final BreakWrites writes;

    /**
     * @param table physical Reconciliation table
     * @param owner team that owns new breaks, e.g. {@code finance-ops}
     * @param dueAfter time from detection to due
     */
    public BreakRows(String table, String owner, Duration dueAfter) {
        this.writes = new BreakWrites(table, owner, dueAfter);
    }

    public String table() {
        return writes.table();
    }

    /** The same table, owner and due delay as a direct create-once writer. */
    public BreakWrites writes() {
        return writes;
    }

    /** The create-once write of a new OPEN break at version 1. */
    public VersionedWrite newBreak(BreakRecord b) {
        return VersionedWrite.of(
                writes.table(),
                BreakItems.key(b.getTenant(), b.getBatchId(), b.getBreakId()),
                BreakItems.attributes(writes.newBreak(b)),
                1L);
    }
}
