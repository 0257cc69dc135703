package io.streamledger.operators.ledgercheck;

import static io.streamledger.operators.ledgercheck.Facts.posting;
import static org.assertj.core.api.Assertions.assertThat;

import io.streamledger.operators.recon.BreakRecord;
import java.time.Duration;
import java.util.List;
import org.apache.flink.api.common.state.MapState;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.streaming.api.functions.KeyedProcessFunction;
import org.apache.flink.streaming.api.operators.KeyedProcessOperator;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.apache.flink.util.Collector;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** CS11 "balanced per currency once all lines arrived" and the incomplete-transaction SLA. */
class TransactionBalanceCheckTest {

    static final LedgerCheckConfig CONFIG =
            LedgerCheckConfig.of(
                    Duration.ofSeconds(10), Duration.ofSeconds(10), Duration.ofSeconds(10));

    private KeyedOneInputStreamOperatorTestHarness<String, LedgerFact, BreakRecord> h;

    static KeyedOneInputStreamOperatorTestHarness<String, LedgerFact, BreakRecord> harness()
            throws Exception {
        var h =
                new KeyedOneInputStreamOperatorTestHarness<>(
                        new KeyedProcessOperator<>(new TransactionBalanceCheck(CONFIG)),
                        LedgerFact::txnKey,
                        Types.STRING);
        h.open();
        return h;
    }

    @AfterEach
    void close() throws Exception {
        if (h != null) {
            h.close();
        }
    }

    private List<BreakRecord> breaks() {
        return h.extractOutputValues();
    }

    @Test
    void balancedTransactionInAnyOrderEmitsNothingAndLeavesOnlyAMarker() throws Exception {
        h = harness();
        h.processElement(posting("x1", 3, 3, "B", "USD", "-40.00"), 0);
        h.processElement(posting("x1", 1, 3, "A", "USD", "100.00"), 0);
        h.processElement(posting("x1", 2, 3, "C", "USD", "-60.00"), 0);
        assertThat(breaks()).isEmpty();
        // marker only, until the retention timer clears it
        h.setProcessingTime(CONFIG.doneRetentionMillis() + 1);
        assertThat(h.numKeyedStateEntries()).isZero();
        assertThat(h.numProcessingTimeTimers()).isZero();
    }

    @Test
    void unbalancedInOneCurrencyIsOneBreakWithExactSums() throws Exception {
        h = harness();
        h.processElement(posting("x2", 1, 4, "A", "USD", "100.00"), 0);
        h.processElement(posting("x2", 2, 4, "B", "USD", "-99.99"), 0);
        h.processElement(posting("x2", 3, 4, "A", "EUR", "5"), 0);
        h.processElement(posting("x2", 4, 4, "B", "EUR", "-5"), 0);
        List<BreakRecord> out = breaks();
        assertThat(out).hasSize(1);
        BreakRecord b = out.get(0);
        assertThat(b.getReason()).isEqualTo("TXN_UNBALANCED");
        assertThat(b.getBreakId()).isEqualTo("TXN_UNBALANCED:t1:x2");
        assertThat(b.getBatchId()).isEqualTo("LEDGER-CHECK-2025-11-30");
        assertThat(b.getEvidence())
                .contains("\"sum.CASH:USD\":\"0.01\"")
                .contains("\"sum.CASH:EUR\":\"0\"");
    }

    @Test
    void duplicateLineIsIgnoredAndConflictingLineBreaks() throws Exception {
        h = harness();
        h.processElement(posting("x3", 1, 3, "A", "USD", "10.0"), 0);
        h.processElement(posting("x3", 1, 3, "A", "USD", "10.00"), 0); // same amount, other scale
        assertThat(breaks()).isEmpty();
        h.processElement(posting("x3", 1, 3, "A", "USD", "11.00"), 0);
        assertThat(breaks())
                .extracting(BreakRecord::getReason)
                .containsExactly("TXN_LINE_CONFLICT");
        // decided: late lines of the same txn are dropped
        h.processElement(posting("x3", 2, 3, "B", "USD", "-10"), 0);
        assertThat(breaks()).hasSize(1);
    }

