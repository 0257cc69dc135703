package io.streamledger.operators.gate;

import java.util.Iterator;
import java.util.Map;
import java.util.Objects;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.MapState;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.streaming.api.TimerService;
import org.apache.flink.streaming.api.functions.KeyedProcessFunction;
import org.apache.flink.util.Collector;

/**
 * Passes each business eventId once per source key within the dedupe horizon (AP09 inbox); a repeat
 * is a counted no-op to {@link GateState#DUPLICATES}.
 *
 * <p>It runs after {@link NextVersionGate} and sees only applied events, so an id is recorded only
 * once its event has consumed its version. Placed first, it would mark parked events seen: a parked
 * copy that was then dead-lettered could never come back, and an id re-emitted under a new version
 * would be dropped before the version gate, leaving that version a permanent gap. Here the version
 * is consumed (the gate moves on) while the repeated effect is suppressed. A repeat after the
 * horizon is judged by version alone, so an exact re-delivery is still stale at the gate.
 *
 * <p>The horizon is enforced by hand rather than by Flink state TTL: a receipt older than the
 * horizon is ignored on read, and one processing-time timer per key purges old receipts, at most
 * every {@link GateConfig#dedupeHorizon()}/{@value #PURGE_SLICES}, so a receipt stays in memory for
 * at most 1.25 horizons. Flink's TTL on a MapState was measured at about 12,000 events/s on the
 * heap backend with incremental cleanup (each visited key's whole map is copied per sweep step),
 * and without incremental cleanup the heap backend never frees receipts of ids that are not read
 * again.
 */
public class InboxDedupe extends KeyedProcessFunction<String, GateEvent, GateEvent> {

    private static final long serialVersionUID = 1L;

    /** Purge at most this many times per horizon per key; bounds both memory and scan cost. */
    static final int PURGE_SLICES = 4;

    private final long horizonMillis;
    private final long sliceMillis;

    private transient MapState<String, Long> seen;
    private transient ValueState<Long> purgeAt;
    private transient Counter passed;
    private transient Counter duplicates;
    private transient Counter purged;

    /**
     * The boxed processing time of the latest receipt, shared by every receipt written in the same
     * millisecond: a receipt is kept for the whole horizon, and one box per receipt was a sixth of
     * its heap size and a quarter of the objects the garbage collector copies for it.
     */
    private transient Long receiptTime;

    public InboxDedupe(GateConfig config) {
        Objects.requireNonNull(config, "config");
        this.horizonMillis = config.dedupeHorizon().toMillis();
        this.sliceMillis = Math.max(1L, horizonMillis / PURGE_SLICES);
    }

    @Override
    public void open(OpenContext openContext) {
        seen = getRuntimeContext().getMapState(GateState.INBOX_SEEN);
        purgeAt = getRuntimeContext().getState(GateState.INBOX_PURGE_AT);
        MetricGroup g = getRuntimeContext().getMetricGroup().addGroup(GateState.METRIC_GROUP);
        passed = g.counter("inboxPassed");
        duplicates = g.counter("duplicates");
        purged = g.counter("inboxPurged");
    }

    @Override
    public void processElement(GateEvent e, Context ctx, Collector<GateEvent> out)
            throws Exception {
        long now = ctx.timerService().currentProcessingTime();
        Long appliedAt = seen.get(e.getEventId());
        if (appliedAt != null && appliedAt + horizonMillis > now) {
            duplicates.inc();
            ctx.output(GateState.DUPLICATES, e);
            return;
        }
        seen.put(e.getEventId(), receiptTime(now));
        if (purgeAt.value() == null) {
            schedulePurge(ctx.timerService(), now + horizonMillis);
        }
        passed.inc();
        out.collect(e);
    }

    @Override
    public void onTimer(long timestamp, OnTimerContext ctx, Collector<GateEvent> out)
            throws Exception {
        purgeAt.clear();
        long oldest = Long.MAX_VALUE;
        Iterator<Map.Entry<String, Long>> it = seen.iterator();
        while (it.hasNext()) {
            long at = it.next().getValue();
            if (at + horizonMillis <= timestamp) {
                it.remove();
                purged.inc();
            } else {
                oldest = Math.min(oldest, at);
            }
        }
        if (oldest == Long.MAX_VALUE) {
            seen.clear(); // drop the empty map itself, not only its entries
            return;
        }
        schedulePurge(
                ctx.timerService(), Math.max(oldest + horizonMillis, timestamp + sliceMillis));
    }

    private Long receiptTime(long now) {
        Long at = receiptTime;
        if (at == null || at != now) {
            at = now;
            receiptTime = at;
        }
        return at;
    }

    private void schedulePurge(TimerService timers, long at) throws Exception {
        timers.registerProcessingTimeTimer(at);
        purgeAt.update(at);
    }
}
