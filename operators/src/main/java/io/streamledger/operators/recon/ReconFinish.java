package io.streamledger.operators.recon;

import java.math.BigDecimal;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.metrics.Counter;
import org.apache.flink.streaming.api.functions.ProcessFunction;
import org.apache.flink.util.Collector;

/**
 * Finishes one window firing (AP14/AP15) once its Portfolio rows are read: the positions guards
 * (POSITION_MISMATCH, PROJECTION_LAG), the batch plan (manifest, control totals, outcome, revision)
 * and the write — the batch on the main output, the breaks on {@link ReconState#BREAKS} at the
 * closing firing only. Pure apart from emitting.
 */
public final class ReconFinish extends ProcessFunction<ReconWindowResult, ReconBatch> {

    private static final long serialVersionUID = 1L;

    private final ReconConfig config;

    private transient Counter batches;
    private transient Counter breaks;

    public ReconFinish(ReconConfig config) {
        this.config = config;
    }

    @Override
    public void open(OpenContext ctx) {
        var g = getRuntimeContext().getMetricGroup().addGroup("recon");
        batches = g.counter("batches");
        breaks = g.counter("breaksEmitted");
    }

    @Override
    public void processElement(ReconWindowResult r, Context ctx, Collector<ReconBatch> out) {
        Plan plan = plan(r, config);
        if (r.closing) {
            for (BreakRecord b : plan.breaks()) {
                breaks.inc();
                ctx.output(ReconState.BREAKS, b);
            }
        }
        batches.inc();
        out.collect(plan.batch());
    }

    /** A firing's batch and every break it found (emitted only when closing). */
    public record Plan(ReconBatch batch, List<BreakRecord> breaks) {}

    /** The batch and breaks of {@code r}, whose rows {@link PositionReads} attached. */
    public static Plan plan(ReconWindowResult r, ReconConfig config) {
        List<BreakRecord> found = new ArrayList<>(List.of(r.ledgerBreaks));
        int lagging = 0;
        for (int i = 0; i < r.authorities.length; i++) {
            ReconEvent ae = r.authorities[i];
            AuthorityFact a = ae.authority();
            PositionView v = r.view(i);
            BigDecimal qty = a.posted();
            if (v != null && v.sourceVersion() >= a.version()) {
                if (v.sourceVersion() == a.version() && v.quantity().compareTo(qty) != 0) {
                    found.add(
                            ReconWindowFunction.recon(
                                    ReconReason.POSITION_MISMATCH,
                                    r.tenant,
                                    r.batchId,
                                    r.windowStartMillis,
                                    r.windowEndMillis,
                                    a.account() + "/" + a.asset(),
                                    ReconWindowFunction.positionEvidence(a, v)
                                            .put("expectedQuantity", qty),
                                    a.account(),
                                    a.asset(),
                                    "V",
                                    a.version()));
                }
                continue;
            }
            long lag = r.firedAtMillis - ae.eventTimeMillis;
            if (lag >= config.projectionSlaMillis()) {
                found.add(
                        ReconWindowFunction.recon(
                                ReconReason.PROJECTION_LAG,
                                r.tenant,
                                r.batchId,
                                r.windowStartMillis,
                                r.windowEndMillis,
                                a.account() + "/" + a.asset(),
                                ReconWindowFunction.positionEvidence(a, v)
                                        .put("lagMillis", lag)
                                        .put("slaMillis", config.projectionSlaMillis()),
                                a.account(),
                                a.asset(),
                                "V",
                                a.version()));
            } else {
                lagging++;
            }
        }

        ReconBatch batch = new ReconBatch();
        batch.tenant = r.tenant;
        batch.batchId = r.batchId;
        batch.date =
                Instant.ofEpochMilli(r.windowStartMillis)
                        .atZone(ZoneOffset.UTC)
                        .toLocalDate()
                        .toString();
        batch.windowStartMillis = r.windowStartMillis;
        batch.windowEndMillis = r.windowEndMillis;
        batch.allowedLatenessMillis = config.allowedLatenessMillis();
        Evidence manifest = Evidence.of();
        for (int i = 0; i < r.sourceKinds.length; i++) {
            String k = r.sourceKinds[i];
            manifest.put("source." + k + ".count", r.sourceCounts[i])
                    .put("source." + k + ".first", Instant.ofEpochMilli(r.sourceFirstMillis[i]))
                    .put("source." + k + ".last", Instant.ofEpochMilli(r.sourceLastMillis[i]));
        }
        manifest.put("positions.checked", r.authorities.length);
        manifest.put("orderFill.breaks", r.orderFillBreaks);
        String[] late = r.lateRecords == null ? new String[0] : r.lateRecords;
        if (late.length > 0) {
            manifest.put("late.count", late.length);
            manifest.put(
                    "late.records",
                    String.join(
                            ";",
                            java.util.Arrays.asList(late)
                                    .subList(0, Math.min(late.length, ReconState.LATE_LISTED))));
        }
        manifest.put("positions.laggingWithinSla", lagging);
        StringBuilder versions = new StringBuilder();
        for (ReconEvent ae : r.authorities) {
            AuthorityFact a = ae.authority();
            versions.append(versions.length() == 0 ? "" : ";")
                    .append(a.account())
                    .append('/')
                    .append(a.asset())
                    .append('@')
                    .append(a.version());
        }
        manifest.put("positions.versions", versions);
        batch.manifest = manifest.json();
        batch.controlTotals = r.controlTotals;
        batch.breakCount = found.size();
        batch.outcome = found.isEmpty() ? "CLEAN" : "BREAKS";
        batch.closed = r.closing;
        // monotone: more records, or the same records at the closing firing
        batch.revision = 2 * r.records + (r.closing ? 1 : 0);
        return new Plan(batch, found);
    }
}
