package io.streamledger.operators.gate;

import java.util.Objects;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.MapState;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.MetricGroup;
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
 * is consumed (the gate moves on) while the repeated effect is suppressed. Receipts expire by state
 * TTL after {@link GateConfig#dedupeHorizon()}; a repeat after that is judged by version alone, so
 * an exact re-delivery is still stale at the gate.
 */
public class InboxDedupe extends KeyedProcessFunction<String, GateEvent, GateEvent> {

    private static final long serialVersionUID = 1L;

    private final GateConfig config;

    private transient MapState<String, Long> seen;
    private transient Counter passed;
    private transient Counter duplicates;

    public InboxDedupe(GateConfig config) {
        this.config = Objects.requireNonNull(config, "config");
    }

    @Override
    public void open(OpenContext openContext) {
        seen = getRuntimeContext().getMapState(GateState.inboxSeen(config.dedupeHorizon()));
        MetricGroup g = getRuntimeContext().getMetricGroup().addGroup(GateState.METRIC_GROUP);
        passed = g.counter("inboxPassed");
        duplicates = g.counter("duplicates");
    }

    @Override
    public void processElement(GateEvent e, Context ctx, Collector<GateEvent> out)
            throws Exception {
        if (seen.get(e.getEventId()) != null) {
            duplicates.inc();
            ctx.output(GateState.DUPLICATES, e);
            return;
        }
        seen.put(e.getEventId(), e.getVersion());
        passed.inc();
        out.collect(e);
    }
}
