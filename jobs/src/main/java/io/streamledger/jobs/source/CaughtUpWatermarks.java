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
    private final SlowestShard shards;
    private final long startedAt;

    CaughtUpWatermarks(long outOfOrdernessMillis, long quietMillis, LongSupplier clock) {
        this.quietMillis = quietMillis;
        this.clock = clock;
        this.shards =
                new SlowestShard(
                        outOfOrdernessMillis, quietMillis, SlowestShard.Quiet.FOLLOWS_CLOCK);
        this.startedAt = clock.getAsLong();
    }

    @Override
    public void onEvent(RawChange r, long timestamp, WatermarkOutput output) {
        shards.seen(r.getShardId(), timestamp, clock.getAsLong());
    }

    @Override
    public void onPeriodicEmit(WatermarkOutput output) {
        long now = clock.getAsLong();
        if (!shards.hasShards()) {
            if (now - startedAt >= quietMillis) {
                output.markIdle();
            }
            return;
        }
        shards.emit(shards.slowest(now), output);
    }
}