    @Test
    void incompleteAtSlaIsABreakNamingTheMissingLines() throws Exception {
        h = harness();
        h.processElement(posting("x4", 1, 3, "A", "USD", "10"), 1_000);
        h.processElement(posting("x4", 3, 3, "B", "USD", "-10"), 1_000);
        h.setProcessingTime(100 * CONFIG.txnSlaMillis()); // a lagging line: wall clock alone
        h.processWatermark(1_000 + CONFIG.txnSlaMillis() - 1);
        assertThat(breaks()).isEmpty();
        h.processWatermark(1_000 + CONFIG.txnSlaMillis());
        List<BreakRecord> out = breaks();
        assertThat(out).extracting(BreakRecord::getReason).containsExactly("TXN_INCOMPLETE");
        assertThat(out.get(0).getEvidence())
                .contains("\"lineCount\":\"3\"")
                .contains("\"linesSeen\":\"2\"")
                .contains("1=CASH:USD|10;3=CASH:USD|-10");
        h.setProcessingTime(101 * CONFIG.txnSlaMillis() + CONFIG.doneRetentionMillis());
        assertThat(h.numKeyedStateEntries()).isZero();
        assertThat(h.numProcessingTimeTimers()).isZero();
        assertThat(h.numEventTimeTimers()).isZero();
    }

    @Test
    void aLineArrivingBehindTheWatermarkIsNotIncompleteAtOnce() throws Exception {
        h = harness();
        h.processWatermark(50_000); // caught up on one shard, a backlog record of another
        h.processElement(posting("x11", 1, 2, "A", "USD", "10"), 1_000);
        h.processWatermark(50_000 + CONFIG.txnSlaMillis() - 1);
        h.processElement(posting("x11", 2, 2, "B", "USD", "-10"), 1_000);
        h.processWatermark(50_000 + 2 * CONFIG.txnSlaMillis());
        assertThat(breaks()).isEmpty();
    }

    @Test
    void aDecidedTransactionHandsItsTotalsPerAccountAndAssetToTheAuthorityCheck() throws Exception {
        h = harness();
        h.processElement(posting("x12", 1, 3, "A", "USD", "100.00"), 0);
        h.processElement(posting("x12", 2, 3, "B", "USD", "-40.00"), 0);
        h.processElement(posting("x12", 3, 3, "B", "USD", "-60.00"), 0);
        List<String> totals =
                h.getSideOutput(LedgerCheckState.TXN_TOTALS).stream()
                        .map(r -> r.getValue())
                        .map(
                                f ->
                                        f.kind
                                                + " "
                                                + f.authorityKey()
                                                + " "
                                                + f.txnId
                                                + " "
                                                + f.amount
                                                + " "
                                                + f.lines
                                                + " "
                                                + f.complete)
                        .toList();
        assertThat(totals)
                .containsExactly(
                        "TXN_TOTAL t1/A/CASH/USD x12 100.00 1, true",
                        "TXN_TOTAL t1/B/CASH/USD x12 -100.00 2,3, true");
    }

    @Test
    void withoutLineCountTheLinesSeenAtSlaAreChecked() throws Exception {
        h = harness();
        h.processElement(posting("x5", 1, 0, "A", "USD", "10"), 0);
        h.processElement(posting("x5", 2, 0, "B", "USD", "-10"), 0);
        h.processElement(posting("x6", 1, 0, "A", "USD", "10"), 0);
        h.processWatermark(CONFIG.txnSlaMillis());
        assertThat(breaks())
                .extracting(BreakRecord::getBreakId)
                .containsExactly("TXN_UNBALANCED:t1:x6");
    }

    @Test
    void snapshotAndRestoreKeepsPartialTransactionAndItsTimer() throws Exception {
        h = harness();
        h.processElement(posting("x7", 1, 2, "A", "USD", "10"), 0);
        OperatorSubtaskState snap = h.snapshot(1, 1);
        h.close();
        h = restored(snap);
        h.processElement(posting("x7", 2, 2, "B", "USD", "-9"), 0);
        assertThat(breaks()).extracting(BreakRecord::getReason).containsExactly("TXN_UNBALANCED");
        assertThat(breaks().get(0).getEvidence()).contains("\"sum.CASH:USD\":\"1\"");
    }

    /** Writes the lines as the string-typed state of older savepoints held them. */
    static final class LegacyLinesWriter extends KeyedProcessFunction<String, LedgerFact, Void> {
        @Override
        public void processElement(LedgerFact f, Context ctx, Collector<Void> out)
                throws Exception {
            MapState<Integer, String> legacy =
                    getRuntimeContext().getMapState(LedgerCheckState.LEGACY_TXN_LINES);
            legacy.put(f.line, f.assetType + ":" + f.asset + "|" + f.amount);
            ValueState<TxnProgress> progress =
                    getRuntimeContext().getState(LedgerCheckState.TXN_STATE);
            if (progress.value() == null) {
                TxnProgress p = new TxnProgress();
                p.tenant = f.tenant;
                p.txnId = f.txnId;
                p.lineCount = f.lineCount;
                p.firstEventTimeMillis = f.eventTimeMillis;
                p.timerAt = CONFIG.txnSlaMillis();
                ctx.timerService().registerProcessingTimeTimer(p.timerAt);
                progress.update(p);
            }
        }
    }

