package io.streamledger.jobs.recon;

import io.streamledger.operators.gate.GapBreak;
import io.streamledger.operators.recon.BreakRecord;
import io.streamledger.operators.recon.Evidence;

/**
 * Puts the gate's overdue-gap breaks (CS07) into the same AP15 table and due queue: the gate's id
 * {@code GAP#<sourceKey>#V#<n>} becomes the '#'-free key component {@code GAP:<sourceKey>:V:<n>},
 * the batch is the daily PROJECTION-GAP batch of when the gap opened (deterministic on replay).
 */
public final class GapBreaks {

    public static final String REASON = "PROJECTION_GAP";

    /** The posting job's per-account execution-order gate (CS07 applied to postings). */
    public static final String EXECUTION_ORDER_REASON = "EXECUTION_ORDER_GAP";

    private GapBreaks() {}

    /**
     * @param tenant the tenant the source key belongs to (projection source keys start with it)
     */
    public static BreakRecord toBreak(GapBreak g) {
        return toBreak(g, REASON);
    }

    /** The same break under the reason of the gate that raised it. */
    public static BreakRecord toBreak(GapBreak g, String reason) {
        String sourceKey = g.getSourceKey();
        int slash = sourceKey.indexOf('/');
        String tenant = slash > 0 ? sourceKey.substring(0, slash) : sourceKey;
        return new BreakRecord(
                tenant,
                BreakRecord.dailyBatch(BreakRecord.Origin.PROJECTION_GAP, g.getSinceMillis()),
                BreakRecord.id("GAP", sourceKey, "V", g.getMissingVersion()),
                reason,
                BreakRecord.Origin.PROJECTION_GAP,
                g.getSinceMillis(),
                sourceKey,
                Evidence.of()
                        .put("reason", reason)
                        .put("gateBreakId", g.getBreakId())
                        .put("sourceKey", sourceKey)
                        .put("missingVersion", g.getMissingVersion())
                        .put("gapSinceMillis", g.getSinceMillis())
                        .put("slaMillis", g.getSlaMillis())
                        .put("parkedCount", g.getParkedCount())
                        .json());
    }
}
