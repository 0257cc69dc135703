package io.streamledger.operators.ledgercheck;

import io.streamledger.operators.recon.BreakRecord;
import java.util.HashSet;
import java.util.Set;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.functions.RichMapFunction;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.Gauge;

/**
 * Pass-through in front of the break sink exposing "open breaks" and "oldest open break age" in the
 * Flink UI. Open = distinct break ids this subtask emitted since it started (resolution happens in
 * the Reconciliation table, outside the job, so this is an upper bound per run; the AP15 due queue
 * is the authority on what is open).
 */
public final class BreakMetrics extends RichMapFunction<BreakRecord, BreakRecord> {

    private static final long serialVersionUID = 1L;

    /** Distinct ids kept for the gauge; beyond this only the count grows. */
    static final int MAX_TRACKED = 100_000;

    private transient Set<String> ids;
    private transient long oldestDetectedAt;
    private transient Counter emitted;

    @Override
    public void open(OpenContext ctx) {
        ids = new HashSet<>();
        oldestDetectedAt = Long.MAX_VALUE;
        var g = getRuntimeContext().getMetricGroup().addGroup("breaks");
        emitted = g.counter("emitted");
        g.gauge("open", (Gauge<Integer>) () -> ids.size());
        g.gauge(
                "oldestOpenAgeMillis",
                (Gauge<Long>)
                        () ->
                                oldestDetectedAt == Long.MAX_VALUE
                                        ? 0L
                                        : Math.max(
                                                0, System.currentTimeMillis() - oldestDetectedAt));
    }

    @Override
    public BreakRecord map(BreakRecord b) {
        emitted.inc();
        if (ids.size() < MAX_TRACKED) {
            ids.add(b.getBatchId() + "/" + b.getBreakId());
        }
        oldestDetectedAt = Math.min(oldestDetectedAt, b.getDetectedAtMillis());
        return b;
    }
}
