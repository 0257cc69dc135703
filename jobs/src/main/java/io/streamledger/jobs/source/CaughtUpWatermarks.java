package io.streamledger.jobs.source;

import io.streamledger.operators.watermark.SlowestShard;
import java.util.function.LongSupplier;
import org.apache.flink.api.common.eventtime.WatermarkGenerator;
import org.apache.flink.api.common.eventtime.WatermarkOutput;

/**
 * Watermarks that say "every record up to here has been delivered" (CS11 checks decide on them):
 * per shard the highest timestamp seen minus the out-of-orderness, and the slowest shard holds the
 * watermark back ({@link SlowestShard}) — also where one generator sees several shards (the
 * DynamoDB Streams consumer merges its shards before the watermark operator). A shard that has
 * delivered nothing for the quiet period — plus its reader's lag, when its last record was read
 * behind the stream ({@link SlowestShard}) — is caught up with its stream, so its share follows the
 * wall clock (minus the quiet period and the out-of-orderness): a quiet ledger still reaches its
 * deadlines. Before its first record a generator is idle after the quiet period, so an empty
 * subtask holds nothing back.
 */
final class CaughtUpWatermarks implements WatermarkGenerator<RawChange> {

    private final long quietMillis;
    private final LongSupplier clock;
    private final LongSupplier activity;
    private final SlowestShard shards;
    private final long startedAt;

    /**
     * @param clock the wall clock (arrival times are wall-clock)
     * @param activity input activity time, which stands still while the task is backpressured:
     *     quiet periods are measured on it
     */
    CaughtUpWatermarks(
            long outOfOrdernessMillis,
            long quietMillis,
            LongSupplier clock,
            LongSupplier activity) {
        this.quietMillis = quietMillis;
        this.clock = clock;
        this.activity = activity;
        this.shards =
                new SlowestShard(
                        outOfOrdernessMillis, quietMillis, SlowestShard.Quiet.FOLLOWS_CLOCK);
        this.startedAt = activity.getAsLong();
    }

    @Override
    public void onEvent(RawChange r, long timestamp, WatermarkOutput output) {
        shards.seen(r.getShardId(), timestamp, clock.getAsLong(), activity.getAsLong());
    }

    @Override
    public void onPeriodicEmit(WatermarkOutput output) {
        long active = activity.getAsLong();
        if (!shards.hasShards()) {
            if (active - startedAt >= quietMillis) {
                output.markIdle();
            }
            return;
        }
        shards.emit(shards.slowest(clock.getAsLong(), active), output);
    }
}
