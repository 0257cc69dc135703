package io.streamledger.operators.recon;

import org.apache.flink.streaming.api.windowing.triggers.Trigger;
import org.apache.flink.streaming.api.windowing.triggers.TriggerResult;
import org.apache.flink.streaming.api.windowing.windows.TimeWindow;

/**
 * Fires a reconciliation window (AP14) when the watermark passes its end (a provisional batch), on
 * every late record, and once more when the allowed lateness has passed (the closing firing: only
 * then are breaks raised, so a record that arrives late but in time cannot leave a false,
 * create-once break behind).
 */
public final class BatchTrigger extends Trigger<Object, TimeWindow> {

    private static final long serialVersionUID = 1L;

    private final long allowedLatenessMillis;

    public BatchTrigger(long allowedLatenessMillis) {
        this.allowedLatenessMillis = allowedLatenessMillis;
    }

    /** True when a firing at {@code watermark} is the window's last. */
    public static boolean closing(TimeWindow w, long watermark, long allowedLatenessMillis) {
        return watermark >= w.maxTimestamp() + allowedLatenessMillis;
    }

    @Override
    public TriggerResult onElement(Object e, long ts, TimeWindow w, TriggerContext ctx) {
        ctx.registerEventTimeTimer(w.maxTimestamp() + allowedLatenessMillis);
        if (w.maxTimestamp() <= ctx.getCurrentWatermark()) {
            return TriggerResult.FIRE; // a late record: the batch is re-computed
        }
        ctx.registerEventTimeTimer(w.maxTimestamp());
        return TriggerResult.CONTINUE;
    }

    @Override
    public TriggerResult onEventTime(long time, TimeWindow w, TriggerContext ctx) {
        long closingAt = w.maxTimestamp() + allowedLatenessMillis;
        if (time == closingAt) {
            return TriggerResult.FIRE;
        }
        if (time == w.maxTimestamp()) {
            // one watermark jump past both timers: only the closing firing, never two closings
            return ctx.getCurrentWatermark() >= closingAt
                    ? TriggerResult.CONTINUE
                    : TriggerResult.FIRE;
        }
        return TriggerResult.CONTINUE;
    }

    @Override
    public TriggerResult onProcessingTime(long time, TimeWindow w, TriggerContext ctx) {
        return TriggerResult.CONTINUE;
    }

    @Override
    public void clear(TimeWindow w, TriggerContext ctx) {
        ctx.deleteEventTimeTimer(w.maxTimestamp());
        ctx.deleteEventTimeTimer(w.maxTimestamp() + allowedLatenessMillis);
    }
}
