package io.streamledger.operators.posting;

import static org.assertj.core.api.Assertions.assertThat;

import io.streamledger.model.keys.DeadLetterKey;
import io.streamledger.operators.gate.DeadLetter;
import io.streamledger.operators.gate.DeadLetterReason;
import io.streamledger.operators.gate.GapBreak;
import io.streamledger.operators.gate.GateConfig;
import io.streamledger.operators.gate.GateEvent;
import io.streamledger.operators.gate.GateState;
import io.streamledger.operators.gate.NextVersionGate;
import io.streamledger.operators.gate.NextVersionGateOperator;
import io.streamledger.operators.gate.SourceKeySelector;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.streaming.api.operators.ProcessOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.apache.flink.streaming.util.OneInputStreamOperatorTestHarness;
import org.apache.flink.util.OutputTag;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The posting job's per-account execution-order gate (CS07 applied to postings, AP13): fills of one
 * account leave in {@code accountExecSeq} order whatever order they arrive in, across a restore.
 */
class ExecutionOrderTest {

    private static final long SLA = 1_000L;
    private static final GateConfig CONFIG =
            GateConfig.of(Duration.ofHours(1), Duration.ofMillis(SLA), 3);

    private KeyedOneInputStreamOperatorTestHarness<String, GateEvent, GateEvent> h;

    @AfterEach
    void close() throws Exception {
        if (h != null) {
            h.close();
        }
    }

    static TradeFill fill(String account, long seq, String side, String qty) {
        TradeFill f = new TradeFill();
        f.setEventId("evt-" + account + "-" + seq);
        f.setTenant("t1");
        f.setTradeId("o-" + seq + ":f1");
        f.setFillId("f1");
        f.setOrderId("o-" + seq);
        f.setAccountId(account);
        f.setSymbol("NVDA");
        f.setSide(side);
        f.setQuantity(new BigDecimal(qty));
        f.setPrice(new BigDecimal("41.596"));
        f.setCurrency("USD");
        f.setFee(BigDecimal.ZERO);
        f.setFeeCurrency("USD");
        f.setExecutedAtMillis(1_700_000_000_000L + seq);
        f.setOrderVersion(1);
        f.setAccountExecSeq(seq);
        return f;
    }

    private static KeyedOneInputStreamOperatorTestHarness<String, GateEvent, GateEvent> gate(
            GateConfig config, OperatorSubtaskState restoreFrom) throws Exception {
        var harness =
                new KeyedOneInputStreamOperatorTestHarness<>(
                        new NextVersionGateOperator(new NextVersionGate(config)),
                        new SourceKeySelector(),
                        ExecutionOrderState.ACCOUNT_KEY);
        harness.getExecutionConfig().disableGenericTypes();
        harness.setup(
                ExecutionOrderState.GATE_EVENT.createSerializer(
                        harness.getExecutionConfig().getSerializerConfig()));
        if (restoreFrom != null) {
            harness.initializeState(restoreFrom);
        }
        harness.open();
        return harness;
    }

    private void send(TradeFill f) throws Exception {
        h.processElement(ExecutionOrder.toGateEvent(f), 0L);
    }

    /** The fills that left the gate, unwrapped as the job does. */
    private List<TradeFill> posted() {
        List<TradeFill> out = new ArrayList<>();
        for (GateEvent e : h.extractOutputValues()) {
            out.add(TradeFills.fromJson(e.getPayload()));
        }
        return out;
    }

    private List<Long> postedSequences() {
        return posted().stream().map(TradeFill::getAccountExecSeq).toList();
    }

    private <T> List<T> side(OutputTag<T> tag) {
        List<T> out = new ArrayList<>();
        var q = h.getSideOutput(tag);
        if (q != null) {
            for (StreamRecord<T> r : q) {
                out.add(r.getValue());
            }
        }
        return out;
    }

    private NextVersionGate function() {
        return ((NextVersionGateOperator) h.getOperator()).getUserFunction();
    }

