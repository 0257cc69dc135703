package io.streamledger.operators.recon;

import java.util.HashMap;
import java.util.Map;
import java.util.function.LongSupplier;
import org.apache.flink.api.common.eventtime.Watermark;
import org.apache.flink.api.common.eventtime.WatermarkGenerator;
import org.apache.flink.api.common.eventtime.WatermarkOutput;

/**
 * Business-time watermarks of one reconciliation source, per source shard (AP14 windows close on
 * them): per shard the highest business time seen minus the out-of-orderness, and the slowest
 * shard that delivered within the quiet period holds the watermark back — one generator sees all
 * shards its source subtask merged, so a shard still catching up a backlog is not overtaken by a
 * shard that is current. A shard quiet for the quiet period stops holding it back; with every
 * shard quiet the generator is idle. Records without a shard (re-injected replays) are timestamped
 * but hold nothing back. Never above the bound over all shards merged, so it never makes a record
 * late that the merged bound would have taken in time.
 */
public final class ShardBusinessTimeWatermarks implements WatermarkGenerator<ReconEvent> {

    /** A shard quiet this many quiet periods is forgotten (a closed parent shard). */
    static final int FORGET_AFTER_QUIET_PERIODS = 20;

    private final long outOfOrdernessMillis;
    private final long quietMillis;
    private final LongSupplier clock;
    private final Map<String, long[]> shards = new HashMap<>(); // shard → {maxTs, lastSeenAt}
    private long emitted = Long.MIN_VALUE;

    public ShardBusinessTimeWatermarks(
            long outOfOrdernessMillis, long quietMillis, LongSupplier clock) {
        this.outOfOrdernessMillis = outOfOrdernessMillis;
        this.quietMillis = quietMillis;
        this.clock = clock;
    }

    @Override
    public void onEvent(ReconEvent e, long timestamp, WatermarkOutput output) {
        if (e.sourceShard == null) {
            return;
        }
        long[] s = shards.computeIfAbsent(e.sourceShard, k -> new long[] {Long.MIN_VALUE, 0});
        s[0] = Math.max(s[0], timestamp);
        s[1] = clock.getAsLong();
    }

    @Override
    public void onPeriodicEmit(WatermarkOutput output) {
        long now = clock.getAsLong();
        long min = Long.MAX_VALUE;
        var it = shards.values().iterator();
        while (it.hasNext()) {
            long[] s = it.next();
            long quietFor = now - s[1];
            if (quietFor >= FORGET_AFTER_QUIET_PERIODS * quietMillis) {
                it.remove();
            } else if (quietFor < quietMillis) {
                min = Math.min(min, s[0] - outOfOrdernessMillis - 1);
            }
        }
        if (min == Long.MAX_VALUE) {
            output.markIdle();
            return;
        }
        if (min > emitted) {
            emitted = min;
            output.emitWatermark(new Watermark(min));
        } else {
            output.markActive();
        }
    }
}
