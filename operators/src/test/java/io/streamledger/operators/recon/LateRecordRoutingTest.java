package io.streamledger.operators.recon;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.api.operators.KeyedProcessOperator;
import org.apache.flink.streaming.api.watermark.Watermark;
import org.apache.flink.streaming.api.windowing.windows.TimeWindow;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.junit.jupiter.api.Test;

/**
 * A record after its window's closing goes to the late side output (dead-letter table) and, as a
 * marker, into the window open at the watermark, whose next batch revision lists it (AP14); a
 * record in time passes unchanged.
 */
class LateRecordRoutingTest {

    private static final ReconConfig CONFIG =
            ReconConfig.of(Duration.ofMinutes(1), Duration.ofSeconds(10), Duration.ofSeconds(30));
    private static final long W = 1_764_460_800_000L;

    @Test
    void aLateRecordIsDeadLetteredAndListedByTheNextRevision() throws Exception {
        try (KeyedOneInputStreamOperatorTestHarness<String, ReconEvent, ReconEvent> h =
                new KeyedOneInputStreamOperatorTestHarness<>(
                        new KeyedProcessOperator<>(new LateRecordRouting(CONFIG)),
                        e -> e.tenant,
                        Types.STRING)) {
            h.open();
            ReconEvent inTime = OrderFillCheckTest.fill("o1", "f1", 2, "1", W + 1_000);
            h.processElement(new StreamRecord<>(inTime, inTime.eventTimeMillis));
            long watermark = W + 60_000 + 10_000 + 5_000; // past the first window's closing
            h.processWatermark(new Watermark(watermark));
            ReconEvent late = OrderFillCheckTest.fill("o1", "f2", 3, "1", W + 2_000);
            h.processElement(new StreamRecord<>(late, late.eventTimeMillis));

            assertThat(h.getSideOutput(ReconState.LATE))
                    .extracting(r -> r.getValue().subject())
                    .containsExactly("trade:o1:f2");
            List<ReconEvent> out =
                    h.extractOutputValues().stream().map(e -> (ReconEvent) e).toList();
            assertThat(out).hasSize(2);
            assertThat(out.get(0).subject()).isEqualTo(inTime.subject());
            ReconEvent marker = out.get(1);
            assertThat(marker.kind).isEqualTo(ReconEvent.Kind.LATE);
            assertThat(marker.eventTimeMillis).isEqualTo(watermark + 1);

            long start = BusinessTimeWindows.start(marker.eventTimeMillis, 60_000);
            ReconWindowResult r =
                    ReconWindowFunction.fire(
                            "t1",
                            new TimeWindow(start, start + 60_000),
                            List.of(marker),
                            false,
                            0,
                            CONFIG);
            r.attach(new PositionView[0]);
            ReconBatch b = ReconFinish.plan(r, CONFIG).batch();
            assertThat(b.manifest)
                    .contains("\"late.count\":\"1\"")
                    .contains("FILL:trade:o1:f2@2025-11-30T00:00:02Z");
            assertThat(b.breakCount).isZero();
        }
    }
}