    @Test
    void aSellArrivingBeforeTheBuysThatFundItIsPostedAfterThem() throws Exception {
        h = gate(CONFIG, null);
        send(fill("A1", 3, "SELL", "133"));
        send(fill("A1", 2, "BUY", "111"));
        assertThat(posted()).isEmpty();
        assertThat(function().tracker().parked()).isEqualTo(2);
        assertThat(function().tracker().openGaps()).isEqualTo(1);

        send(fill("A1", 1, "BUY", "60"));

        assertThat(postedSequences()).containsExactly(1L, 2L, 3L);
        assertThat(posted().get(2)).isEqualTo(fill("A1", 3, "SELL", "133"));
        assertThat(posted().get(2).getQuantity()).isEqualByComparingTo("133");
        assertThat(function().tracker().parked()).isZero();
        assertThat(function().tracker().openGaps()).isZero();
    }

    @Test
    void afterTheGapClosesOnlyTheSequenceIsLeftNoTimersNoParkedState() throws Exception {
        h = gate(CONFIG, null);
        send(fill("A1", 2, "BUY", "1"));
        send(fill("B7", 2, "BUY", "1"));
        assertThat(h.numProcessingTimeTimers()).isEqualTo(2);
        send(fill("A1", 1, "BUY", "1"));
        send(fill("B7", 1, "BUY", "1"));

        // one CURRENT_SEQUENCE entry per account; no PARKED entry, no OPEN_GAP, no timer
        assertThat(h.numKeyedStateEntries()).isEqualTo(2);
        assertThat(h.numProcessingTimeTimers()).isZero();
        assertThat(function().tracker().parked()).isZero();
        assertThat(function().tracker().openGaps()).isZero();
    }

    @Test
    void aDuplicatedOrReplayedFillIsACountedStaleNoOp() throws Exception {
        h = gate(CONFIG, null);
        send(fill("A1", 1, "BUY", "5"));
        send(fill("A1", 2, "BUY", "5"));
        send(fill("A1", 1, "BUY", "5"));
        send(fill("A1", 2, "BUY", "5"));

        assertThat(postedSequences()).containsExactly(1L, 2L);
        assertThat(side(GateState.STALE)).hasSize(2);
    }

    @Test
    void snapshotRestoreKeepsTheCurrentSequenceAndTheParkedFills() throws Exception {
        h = gate(CONFIG, null);
        send(fill("A1", 1, "BUY", "60"));
        send(fill("A1", 3, "SELL", "133"));
        OperatorSubtaskState snapshot = h.snapshot(1L, 10L);
        h.close();

        h = gate(CONFIG, snapshot);
        // the restored gauges see the parked fill before any traffic
        assertThat(function().tracker().parked()).isEqualTo(1);
        send(fill("A1", 1, "BUY", "60")); // replayed from the source: stale
        send(fill("A1", 2, "BUY", "111"));

        assertThat(postedSequences()).containsExactly(2L, 3L);
        assertThat(side(GateState.STALE)).hasSize(1);
        assertThat(h.numProcessingTimeTimers()).isZero();
    }

    @Test
    void aGapOlderThanItsSlaIsABreakAndTheAccountStaysParkedUntilTheFillArrives() throws Exception {
        h = gate(CONFIG, null);
        send(fill("A1", 2, "BUY", "1"));
        h.setProcessingTime(SLA);

        List<GapBreak> breaks = side(GateState.GAP_BREAKS);
        assertThat(breaks).hasSize(1);
        assertThat(breaks.get(0).getSourceKey()).isEqualTo("t1/A1");
        assertThat(breaks.get(0).getMissingVersion()).isEqualTo(1L);
        assertThat(posted()).isEmpty();

        send(fill("A1", 1, "BUY", "1"));
        assertThat(postedSequences()).containsExactly(1L, 2L);
    }

    @Test
    void parkedFillsAreBoundedPerAccountAndTheOverflowIsDeadLettered() throws Exception {
        h = gate(CONFIG, null);
        for (long seq = 2; seq <= 5; seq++) {
            send(fill("A1", seq, "BUY", "1"));
        }
        List<DeadLetter> dead = side(GateState.DEAD_LETTERS);
        assertThat(dead).hasSize(1);
        assertThat(dead.get(0).getReason()).isEqualTo(DeadLetterReason.PARK_OVERFLOW);
        assertThat(dead.get(0).getEvent().getVersion()).isEqualTo(5L);
        assertThat(function().tracker().parked()).isEqualTo(3);
    }

