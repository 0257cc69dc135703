package io.streamledger.jobs.source;

import static org.assertj.core.api.Assertions.assertThat;

import io.streamledger.operators.watermark.SlowestShard;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.flink.api.common.eventtime.Watermark;
import org.apache.flink.api.common.eventtime.WatermarkOutput;
import org.junit.jupiter.api.Test;

/**
 * The source watermark the ledger checks' deadlines run on (CS11): the slowest shard rules, and
 * silence counts as caught up only at the head of the stream.
 */
class CaughtUpWatermarksTest {

    static final long OOO = 5_000;
    static final long QUIET = 30_000;

    private final AtomicLong now = new AtomicLong(1_000_000);
    private final AtomicLong paused = new AtomicLong(); // input time the task spent backpressured
    private final CaughtUpWatermarks g =
            new CaughtUpWatermarks(OOO, QUIET, now::get, () -> now.get() - paused.get());
    private final List<Long> emitted = new ArrayList<>();
    private boolean idle;

    private final WatermarkOutput out =
            new WatermarkOutput() {
                @Override
                public void emitWatermark(Watermark w) {
                    emitted.add(w.getTimestamp());
                }

                @Override
                public void markIdle() {
                    idle = true;
                }

                @Override
                public void markActive() {}
            };

    private void record(String shard, long ts) {
        g.onEvent(new RawChange("DYNAMODB_STREAMS", "s", shard, "1", ts, new byte[0]), ts, out);
    }

    private long last() {
        return emitted.get(emitted.size() - 1);
    }

    @Test
    void aLaggingShardHoldsTheWatermarkBackWhileAnotherRunsAhead() {
        record("a", 100_000);
        record("b", 10_000); // a backlog shard still at its old records
        record("a", 200_000);
        g.onPeriodicEmit(out);
        assertThat(last()).isEqualTo(10_000 - OOO - 1);
        record("b", 150_000);
        g.onPeriodicEmit(out);
        assertThat(last()).isEqualTo(150_000 - OOO - 1);
    }

    @Test
    void aCaughtUpShardFollowsTheWallClockSoAQuietLedgerReachesItsDeadlines() {
        record("a", 999_500); // read at the head of its stream (half a second old)
        g.onPeriodicEmit(out);
        assertThat(last()).isEqualTo(999_500 - OOO - 1);
        now.addAndGet(QUIET - 1);
        g.onPeriodicEmit(out);
        assertThat(last()).isEqualTo(999_500 - OOO - 1);
        now.addAndGet(60_000);
        g.onPeriodicEmit(out);
        assertThat(last()).isEqualTo(now.get() - QUIET - OOO - 1);
        assertThat(idle).isFalse();
    }

    @Test
    void aShardSilentBehindItsBacklogIsCaughtUpOnlyAfterTheQuietPeriodPlusItsLag() {
        record("a", 900_000); // read 100 s behind its stream
        g.onPeriodicEmit(out);
        long held = 900_000 - OOO - 1;
        now.addAndGet(QUIET + 50_000); // a stalled reader, not the head of the stream
        g.onPeriodicEmit(out);
        assertThat(last()).isEqualTo(held);
        now.addAndGet(50_000); // silent for the quiet period + the lag
        g.onPeriodicEmit(out);
        assertThat(last()).isEqualTo(now.get() - QUIET - OOO - 1);
    }

    @Test
    void timeSpentBackpressuredIsNotQuiet() {
        record("a", 999_500); // at the head of its stream
        now.addAndGet(QUIET + 10_000);
        paused.addAndGet(QUIET + 10_000); // the task was blocked on its output all along
        g.onPeriodicEmit(out);
        assertThat(last()).isEqualTo(999_500 - OOO - 1);
        now.addAndGet(QUIET + 1_000); // then really quiet: quiet period + its 0.5 s lag
        g.onPeriodicEmit(out);
        assertThat(last()).isEqualTo(now.get() - QUIET - OOO - 1);
    }

    @Test
    void theLagAddsAtMostTheForgetHorizonToTheQuietPeriod() {
        record("a", 0); // a million milliseconds behind
        now.addAndGet((SlowestShard.MAX_LAG_QUIET_PERIODS + 1) * QUIET - 1);
        g.onPeriodicEmit(out);
        assertThat(last()).isEqualTo(-OOO - 1);
        now.addAndGet(1);
        g.onPeriodicEmit(out);
        assertThat(last()).isEqualTo(now.get() - QUIET - OOO - 1);
    }

    @Test
    void aShardStillDeliveringIsNotOvertakenByTheClockOfAQuietOne() {
        record("a", 990_000);
        record("b", 500_000);
        now.addAndGet(QUIET + 1);
        record("b", 510_000); // b keeps delivering old records
        g.onPeriodicEmit(out);
        assertThat(last()).isEqualTo(510_000 - OOO - 1);
    }

    @Test
    void aGeneratorWithoutRecordsGoesIdleAfterTheQuietPeriod() {
        g.onPeriodicEmit(out);
        assertThat(idle).isFalse();
        now.addAndGet(QUIET);
        g.onPeriodicEmit(out);
        assertThat(idle).isTrue();
        assertThat(emitted).isEmpty();
    }

    @Test
    void theWatermarkNeverMovesBack() {
        record("a", 500_000);
        g.onPeriodicEmit(out);
        record("b", 100_000); // a shard discovered late with older records
        g.onPeriodicEmit(out);
        assertThat(emitted).containsExactly(500_000 - OOO - 1);
    }
}
