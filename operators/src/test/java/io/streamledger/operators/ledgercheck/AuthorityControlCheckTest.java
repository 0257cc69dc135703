package io.streamledger.operators.ledgercheck;

import static io.streamledger.operators.ledgercheck.Facts.authority;
import static io.streamledger.operators.ledgercheck.Facts.total;
import static org.assertj.core.api.Assertions.assertThat;

import io.streamledger.model.change.Operation;
import io.streamledger.operators.recon.BreakRecord;
import java.time.Duration;
import java.util.List;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.streaming.api.operators.KeyedProcessOperator;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** AP12: continuous versions, control total per version, available = posted − reserved >= 0. */
class AuthorityControlCheckTest {

    static final long SLA = 10_000;
    static final LedgerCheckConfig CONFIG =
            LedgerCheckConfig.of(
                    Duration.ofMillis(SLA), Duration.ofMillis(SLA), Duration.ofMillis(SLA));

    private KeyedOneInputStreamOperatorTestHarness<String, LedgerFact, BreakRecord> h;

    private static KeyedOneInputStreamOperatorTestHarness<String, LedgerFact, BreakRecord> open(
            OperatorSubtaskState restore) throws Exception {
        var h =
                new KeyedOneInputStreamOperatorTestHarness<>(
                        new KeyedProcessOperator<>(new AuthorityControlCheck(CONFIG)),
                        LedgerFact::authorityKey,
                        Types.STRING);
        if (restore != null) {
            h.initializeState(restore);
        }
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

    private List<String> reasons() {
        return breaks().stream().map(BreakRecord::getReason).toList();
    }

    @Test
    void matchingPostingsAndVersionsInEitherOrderAreClean() throws Exception {
        h = open(null);
        // version 1 before its posting, version 2 after its posting
        h.processElement(authority("A", "USD", 0, 1, "0", "100.00", "0", "100.00", "x1"), 0);
        h.processElement(total("x1", "A", "USD", "100.00", "1,"), 0);
        h.processElement(total("x2", "A", "USD", "-30.5", "2,"), 0);
        h.processElement(authority("A", "USD", 1, 2, "100.00", "69.50", "10", "59.50", "x2"), 0);
        h.processWatermark(SLA);
        assertThat(breaks()).isEmpty();
        // only the version cursor is left
        assertThat(h.numKeyedStateEntries()).isEqualTo(1);
        assertThat(h.numEventTimeTimers()).isZero();
    }

    @Test
    void postedDeltaDifferentFromPostingsIsAControlTotalBreak() throws Exception {
        h = open(null);
        h.processElement(total("x1", "A", "USD", "100.00", "1,"), 0);
        assertThat(breaks()).isEmpty();
        // the version and the complete transaction are both in: decided at once, no clock involved
        h.processElement(authority("A", "USD", 0, 1, "0", "90.00", "0", "90.00", "x1"), 0);
        assertThat(reasons()).containsExactly("CONTROL_TOTAL_MISMATCH");
        BreakRecord b = breaks().get(0);
        assertThat(b.getBreakId()).isEqualTo("CONTROL_TOTAL_MISMATCH:t1/A/CASH/USD:x1");
        assertThat(b.getEvidence())
                .contains("\"expectedPostedDelta\":\"100.00\"")
                .contains("\"actualPostedDelta\":\"90.00\"")
                .contains("\"versions\":\"1\"");
    }

    @Test
    void postingsNoVersionAccountedForBreakAtSla() throws Exception {
        h = open(null);
        h.processElement(total("x9", "A", "USD", "5", "1,"), 0);
        h.processElement(total("x9", "A", "USD", "5", "1,"), 0); // duplicate delivery
        h.setProcessingTime(100 * SLA); // the wall clock alone decides nothing
        h.processWatermark(SLA - 1);
        assertThat(breaks()).isEmpty();
        h.processWatermark(SLA);
        assertThat(reasons()).containsExactly("POSTING_WITHOUT_AUTHORITY");
        assertThat(breaks().get(0).getEvidence()).contains("\"postingSum\":\"5\"");
    }

    @Test
    void aSideArrivingBehindTheWatermarkGetsItsLatenessFromTheWatermark() throws Exception {
        h = open(null);
        h.processWatermark(5 * SLA); // a caught-up stream, then an old record of a lagging shard
        h.processElement(total("x7", "A", "USD", "5", "1,"), 0);
        h.processWatermark(6 * SLA - 1);
        assertThat(breaks()).isEmpty();
        h.processElement(authority("A", "USD", 0, 1, "0", "5", "0", "5", "x7"), 0);
        h.processWatermark(7 * SLA);
        assertThat(breaks()).isEmpty();
    }

    @Test
    void aMissingVersionWaitsForTheWatermarkNotTheWallClock() throws Exception {
        h = open(null);
        h.processElement(authority("A", "USD", 0, 1, "0", "0", "0", "0", "r1"), 1_000);
        h.processElement(authority("A", "USD", 2, 3, "0", "0", "0", "0", "r3"), 2_000);
        h.setProcessingTime(100 * SLA);
        h.processWatermark(2_000 + SLA - 1);
        assertThat(breaks()).isEmpty();
        h.processElement(authority("A", "USD", 1, 2, "0", "0", "0", "0", "r2"), 1_500);
        h.processWatermark(3 * SLA);
        assertThat(breaks()).isEmpty();
        assertThat(h.numEventTimeTimers()).isZero();
    }

    @Test
    void versionSkipInOneChangeIsABreak() throws Exception {
        h = open(null);
        h.processElement(authority("A", "USD", 0, 1, "0", "0", "0", "0", "r1"), 0);
        h.processElement(authority("A", "USD", 1, 3, "0", "0", "0", "0", "r2"), 0);
        assertThat(reasons()).containsExactly("AUTHORITY_VERSION_SKIP");
        assertThat(breaks().get(0).getBreakId())
                .isEqualTo("AUTHORITY_VERSION_SKIP:t1/A/CASH/USD:V:1:3");
    }

    @Test
    void outOfOrderVersionsParkAndDrainWithoutBreak() throws Exception {
        h = open(null);
        h.processElement(authority("A", "USD", 0, 1, "0", "0", "0", "0", "r1"), 0);
        h.processElement(authority("A", "USD", 2, 3, "0", "0", "0", "0", "r3"), 0);
        h.processElement(authority("A", "USD", 1, 2, "0", "0", "0", "0", "r2"), 0);
        h.processElement(authority("A", "USD", 1, 2, "0", "0", "0", "0", "r2"), 0); // duplicate
        h.processWatermark(SLA);
        assertThat(breaks()).isEmpty();
        assertThat(h.numKeyedStateEntries()).isEqualTo(1);
        assertThat(h.numEventTimeTimers()).isZero();
    }

    @Test
    void missingVersionPastSlaIsOneGapBreak() throws Exception {
        h = open(null);
        h.processElement(authority("A", "USD", 0, 1, "0", "0", "0", "0", "r1"), 0);
        h.processElement(authority("A", "USD", 2, 3, "0", "0", "0", "0", "r3"), 0);
        h.processElement(authority("A", "USD", 3, 4, "0", "0", "0", "0", "r4"), 0);
        h.processWatermark(SLA);
        assertThat(reasons()).containsExactly("AUTHORITY_VERSION_GAP");
        assertThat(breaks().get(0).getBreakId())
                .isEqualTo("AUTHORITY_VERSION_GAP:t1/A/CASH/USD:V:2");
        // the cursor moved past the gap: version 5 applies in order
        h.processElement(authority("A", "USD", 4, 5, "0", "0", "0", "0", "r5"), 0);
        h.processWatermark(3 * SLA);
        assertThat(breaks()).hasSize(1);
        assertThat(h.numKeyedStateEntries()).isEqualTo(1);
        assertThat(h.numEventTimeTimers()).isZero();
    }

    @Test
    void availableMustEqualPostedMinusReservedAndNotBeNegative() throws Exception {
        h = open(null);
        h.processElement(authority("A", "USD", 0, 1, "0", "0", "0", "1.00", "r1"), 0);
        h.processElement(authority("A", "USD", 1, 2, "0", "0", "5", "-5", "r2"), 0);
        h.processElement(authority("HOUSE-FEES", "USD", 0, 1, "0", "0", "5", "-5", "r3"), 0);
        assertThat(reasons()).containsExactly("AVAILABLE_MISMATCH", "NEGATIVE_AVAILABLE");
        assertThat(breaks().get(0).getEvidence())
                .contains("\"expectedAvailable\":\"0\"")
                .contains("\"actualAvailable\":\"1.00\"");
        assertThat(breaks().get(1).getBreakId()).isEqualTo("NEGATIVE_AVAILABLE:t1/A/CASH/USD:V:2");
    }

    @Test
    void removedAuthorityIsABreak() throws Exception {
        h = open(null);
        LedgerFact gone = authority("A", "USD", 3, 3, null, null, null, null, null);
        gone.operation = Operation.REMOVE;
        h.processElement(gone, 0);
        assertThat(reasons()).containsExactly("AUTHORITY_REMOVED");
    }

    @Test
    void snapshotRestoreKeepsParkedVersionsAndPendingControl() throws Exception {
        h = open(null);
        h.processElement(authority("A", "USD", 0, 1, "0", "7", "0", "7", "x1"), 0);
        h.processElement(authority("A", "USD", 2, 3, "7", "7", "0", "7", "r3"), 0);
        OperatorSubtaskState snap = h.snapshot(1, 1);
        h.close();
        h = open(snap);
        h.processElement(total("x1", "A", "USD", "7", "1,"), 0);
        h.processElement(authority("A", "USD", 1, 2, "7", "7", "0", "7", "r2"), 0);
        h.processWatermark(2 * SLA);
        assertThat(breaks()).isEmpty();
        assertThat(h.numKeyedStateEntries()).isEqualTo(1);
        assertThat(h.numEventTimeTimers()).isZero();
    }
}
