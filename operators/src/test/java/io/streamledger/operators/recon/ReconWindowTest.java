package io.streamledger.operators.recon;

import static org.assertj.core.api.Assertions.assertThat;

import io.streamledger.model.keys.AuthorityKey;
import io.streamledger.model.ledger.LedgerIds;
import io.streamledger.model.order.OrderSide;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.common.ExecutionConfig;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.api.watermark.Watermark;
import org.apache.flink.streaming.api.windowing.assigners.TumblingEventTimeWindows;
import org.apache.flink.streaming.api.windowing.windows.TimeWindow;
import org.apache.flink.streaming.runtime.operators.windowing.WindowOperatorBuilder;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * AP14 window semantics on the real WindowOperator: provisional batch at the end, a late record in
 * time re-fires and can clear a discrepancy, breaks only at the closing firing, too-late records to
 * the side output.
 */
class ReconWindowTest {

    static final long MIN = 60_000;
    static final long T0 = Instant.parse("2026-11-30T09:00:00Z").toEpochMilli();
    static final ReconConfig CONFIG =
            ReconConfig.of(Duration.ofMinutes(1), Duration.ofMinutes(2), Duration.ofSeconds(30));

    private KeyedOneInputStreamOperatorTestHarness<String, ReconEvent, ReconWindowResult> h;
    private Map<String, PositionView> rows;

    @AfterEach
    void close() throws Exception {
        if (h != null) {
            h.close();
        }
    }

    private void open(Map<String, PositionView> rows) throws Exception {
        this.rows = rows;
        WindowOperatorBuilder<ReconEvent, String, TimeWindow> b =
                new WindowOperatorBuilder<>(
                        TumblingEventTimeWindows.of(Duration.ofMinutes(1)),
                        new BatchTrigger(CONFIG.allowedLatenessMillis()),
                        new ExecutionConfig(),
                        ReconState.EVENT,
                        e -> e.tenant,
                        Types.STRING);
        b.allowedLateness(Duration.ofMillis(CONFIG.allowedLatenessMillis()));
        b.sideOutputLateData(ReconState.LATE);
        h =
                new KeyedOneInputStreamOperatorTestHarness<>(
                        b.process(new ReconWindowFunction(CONFIG)), e -> e.tenant, Types.STRING);
        h.open();
    }

    private static ReconEvent fill(String tradeId, long at) {
        ReconEvent e =
                ReconEvent.of(
                        "t1",
                        at,
                        new FillFact(
                                tradeId,
                                "C1",
                                "ACME",
                                OrderSide.BUY,
                                new BigDecimal("2"),
                                new BigDecimal("10.00"),
                                "USD",
                                BigDecimal.ZERO));
        return e;
    }

    private static List<ReconEvent> txn(String tradeId, long at) {
        List<ReconEvent> out = new ArrayList<>();
        String txn = LedgerIds.tradeTxnId("t1", tradeId);
        String[][] lines = {
            {"C1", "CASH", "USD", "-20.00"}, {"H", "CASH", "USD", "20.00"},
            {"C1", "SEC", "ACME", "2"}, {"H", "SEC", "ACME", "-2"}
        };
        int n = 0;
        for (String[] l : lines) {
            ReconEvent e =
                    ReconEvent.of(
                            "t1",
                            at,
                            new PostingFact(
                                    txn,
                                    "TRADE:" + tradeId,
                                    ++n,
                                    l[0],
                                    AuthorityKey.Kind.valueOf(l[1]),
                                    l[2],
                                    new BigDecimal(l[3]),
                                    "X"));
            out.add(e);
        }
        return out;
    }

    /** Each firing through the positions read (from {@link #rows}) and the batch plan. */
    private List<ReconFinish.Plan> plans() {
        List<ReconFinish.Plan> out = new ArrayList<>();
        for (ReconWindowResult r : h.extractOutputValues()) {
            int n = r.authorities.length;
            r.viewVersions = new long[n];
            r.viewQuantities = new java.math.BigDecimal[n];
            for (int i = 0; i < n; i++) {
                AuthorityFact a = r.authorities[i].authority();
                PositionView v = rows.get(a.account() + "/" + a.asset());
                r.viewVersions[i] = v == null ? -1 : v.sourceVersion();
                r.viewQuantities[i] = v == null ? null : v.quantity();
            }
            out.add(ReconFinish.plan(r, CONFIG));
        }
        return out;
    }

    private List<ReconBatch> batches() {
        return plans().stream().map(ReconFinish.Plan::batch).toList();
    }

    /** Breaks are emitted at the closing firing only. */
    private List<BreakRecord> breaks() {
        return plans().stream()
                .filter(p -> p.batch().closed)
                .flatMap(p -> p.breaks().stream())
                .toList();
    }

    @Test
    void lateTxnWithinLatenessClearsTheProvisionalDiscrepancy() throws Exception {
        open(Map.of());
        h.processElement(fill("f1", T0 + 1_000), T0 + 1_000);
        h.processWatermark(new Watermark(T0 + MIN)); // window end passed: provisional
        assertThat(batches()).hasSize(1);
        assertThat(batches().get(0).closed).isFalse();
        assertThat(batches().get(0).outcome).isEqualTo("BREAKS");
        assertThat(breaks()).isEmpty();
        for (ReconEvent p : txn("f1", T0 + 1_000)) {
            h.processElement(p, p.eventTimeMillis); // late but allowed: re-fires
        }
        h.processWatermark(new Watermark(T0 + 3 * MIN)); // end + lateness passed: closing
        ReconBatch last = batches().get(batches().size() - 1);
        assertThat(last.closed).isTrue();
        assertThat(last.outcome).isEqualTo("CLEAN");
        assertThat(last.revision).isGreaterThan(batches().get(0).revision);
        assertThat(breaks()).isEmpty();
        // after the lateness: to the side output, the window is gone
        h.processElement(fill("f9", T0 + 2_000), T0 + 2_000);
        assertThat(h.getSideOutput(ReconState.LATE)).hasSize(1);
        assertThat(h.numKeyedStateEntries()).isZero();
    }

    @Test
    void discrepancyStillThereAtClosingIsOneBreakInTheWindowsBatch() throws Exception {
        open(Map.of());
        h.processElement(fill("f2", T0 + 1_000), T0 + 1_000);
        h.processWatermark(new Watermark(T0 + 3 * MIN));
        assertThat(breaks())
                .extracting(BreakRecord::getBreakId)
                .containsExactly("MISSING_LEDGER_TXN:f2");
        assertThat(breaks().get(0).getBatchId())
                .isEqualTo(ReconWindowFunction.batchId(T0, MIN))
                .isEqualTo(batches().get(batches().size() - 1).batchId);
    }
}
