package io.streamledger.operators.watermark;

import java.util.HashMap;
import java.util.Map;
import org.apache.flink.api.common.eventtime.Watermark;
import org.apache.flink.api.common.eventtime.WatermarkOutput;

/**
 * The one per-shard watermark rule (CS11 deadlines, AP14 windows): per shard the highest timestamp
 * seen minus the out-of-orderness, and the slowest shard holds the watermark back — also where one
 * generator sees several shards merged by its source subtask. What a shard quiet for the quiet
 * period contributes is the caller's policy ({@link Quiet}); a shard quiet for {@value
 * #FORGET_AFTER_QUIET_PERIODS} quiet periods is forgotten (a closed parent shard). The emitted
 * watermark never moves back. Not thread-safe: one per watermark generator.
 *
 * <p>Silence proves "caught up" only at the head of a stream: a shard whose last record was already
 * {@code lag} old when it arrived was read behind its stream, and a pause of its reader there (a
 * stalled poll, backpressure, a starved thread) looks exactly like silence. So with {@link
 * Quiet#FOLLOWS_CLOCK} such a shard counts as quiet only after the quiet period plus that lag (at
 * most {@value #MAX_LAG_QUIET_PERIODS} quiet periods more) — otherwise the watermark would jump
 * from the backlog to the clock and every deadline in between would fire with its other side still
 * unread.
 */
public final class SlowestShard {

    /** A shard quiet this many quiet periods is forgotten. */
    public static final int FORGET_AFTER_QUIET_PERIODS = 20;

    /** The most a reader's lag adds to the quiet period, in quiet periods (before forgetting). */
    public static final int MAX_LAG_QUIET_PERIODS = FORGET_AFTER_QUIET_PERIODS - 1;

    /** What a quiet shard contributes. */
    public enum Quiet {
        /** Caught up with its stream: its share follows the wall clock (arrival time). */
        FOLLOWS_CLOCK,
        /** Left out: it holds nothing back (business time, which the clock does not bound). */
        LEFT_OUT
    }

    private final long outOfOrdernessMillis;
    private final long quietMillis;
    private final Quiet quiet;
    // shard → {maxTs, lastSeenAt (input activity time), lag of its newest record when it was seen}
    private final Map<String, long[]> shards = new HashMap<>();
    private long emitted = Long.MIN_VALUE;

    public SlowestShard(long outOfOrdernessMillis, long quietMillis, Quiet quiet) {
        this.outOfOrdernessMillis = outOfOrdernessMillis;
        this.quietMillis = quietMillis;
        this.quiet = quiet;
    }

    /**
     * A record of {@code shard} with {@code timestamp}, seen at wall-clock {@code now} and input
     * activity time {@code activeNow} (a clock that stands still while the task is backpressured,
     * Flink's {@code getInputActivityClock()}: a blocked input is not a quiet one).
     */
    public void seen(String shard, long timestamp, long now, long activeNow) {
        long[] s = shards.computeIfAbsent(shard, k -> new long[] {Long.MIN_VALUE, 0, 0});
        s[0] = Math.max(s[0], timestamp);
        s[1] = activeNow;
        s[2] = Math.max(0, now - s[0]);
    }

    /** True once any shard delivered (and was not forgotten since). */
    public boolean hasShards() {
        return !shards.isEmpty();
    }

    /**
     * The slowest shard's bound at wall-clock {@code now} (quiet measured in input activity time
     * {@code activeNow}); with {@link Quiet#FOLLOWS_CLOCK} the clock's bound when every shard was
     * forgotten, with {@link Quiet#LEFT_OUT} {@link Long#MAX_VALUE} when no shard holds it back.
     */
    public long slowest(long now, long activeNow) {
        long caughtUp = now - quietMillis - outOfOrdernessMillis - 1;
        long min = Long.MAX_VALUE;
        var it = shards.values().iterator();
        while (it.hasNext()) {
            long[] s = it.next();
            long quietFor = activeNow - s[1];
            if (quietFor >= FORGET_AFTER_QUIET_PERIODS * quietMillis) {
                it.remove();
                continue;
            }
            long share = s[0] - outOfOrdernessMillis - 1;
            if (quietFor >= quietPeriod(s[2])) {
                if (quiet == Quiet.LEFT_OUT) {
                    continue;
                }
                share = Math.max(share, caughtUp);
            }
            min = Math.min(min, share);
        }
        return min == Long.MAX_VALUE && quiet == Quiet.FOLLOWS_CLOCK ? caughtUp : min;
    }

    /** How long a shard read {@code lag} behind its stream must be silent to count as quiet. */
    private long quietPeriod(long lag) {
        if (quiet == Quiet.LEFT_OUT) {
            return quietMillis; // business time: the clock says nothing about its lag
        }
        return quietMillis + Math.min(lag, MAX_LAG_QUIET_PERIODS * quietMillis);
    }

    /** Emits {@code watermark} when it is above the last one; false when it is not. */
    public boolean emit(long watermark, WatermarkOutput output) {
        if (watermark <= emitted) {
            return false;
        }
        emitted = watermark;
        output.emitWatermark(new Watermark(watermark));
        return true;
    }
}
