package io.streamledger.operators.recon;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.flink.api.common.eventtime.Watermark;
import org.apache.flink.api.common.eventtime.WatermarkOutput;
import org.junit.jupiter.api.Test;

/**
 * The reconciliation's business-time watermark (AP14): per shard, the slowest shard that is not
 * quiet rules, a quiet shard stops holding it back, a replay holds nothing back.
 */
class ShardBusinessTimeWatermarksTest {

    static final long OOO = 1_000;
    static final long QUIET = 5_000;

    private final AtomicLong now = new AtomicLong(1_000_000);
    private final ShardBusinessTimeWatermarks g =
            new ShardBusinessTimeWatermarks(OOO, QUIET, now::get);
    private final List<Long> emitted = new ArrayList<>();
    private boolean idle;

    private final WatermarkOutput out =
            new WatermarkOutput() {
                @Override
                public void emitWatermark(Watermark w) {
                    idle = false;
                    emitted.add(w.getTimestamp());
                }

                @Override
                public void markIdle() {
                    idle = true;
                }

                @Override
                public void markActive() {
                    idle = false;
                }
            };

    private void record(String shard, long businessTime) {
        ReconEvent e = new ReconEvent();
        e.kind = ReconEvent.Kind.FILL;
        e.eventTimeMillis = businessTime;
        e.sourceShard = shard;
        g.onEvent(e, businessTime, out);
    }

    private long last() {
        return emitted.get(emitted.size() - 1);
    }

    @Test
    void aShardStillCatchingUpHoldsTheWatermarkBelowAShardThatIsCurrent() {
        record("a", 600_000);
        record("b", 10_000); // a backlog shard still at its old fills
        g.onPeriodicEmit(out);
        assertThat(last()).isEqualTo(10_000 - OOO - 1); // merged, it would be 600_000 - OOO - 1
        record("b", 300_000);
        g.onPeriodicEmit(out);
        assertThat(last()).isEqualTo(300_000 - OOO - 1);
    }

    @Test
    void aQuietShardStopsHoldingItBackAndAllQuietIsIdle() {
        record("a", 600_000);
        record("b", 10_000);
        now.addAndGet(QUIET / 2);
        record("a", 610_000);
        g.onPeriodicEmit(out);
        assertThat(last()).isEqualTo(10_000 - OOO - 1);
        now.addAndGet(QUIET / 2); // b quiet for the quiet period, a not
        g.onPeriodicEmit(out);
        assertThat(last()).isEqualTo(610_000 - OOO - 1);
        assertThat(idle).isFalse();
        now.addAndGet(QUIET);
        g.onPeriodicEmit(out);
        assertThat(idle).isTrue();
        assertThat(last()).isEqualTo(610_000 - OOO - 1);
    }

    @Test
    void beforeItsFirstRecordTheGeneratorHoldsTheOtherSourceForOneQuietPeriod() {
        g.onPeriodicEmit(out);
        assertThat(idle).isFalse(); // a source that has not delivered yet closes no window
        now.addAndGet(QUIET);
        g.onPeriodicEmit(out);
        assertThat(idle).isTrue();
        assertThat(emitted).isEmpty();
    }

    @Test
    void aReplayHoldsNothingBackAndTheWatermarkNeverGoesBack() {
        record("a", 600_000);
        g.onPeriodicEmit(out);
        ReconEvent replay = new ReconEvent();
        replay.kind = ReconEvent.Kind.FILL;
        replay.eventTimeMillis = 1_000;
        g.onEvent(replay, 1_000, out); // no shard
        g.onPeriodicEmit(out);
        assertThat(last()).isEqualTo(600_000 - OOO - 1);
        record("c", 5_000); // a newly seen shard behind the watermark
        g.onPeriodicEmit(out);
        assertThat(emitted).containsExactly(600_000 - OOO - 1);
        assertThat(idle).isFalse();
    }
}