    /** A savepoint of the balance check as it was before the typed line state. */
    private static OperatorSubtaskState legacySnapshot(LedgerFact... lines) throws Exception {
        try (var writer =
                new KeyedOneInputStreamOperatorTestHarness<>(
                        new KeyedProcessOperator<>(new LegacyLinesWriter()),
                        LedgerFact::txnKey,
                        Types.STRING)) {
            writer.open();
            for (LedgerFact l : lines) {
                writer.processElement(l, 0);
            }
            return writer.snapshot(1, 1);
        }
    }

    private static KeyedOneInputStreamOperatorTestHarness<String, LedgerFact, BreakRecord> restored(
            OperatorSubtaskState snap) throws Exception {
        var h =
                new KeyedOneInputStreamOperatorTestHarness<>(
                        new KeyedProcessOperator<>(new TransactionBalanceCheck(CONFIG)),
                        LedgerFact::txnKey,
                        Types.STRING);
        h.initializeState(snap);
        h.open();
        return h;
    }

    @Test
    void linesOfTheStringTypedStateOfOlderSavepointsAreReadAndMigrated() throws Exception {
        h =
                restored(
                        legacySnapshot(
                                posting("x9", 1, 3, "A", "USD", "100.00"),
                                posting("x9", 2, 3, "C", "USD", "-60.00")));
        h.processElement(posting("x9", 1, 3, "A", "USD", "100.0"), 0); // duplicate of a legacy line
        assertThat(breaks()).isEmpty();
        h.processElement(posting("x9", 3, 3, "B", "USD", "-30.00"), 0);
        assertThat(breaks()).extracting(BreakRecord::getReason).containsExactly("TXN_UNBALANCED");
        assertThat(breaks().get(0).getEvidence())
                .contains("\"sum.CASH:USD\":\"10.00\"")
                .contains("1=CASH:USD|100.00;2=CASH:USD|-60.00;3=CASH:USD|-30.00");
        h.setProcessingTime(CONFIG.doneRetentionMillis() + CONFIG.txnSlaMillis() + 1);
        assertThat(h.numKeyedStateEntries()).isZero();
    }

    @Test
    void legacyLinesOfAKeyWithoutFurtherInputAreDrainedByItsTimer() throws Exception {
        h = restored(legacySnapshot(posting("x10", 1, 2, "A", "USD", "5")));
        h.setProcessingTime(CONFIG.txnSlaMillis());
        assertThat(breaks()).extracting(BreakRecord::getReason).containsExactly("TXN_INCOMPLETE");
        assertThat(breaks().get(0).getEvidence()).contains("1=CASH:USD|5");
    }

    @Test
    void replayGivesTheSameBreakRecord() throws Exception {
        h = harness();
        h.processElement(posting("x8", 1, 2, "A", "USD", "10"), 0);
        h.processElement(posting("x8", 2, 2, "B", "USD", "-1"), 0);
        BreakRecord first = breaks().get(0);
        h.close();
        h = harness();
        h.setProcessingTime(5_000); // a later wall clock must not change the record
        h.processElement(posting("x8", 2, 2, "B", "USD", "-1"), 0);
        h.processElement(posting("x8", 1, 2, "A", "USD", "10"), 0);
        assertThat(breaks()).containsExactly(first);
    }

    @Test
    void metricsCountChecksDuplicatesAndBreaksByReason() throws Exception {
        h = harness();
        h.processElement(posting("m1", 1, 2, "A", "USD", "10"), 0);
        h.processElement(posting("m1", 1, 2, "A", "USD", "10"), 0);
        h.processElement(posting("m1", 2, 2, "B", "USD", "-10"), 0);
        h.processElement(posting("m2", 1, 2, "A", "USD", "10"), 0);
        h.processElement(posting("m2", 2, 2, "B", "USD", "-9"), 0);
        @SuppressWarnings("unchecked")
        TransactionBalanceCheck fn =
                (TransactionBalanceCheck)
                        ((KeyedProcessOperator<String, LedgerFact, BreakRecord>) h.getOperator())
                                .getUserFunction();
        assertThat(fn.metrics().evaluatedCount()).isEqualTo(2);
        assertThat(fn.metrics().breaks(LedgerCheckReason.TXN_UNBALANCED)).isEqualTo(1);
        assertThat(fn.metrics().breaks(LedgerCheckReason.TXN_INCOMPLETE)).isZero();
    }
}
