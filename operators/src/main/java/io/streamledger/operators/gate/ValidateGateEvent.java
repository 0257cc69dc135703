package io.streamledger.operators.gate;

import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.metrics.Counter;
import org.apache.flink.streaming.api.functions.ProcessFunction;
import org.apache.flink.util.Collector;

/**
 * Dead-letters events the gate cannot order (no sourceKey, no eventId, version below 1) before they
 * reach the keyBy, so bad input is counted and kept rather than failing the job (AP13).
 */
public class ValidateGateEvent extends ProcessFunction<GateEvent, GateEvent> {

    private static final long serialVersionUID = 1L;

    private transient Counter invalid;

    @Override
    public void open(OpenContext openContext) {
        invalid =
                getRuntimeContext()
                        .getMetricGroup()
                        .addGroup(GateState.METRIC_GROUP)
                        .counter("invalid");
    }

    @Override
    public void processElement(GateEvent e, Context ctx, Collector<GateEvent> out) {
        String problem = problemOf(e);
        if (problem == null) {
            out.collect(e);
            return;
        }
        invalid.inc();
        ctx.output(
                GateState.DEAD_LETTERS,
                new DeadLetter(
                        DeadLetterReason.INVALID_EVENT,
                        problem,
                        ctx.timerService().currentProcessingTime(),
                        e));
    }

    /** The first reason the event cannot be gated, or null if it can. */
    static String problemOf(GateEvent e) {
        if (e.getSourceKey() == null || e.getSourceKey().isBlank()) {
            return "sourceKey is missing";
        }
        if (e.getEventId() == null || e.getEventId().isBlank()) {
            return "eventId is missing";
        }
        if (e.getVersion() < 1) {
            return "version must be >= 1, was " + e.getVersion();
        }
        return null;
    }
}
