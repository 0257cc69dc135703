package io.streamledger.operators.recon;

import io.streamledger.operators.watermark.SlowestShard;
import java.util.function.LongSupplier;
import org.apache.flink.api.common.eventtime.WatermarkGenerator;
import org.apache.flink.api.common.eventtime.WatermarkOutput;

/**
 * Business-time watermarks of one reconciliation source, per source shard (AP14 windows close on
 * them; the rule is {@link SlowestShard}): the slowest shard that delivered within the quiet period
 * holds the watermark back, so a shard still catching up a backlog is not overtaken by a current
 * one its source subtask merged with it. A quiet shard is left out, not moved to the wall clock
 * (business time may be far behind it); with every shard quiet, or none seen one quiet period after
 * the start, the generator is idle. Records without a shard (re-injected replays) are timestamped
 * but hold nothing back. Never above the bound over all shards merged, so it never makes a record
 * late that the merged bound took in time. {@code clock} is Flink's input activity clock in the job
 * (it stands still while the task is backpressured: a blocked input is not a quiet one).
 */
public final class ShardBusinessTimeWatermarks implements WatermarkGenerator<ReconEvent> {

    private final long quietMillis;
    private final LongSupplier clock;
    private final SlowestShard shards;
    private final long startedAt;

    public ShardBusinessTimeWatermarks(
            long outOfOrdernessMillis, long quietMillis, LongSupplier clock) {
        this.quietMillis = quietMillis;
        this.clock = clock;
        this.shards =
                new SlowestShard(outOfOrdernessMillis, quietMillis, SlowestShard.Quiet.LEFT_OUT);
        this.startedAt = clock.getAsLong();
    }

    @Override
    public void onEvent(ReconEvent e, long timestamp, WatermarkOutput output) {
        if (e.sourceShard != null) {
            long now = clock.getAsLong();
            // LEFT_OUT never reads the wall clock: the activity clock serves both arguments
            shards.seen(e.sourceShard, timestamp, now, now);
        }
    }

    @Override
    public void onPeriodicEmit(WatermarkOutput output) {
        long now = clock.getAsLong();
        long slowest = shards.slowest(now, now);
        if (slowest == Long.MAX_VALUE) {
            if (shards.hasShards() || now - startedAt >= quietMillis) {
                output.markIdle();
            }
            return;
        }
        if (!shards.emit(slowest, output)) {
            output.markActive();
        }
    }
}
