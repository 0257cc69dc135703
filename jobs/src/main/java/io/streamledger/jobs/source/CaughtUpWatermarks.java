package io.streamledger.jobs.source;

import java.util.HashMap;
import java.util.Map;
import java.util.function.LongSupplier;
import org.apache.flink.api.common.eventtime.Watermark;
import org.apache.flink.api.common.eventtime.WatermarkGenerator;
import org.apache.flink.api.common.eventtime.WatermarkOutput;

/**
 * Watermarks that say "every record up to here has been delivered" (CS11 checks decide on them):
 * per shard the highest timestamp seen minus the out-of-orderness, and the slowest shard holds the
 * watermark back — also where one generator sees several shards (the DynamoDB Streams consumer
 * merges its shards before the watermark operator). A shard that has delivered nothing for the
 * quiet period is caught up with its stream, so its share follows the wall clock (minus the quiet
 * period and the out-of-orderness): a quiet ledger still reaches its deadlines. Before its first
 * record a generator is idle after the quiet period, so an empty subtask holds nothing back.
 */
final class CaughtUpWatermarks implements WatermarkGenerator<RawChange> {

    /** A shard quiet this many quiet periods is forgotten (a closed parent shard). */
    static final int FORGET_AFTER_QUIET_PERIODS = 20;

    private final long outOfOrdernessMillis;
    private final long quietMillis;
    private final LongSupplier clock;
    private final Map<String, long[]> shards = new HashMap<>(); // shard → {maxTs, lastSeenAt}
    private final long startedAt;
    private long emitted = Long.MIN_VALUE;

    CaughtUpWatermarks(long outOfOrdernessMillis, long quietMillis, LongSupplier clock) {
        this.outOfOrdernessMillis = outOfOrdernessMillis;
        this.quietMillis = quietMillis;
        this.clock = clock;
        this.startedAt = clock.getAsLong();
    }

    @Override
    public void onEvent(RawChange r, long timestamp, WatermarkOutput output) {
        long[] s = shards.computeIfAbsent(r.getShardId(), k -> new long[] {Long.MIN_VALUE, 0});
        s[0] = Math.max(s[0], timestamp);
        s[1] = clock.getAsLong();
    }

    @Override
    public void onPeriodicEmit(WatermarkOutput output) {
        long now = clock.getAsLong();
        if (shards.isEmpty()) {
            if (now - startedAt >= quietMillis) {
                output.markIdle();
            }
            return;
        }
        long caughtUp = now - quietMillis - outOfOrdernessMillis - 1;
        long min = Long.MAX_VALUE;
        var it = shards.values().iterator();
        while (it.hasNext()) {
            long[] s = it.next();
            long quietFor = now - s[1];
            if (quietFor >= FORGET_AFTER_QUIET_PERIODS * quietMillis) {
                it.remove();
                continue;
            }
            long share = s[0] - outOfOrdernessMillis - 1;
            if (quietFor >= quietMillis) {
                share = Math.max(share, caughtUp);
            }
            min = Math.min(min, share);
        }
        long wm = min == Long.MAX_VALUE ? caughtUp : min;
        if (wm > emitted) {
            emitted = wm;
            output.emitWatermark(new Watermark(wm));
        }
    }
}
