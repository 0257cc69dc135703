package io.streamledger.operators.recon;

import java.util.ArrayList;
import java.util.List;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.MapState;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.metrics.Counter;
import org.apache.flink.streaming.api.functions.KeyedProcessFunction;
import org.apache.flink.util.Collector;

/**
 * The order ↔ fill check of the reconciliation (CS04, AP14/AP15), keyed by tenant/order: keeps the
 * order's versions (Orders stream, IDX01) and its trades (Execution stream, IDX04), and judges
 * every version and every fill with {@link OrderFillRules} at the closing of its subject's window
 * ({@link OrderFillRules#deadline}: watermark past window end + allowed lateness), never on the
 * wall clock. Any arrival order and duplicates give the same verdicts (versions by number, trades
 * by tradeId); findings go on as {@link ReconEvent.Kind#ORDER_FILL} into their subject's window,
 * which raises them as breaks at its closing firing. A record already behind its deadline is kept
 * as evidence but not judged itself (the window dead-letters it as late).
 */
public final class OrderFillCheck extends KeyedProcessFunction<String, ReconEvent, ReconEvent> {

    private static final long serialVersionUID = 1L;

    private final ReconConfig config;

    private transient MapState<Long, ReconEvent> versions;
    private transient MapState<String, ReconEvent> trades;
    private transient ValueState<Long> lastDeadline;
    private transient Counter findings;
    private transient Counter lateSubjects;

    public OrderFillCheck(ReconConfig config) {
        this.config = config;
    }

    /** The key of the check: one order of one tenant. */
    public static String key(ReconEvent e) {
        return e.tenant + "/" + e.orderId;
    }

    /** True for the inputs of the check: order versions and fills that name their order. */
    public static boolean isInput(ReconEvent e) {
        return e.kind == ReconEvent.Kind.ORDER
                || (e.kind == ReconEvent.Kind.FILL && e.orderId != null);
    }

    @Override
    public void open(OpenContext ctx) {
        versions = getRuntimeContext().getMapState(ReconState.ORDER_FILL_VERSIONS);
        trades = getRuntimeContext().getMapState(ReconState.ORDER_FILL_TRADES);
        lastDeadline = getRuntimeContext().getState(ReconState.ORDER_FILL_LAST_DEADLINE);
        var g = getRuntimeContext().getMetricGroup().addGroup("recon");
        findings = g.counter("orderFill.findings");
        lateSubjects = g.counter("orderFill.lateSubjects");
    }

    @Override
    public void processElement(ReconEvent e, Context ctx, Collector<ReconEvent> out)
            throws Exception {
        boolean fresh;
        if (e.kind == ReconEvent.Kind.ORDER) {
            fresh = !versions.contains(e.order().version());
            if (fresh) {
                versions.put(e.order().version(), e);
            }
        } else if (e.kind == ReconEvent.Kind.FILL) {
            fresh = !trades.contains(e.fill().tradeId());
            if (fresh) {
                trades.put(e.fill().tradeId(), e);
            }
        } else {
            return;
        }
        if (!fresh) {
            return; // a duplicate: its deadline is already registered (or passed)
        }
        long deadline = OrderFillRules.deadline(e.eventTimeMillis, config);
        if (deadline <= ctx.timerService().currentWatermark()) {
            lateSubjects.inc();
            return;
        }
        ctx.timerService().registerEventTimeTimer(deadline);
        Long last = lastDeadline.value();
        if (last == null || deadline > last) {
            lastDeadline.update(deadline);
            ctx.timerService()
                    .registerEventTimeTimer(deadline + ReconState.ORDER_FILL_RETENTION_MILLIS);
        }
    }

    @Override
    public void onTimer(long time, OnTimerContext ctx, Collector<ReconEvent> out) throws Exception {
        List<ReconEvent> versionList = new ArrayList<>();
        versions.values().forEach(versionList::add);
        List<ReconEvent> tradeList = new ArrayList<>();
        trades.values().forEach(tradeList::add);
        for (ReconEvent f :
                OrderFillRules.judge(
                        versionList, tradeList, t -> OrderFillRules.deadline(t, config) == time)) {
            findings.inc();
            out.collect(f);
        }
        Long last = lastDeadline.value();
        if (last != null && time >= last + ReconState.ORDER_FILL_RETENTION_MILLIS) {
            versions.clear();
            trades.clear();
            lastDeadline.clear();
        }
    }
}
