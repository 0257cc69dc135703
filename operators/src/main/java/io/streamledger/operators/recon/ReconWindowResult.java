package io.streamledger.operators.recon;

import java.math.BigDecimal;

/**
 * What one window firing found before the positions check (AP14): the batch's identity and window,
 * the sources' manifest and control totals, the fill/ledger breaks, the securities authorities
 * whose Portfolio rows must be read, and — once {@link PositionReads} ran — those rows. A Flink
 * POJO (arrays, never generic collections), in flight only between the window and {@link
 * ReconFinish}.
 */
public class ReconWindowResult {
    public String tenant;
    public String batchId;
    public long windowStartMillis;
    public long windowEndMillis;
    public long maxTimestampMillis;

    /** Records the firing covered. */
    public long records;

    /** The closing firing (watermark past end + allowed lateness): breaks are raised. */
    public boolean closing;

    /** Processing time of the firing: the projection lag is measured against it. */
    public long firedAtMillis;

    /** Per source kind, in kind order: count, first and last business time. */
    public String[] sourceKinds;

    public long[] sourceCounts;
    public long[] sourceFirstMillis;
    public long[] sourceLastMillis;

    /** Exact control totals (JSON). */
    public String controlTotals;

    /** Fill ↔ ledger and order ↔ fill breaks of this firing. */
    public BreakRecord[] ledgerBreaks;

    /** How many of {@link #ledgerBreaks} the order ↔ fill check found. */
    public int orderFillBreaks;

    /** Records that came after their own window closed, dead-lettered, listed here. */
    public String[] lateRecords;

    /** The last version of each securities authority in the window, in key order. */
    public ReconEvent[] authorities;

    /** Per authority: the Portfolio row's source version, or -1 when there is no row. */
    public long[] viewVersions;

    /** Per authority: the Portfolio row's quantity, or null when there is no row. */
    public BigDecimal[] viewQuantities;

    public ReconWindowResult() {}

    /** Attaches the Portfolio rows read for {@link #authorities}, in their order (null: no row). */
    public void attach(PositionView[] views) {
        int n = authorities.length;
        viewVersions = new long[n];
        viewQuantities = new BigDecimal[n];
        for (int i = 0; i < n; i++) {
            PositionView v = views[i];
            viewVersions[i] = v == null ? -1 : v.sourceVersion();
            viewQuantities[i] = v == null ? null : v.quantity();
        }
    }

    /** The Portfolio row read for authority {@code i}, or null. */
    PositionView view(int i) {
        return viewVersions[i] < 0 ? null : new PositionView(viewVersions[i], viewQuantities[i]);
    }
}
