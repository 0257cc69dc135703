package io.streamledger.operators.recon;

/**
 * An AP14 batch: one closed window of one tenant with its manifest, exact control totals and
 * outcome; {@code batchId} is a function of the window, {@code revision} grows with late firings so
 * a replay of the same firing is a no-op for a version-guarded write.
 */
public class ReconBatch {
    public String tenant;
    public String batchId;

    /** yyyy-MM-dd of the window start (IDX13 date). */
    public String date;

    public long windowStartMillis;
    public long windowEndMillis;
    public long allowedLatenessMillis;

    /** JSON: sources and their positions (first/last event time, counts), positions checked. */
    public String manifest;

    /** JSON: counts and sums per currency, exact decimal strings. */
    public String controlTotals;

    /** CLEAN or BREAKS. */
    public String outcome;

    public int breakCount;

    /** Number of input records the firing covered (monotone under late data). */
    public long revision;

    public ReconBatch() {}

    @Override
    public String toString() {
        return "Batch{"
                + batchId
                + " "
                + outcome
                + " breaks="
                + breakCount
                + " "
                + controlTotals
                + "}";
    }
}
