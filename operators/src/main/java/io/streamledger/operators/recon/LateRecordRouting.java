package io.streamledger.operators.recon;

import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.metrics.Counter;
import org.apache.flink.streaming.api.functions.KeyedProcessFunction;
import org.apache.flink.util.Collector;

/**
 * Routes reconciliation records that arrive after their window closed (AP14): the record itself to
 * {@link ReconState#LATE} (from there to the dead-letter table), and a {@link ReconEvent.Kind#LATE}
 * marker naming it into the window open at the current watermark, so the next batch revision lists
 * it in its manifest. Records in time pass unchanged.
 */
public final class LateRecordRouting extends KeyedProcessFunction<String, ReconEvent, ReconEvent> {

    private static final long serialVersionUID = 1L;

    private final ReconConfig config;
    private transient Counter late;

    public LateRecordRouting(ReconConfig config) {
        this.config = config;
    }

    @Override
    public void open(OpenContext ctx) {
        late = getRuntimeContext().getMetricGroup().addGroup("recon").counter("lateRecords");
    }

    @Override
    public void processElement(ReconEvent e, Context ctx, Collector<ReconEvent> out) {
        long watermark = ctx.timerService().currentWatermark();
        if (e.kind == ReconEvent.Kind.LATE
                || OrderFillRules.deadline(e.eventTimeMillis, config) > watermark) {
            out.collect(e);
            return;
        }
        late.inc();
        ctx.output(ReconState.LATE, e);
        out.collect(ReconEvent.lateMarker(e, watermark + 1));
    }
}
