package io.streamledger.operators.recon;

import static org.assertj.core.api.Assertions.assertThat;

import io.streamledger.model.order.OrderSide;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.streaming.api.operators.KeyedProcessOperator;
import org.apache.flink.streaming.api.watermark.Watermark;
import org.apache.flink.streaming.api.windowing.windows.TimeWindow;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The order ↔ fill check (CS04, AP15) in an operator harness: each violation gives exactly its
 * finding at its window's closing and not before; reordered and duplicated change records, and
 * fills arriving before their order's record, give none; state goes back to zero after the
 * retention; a snapshot restores the evidence.
 */
class OrderFillCheckTest {

    private static final ReconConfig CONFIG =
            ReconConfig.of(Duration.ofMinutes(1), Duration.ofSeconds(10), Duration.ofSeconds(30));
    private static final long W = 1_764_460_800_000L; // a window start (2025-11-30T00:00Z)
    private static final long CLOSING = W + 60_000 - 1 + 10_000;

    private KeyedOneInputStreamOperatorTestHarness<String, ReconEvent, ReconEvent> h;

    @AfterEach
    void close() throws Exception {
        if (h != null) {
            h.close();
        }
    }

    private KeyedOneInputStreamOperatorTestHarness<String, ReconEvent, ReconEvent> open(
            OperatorSubtaskState restore) throws Exception {
        h =
                new KeyedOneInputStreamOperatorTestHarness<>(
                        new KeyedProcessOperator<>(new OrderFillCheck(CONFIG)),
                        OrderFillCheck::key,
                        Types.STRING);
        h.getExecutionConfig().disableGenericTypes();
        if (restore != null) {
            h.initializeState(restore);
        }
        h.open();
        return h;
    }

    static ReconEvent order(String id, long version, String qty, String filled, long at) {
        return ReconEvent.of(
                "t1",
                at,
                new OrderFact(
                        id,
                        "C1",
                        "ACME",
                        new BigDecimal(qty),
                        new BigDecimal(filled),
                        version,
                        version == 1 ? "ACCEPTED" : "PARTIALLY_FILLED"));
    }

    static ReconEvent fill(String orderId, String fillId, long orderVersion, String qty, long at) {
        return ReconEvent.of(
                "t1",
                at,
                new FillFact(
                        orderId + ":" + fillId,
                        "C1",
                        "ACME",
                        OrderSide.BUY,
                        new BigDecimal(qty),
                        new BigDecimal("10.00"),
                        "USD",
                        BigDecimal.ZERO),
                orderId,
                orderVersion);
    }

    private void send(ReconEvent... events) throws Exception {
        for (ReconEvent e : events) {
            h.processElement(new StreamRecord<>(e, e.eventTimeMillis));
        }
    }

    private List<String> findings() {
        List<String> ids = new ArrayList<>();
        for (Object o : h.getOutput()) {
            if (o instanceof StreamRecord<?> r) {
                ids.add(((ReconEvent) r.getValue()).finding().breakId());
            }
        }
        return ids;
    }

    @Test
    void correctOrderOutOfOrderAndDuplicatedGivesNoFindingAndLeavesNoState() throws Exception {
        open(null);
        // fills before their order's versions, versions out of order, everything twice
        send(
                fill("o1", "f2", 3, "6", W + 3_000),
                fill("o1", "f1", 2, "4", W + 2_000),
                order("o1", 3, "10", "10", W + 3_001),
                fill("o1", "f1", 2, "4", W + 2_000),
                order("o1", 1, "10", "0", W + 1_000),
                order("o1", 2, "10", "4", W + 2_001),
                order("o1", 3, "10", "10", W + 3_001),
                order("o1", 1, "10", "0", W + 1_000));
        h.processWatermark(new Watermark(CLOSING));
        assertThat(findings()).isEmpty();
        h.processWatermark(new Watermark(CLOSING + ReconState.ORDER_FILL_RETENTION_MILLIS));
        assertThat(findings()).isEmpty();
        assertThat(h.numKeyedStateEntries()).isZero();
        assertThat(h.numEventTimeTimers()).isZero();
    }

    @Test
    void fillWithoutOrderIsFoundAtItsWindowsClosingOnly() throws Exception {
        open(null);
        send(fill("ghost", "f1", 2, "1", W + 5_000));
        h.processWatermark(new Watermark(CLOSING - 1));
        assertThat(findings()).isEmpty();
        h.processWatermark(new Watermark(CLOSING));
        assertThat(findings()).containsExactly("FILL_WITHOUT_ORDER:ghost:f1");
    }

