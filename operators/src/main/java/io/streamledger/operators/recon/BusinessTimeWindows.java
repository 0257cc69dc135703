package io.streamledger.operators.recon;

import java.util.Collection;
import java.util.List;
import org.apache.flink.api.common.ExecutionConfig;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.windowing.assigners.WindowAssigner;
import org.apache.flink.streaming.api.windowing.triggers.EventTimeTrigger;
import org.apache.flink.streaming.api.windowing.triggers.Trigger;
import org.apache.flink.streaming.api.windowing.windows.TimeWindow;

/**
 * Tumbling reconciliation windows (AP14) by the record's own business time ({@link
 * ReconEvent#eventTimeMillis}), the same windows as tumbling event-time windows over it: a record's
 * timestamp is its business time, and an order ↔ fill finding emitted at its deadline still belongs
 * to the window of its subject.
 */
public final class BusinessTimeWindows extends WindowAssigner<Object, TimeWindow> {

    private static final long serialVersionUID = 1L;

    private final long sizeMillis;

    public BusinessTimeWindows(long sizeMillis) {
        this.sizeMillis = sizeMillis;
    }

    /** The window start of business time {@code t}. */
    public static long start(long t, long sizeMillis) {
        return TimeWindow.getWindowStartWithOffset(t, 0, sizeMillis);
    }

    @Override
    public Collection<TimeWindow> assignWindows(
            Object element, long timestamp, WindowAssignerContext ctx) {
        long start = start(((ReconEvent) element).eventTimeMillis, sizeMillis);
        return List.of(new TimeWindow(start, start + sizeMillis));
    }

    @Override
    public Trigger<Object, TimeWindow> getDefaultTrigger(StreamExecutionEnvironment env) {
        return EventTimeTrigger.create();
    }

    @Override
    public TypeSerializer<TimeWindow> getWindowSerializer(ExecutionConfig executionConfig) {
        return new TimeWindow.Serializer();
    }

    @Override
    public boolean isEventTime() {
        return true;
    }

    @Override
    public String toString() {
        return "BusinessTimeWindows(" + sizeMillis + ")";
    }
}
