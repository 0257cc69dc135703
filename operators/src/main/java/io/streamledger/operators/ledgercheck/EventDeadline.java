package io.streamledger.operators.ledgercheck;

import org.apache.flink.streaming.api.TimerService;

/**
 * The one rule for when a ledger check may decide on incomplete evidence (CS11, AP15): once the
 * watermark has passed the record's time, or the watermark it arrived behind, plus the allowed
 * lateness. A source holds its watermark back while it still delivers older records, so a backlog
 * or a replay moves the deadline with it instead of racing it.
 */
final class EventDeadline {

    private EventDeadline() {}

    /**
     * @param recordTimestamp the element's timestamp (null when it carries none)
     * @param eventTimeMillis the change's own creation time, used without a timestamp
     */
    static long of(
            Long recordTimestamp, long eventTimeMillis, TimerService timers, long latenessMillis) {
        long at = recordTimestamp != null ? recordTimestamp : eventTimeMillis;
        return Math.max(at, timers.currentWatermark()) + latenessMillis;
    }
}