    @Test
    void aFillBeyondTheOrdersVersionsHasNoOrder() throws Exception {
        open(null);
        send(
                order("o1", 1, "10", "0", W + 1_000),
                order("o1", 2, "10", "4", W + 2_001),
                fill("o1", "f1", 2, "4", W + 2_000),
                fill("o1", "x", 3, "1", W + 4_000));
        h.processWatermark(new Watermark(CLOSING));
        assertThat(findings()).containsExactly("FILL_WITHOUT_ORDER:o1:x");
    }

    @Test
    void fillsBeyondTheAcceptedQuantityAreFoundAtTheVersionThatHasThem() throws Exception {
        open(null);
        send(
                order("o1", 1, "10", "0", W + 1_000),
                fill("o1", "f1", 2, "6", W + 2_000),
                order("o1", 2, "10", "6", W + 2_001),
                fill("o1", "f2", 3, "6", W + 3_000),
                order("o1", 3, "10", "12", W + 3_001));
        h.processWatermark(new Watermark(CLOSING));
        assertThat(findings()).containsExactly("FILLS_EXCEED_ACCEPTED:o1:V:3");
    }

    @Test
    void filledQuantityOtherThanTheTradesIsAMismatchOfThatVersion() throws Exception {
        open(null);
        send(
                order("o1", 1, "10", "0", W + 1_000),
                fill("o1", "f1", 2, "4", W + 2_000),
                order("o1", 2, "10", "5", W + 2_001),
                fill("o1", "f2", 3, "5", W + 3_000),
                order("o1", 3, "10", "9", W + 3_001));
        h.processWatermark(new Watermark(CLOSING));
        assertThat(findings()).containsExactly("FILLED_QUANTITY_MISMATCH:o1:V:2");
        ReconEvent f = (ReconEvent) ((StreamRecord<?>) h.getOutput().peek()).getValue();
        assertThat(f.eventTimeMillis).isEqualTo(W + 2_001); // the subject's window
        assertThat(f.finding().evidence().json())
                .contains("\"filledQuantity\":\"5\"")
                .contains("\"tradedQuantity\":\"4\"");
    }

    @Test
    void eachSubjectIsJudgedAtItsOwnWindowsClosing() throws Exception {
        open(null);
        send(
                order("o1", 1, "10", "0", W + 1_000),
                fill("o1", "f1", 2, "4", W + 61_000),
                order("o1", 2, "10", "3", W + 61_001));
        h.processWatermark(new Watermark(CLOSING));
        assertThat(findings()).isEmpty();
        h.processWatermark(new Watermark(CLOSING + 60_000));
        assertThat(findings()).containsExactly("FILLED_QUANTITY_MISMATCH:o1:V:2");
    }

    @Test
    void evidenceSurvivesASnapshot() throws Exception {
        open(null);
        send(order("o1", 1, "10", "0", W + 1_000), fill("o1", "f1", 2, "4", W + 2_000));
        OperatorSubtaskState snapshot = h.snapshot(1, 1);
        h.close();
        open(snapshot);
        send(order("o1", 2, "10", "4", W + 2_001));
        h.processWatermark(new Watermark(CLOSING));
        assertThat(findings()).isEmpty();
    }

    @Test
    void theWindowRaisesAFindingAsABreakOfItsBatch() {
        OrderFillFinding finding =
                OrderFillRules.judgeFill(fill("ghost", "f1", 2, "1", W + 5_000), 0).orElseThrow();
        ReconWindowResult r =
                ReconWindowFunction.fire(
                        "t1",
                        new TimeWindow(W, W + 60_000),
                        List.of(
                                ReconEvent.of("t1", W + 5_000, finding),
                                ReconEvent.of("t1", W + 5_000, finding)),
                        true,
                        W + 70_000,
                        CONFIG);
        assertThat(r.ledgerBreaks).hasSize(1);
        BreakRecord b = r.ledgerBreaks[0];
        assertThat(b.getBreakId()).isEqualTo("FILL_WITHOUT_ORDER:ghost:f1");
        assertThat(b.getReason()).isEqualTo("FILL_WITHOUT_ORDER");
        assertThat(b.getBatchId()).isEqualTo(ReconWindowFunction.batchId(W, 60_000));
        assertThat(b.getEvidence()).contains("\"orderVersionSeen\":\"none\"");
        assertThat(r.orderFillBreaks).isEqualTo(1);
    }
}