    @Test
    void fillsWithoutASequencePassUngatedAndAreCounted() throws Exception {
        var stamp =
                new OneInputStreamOperatorTestHarness<>(
                        new ProcessOperator<>(new ExecutionOrder.ToGateEvent()));
        stamp.open();
        try {
            TradeFill legacy = fill("A1", 0, "BUY", "1");
            stamp.processElement(legacy, 0L);
            stamp.processElement(fill("A1", 1, "BUY", "1"), 0L);

            assertThat(stamp.extractOutputValues())
                    .extracting(GateEvent::getVersion)
                    .containsExactly(1L);
            assertThat(stamp.getSideOutput(ExecutionOrderState.UNSEQUENCED))
                    .extracting(StreamRecord::getValue)
                    .containsExactly(legacy);
        } finally {
            stamp.close();
        }
    }

    private static final DeadLetterKey SOURCE_ENTRY =
            new DeadLetterKey("_unknown", "posting", "UNPARSEABLE_RECORD", "e1");
    private static final DeadLetterKey SECOND_ENTRY =
            new DeadLetterKey("_unknown", "posting", "UNPARSEABLE_RECORD", "e2");

    private static TradeFill replayed(TradeFill f, DeadLetterKey entry) {
        f.tagReplay(entry, 4);
        return f;
    }

    /** The fills that left the gate, unwrapped with their replay tags as the job does. */
    private List<TradeFill> unwrapped() {
        return h.extractOutputValues().stream().map(ExecutionOrder::fromGateEvent).toList();
    }

    @Test
    void aReplayedSourceFillMeetsTheAccountOrderAndKeepsItsEntryThroughTheGate() throws Exception {
        h = gate(CONFIG, null);
        send(fill("A1", 1, "BUY", "60"));
        send(fill("A1", 3, "SELL", "133")); // parked: 2 never parsed
        // the replay of 3's own source entry is a re-delivery of the parked fill: it takes its
        // place and is reported parked, not as a duplicate
        send(replayed(fill("A1", 3, "SELL", "133"), SECOND_ENTRY));
        assertThat(side(GateState.DUPLICATES)).isEmpty();
        assertThat(side(GateState.PARKED_REPLAYS))
                .singleElement()
                .satisfies(
                        p -> {
                            assertThat(p.getReplayOf()).isEqualTo(SECOND_ENTRY.ref());
                            assertThat(p.getReplayVersion()).isEqualTo(4);
                            assertThat(p.getSourceKey()).isEqualTo("t1/A1");
                            assertThat(p.getVersion()).isEqualTo(3);
                            assertThat(p.getMissingVersion()).isEqualTo(2);
                        });

        send(replayed(fill("A1", 2, "BUY", "111"), SOURCE_ENTRY));

        List<TradeFill> out = unwrapped();
        assertThat(out).extracting(TradeFill::getAccountExecSeq).containsExactly(1L, 2L, 3L);
        assertThat(out)
                .extracting(TradeFill::getReplayOf)
                .containsExactly(null, SOURCE_ENTRY.ref(), SECOND_ENTRY.ref());
        assertThat(out.get(1).getReplayReason()).isEqualTo("UNPARSEABLE_RECORD");
        assertThat(out.get(1).getReplayVersion()).isEqualTo(4);
        assertThat(out.get(1)).isEqualTo(fill("A1", 2, "BUY", "111"));
        assertThat(function().tracker().parked()).isZero();
    }

    @Test
    void aStaleReplayGoesOnToTheGuardAStaleStreamFillDoesNot() throws Exception {
        h = gate(CONFIG, null);
        send(fill("A1", 1, "BUY", "60"));
        send(fill("A1", 1, "BUY", "60"));
        send(replayed(fill("A1", 1, "BUY", "60"), SOURCE_ENTRY));
        assertThat(side(GateState.STALE)).hasSize(2);

        List<TradeFill> forwarded = new ArrayList<>();
        var staleReplays = new ExecutionOrder.StaleReplays();
        for (GateEvent e : side(GateState.STALE)) {
            staleReplays.flatMap(
                    e, new org.apache.flink.api.common.functions.util.ListCollector<>(forwarded));
        }
        assertThat(forwarded)
                .singleElement()
                .satisfies(
                        f -> {
                            assertThat(f.getReplayOf()).isEqualTo(SOURCE_ENTRY.ref());
                            assertThat(f).isEqualTo(fill("A1", 1, "BUY", "60"));
                        });
    }
}
