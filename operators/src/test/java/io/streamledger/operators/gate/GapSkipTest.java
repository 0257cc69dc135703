package io.streamledger.operators.gate;

import static io.streamledger.operators.gate.GateTestSupport.appliedVersions;
import static io.streamledger.operators.gate.GateTestSupport.ev;
import static io.streamledger.operators.gate.GateTestSupport.gateHarness;
import static io.streamledger.operators.gate.GateTestSupport.gateOf;
import static io.streamledger.operators.gate.GateTestSupport.side;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.groups.Tuple.tuple;

import java.time.Duration;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * CS07: a parked key is released only by its missing version or an audited skip; every gap
 * transition (and only those) reaches the parked-gap record stream.
 */
class GapSkipTest {

    private static final long SLA = 1_000L;
    private static final GateConfig CONFIG =
            GateConfig.of(Duration.ofHours(1), Duration.ofMillis(SLA), 10);

    private KeyedOneInputStreamOperatorTestHarness<String, GateEvent, GateEvent> h;

    @AfterEach
    void close() throws Exception {
        if (h != null) {
            h.close();
        }
    }

    private static GateEvent skip(String key, long version) {
        return GapSkip.request(key, version, "gap-id", "ops:alice");
    }

    @Test
    void happyPathWritesNoParkedGapRecord() throws Exception {
        h = gateHarness(CONFIG, null);
        for (long v = 1; v <= 5; v++) {
            h.processElement(ev("k", v), 0L);
        }
        assertThat(side(h, GateState.PARKED_GAPS)).isEmpty();
    }

    @Test
    void gapOpenAndArrivalAreRecordedWithTheParkedVersions() throws Exception {
        h = gateHarness(CONFIG, null);
        h.setProcessingTime(100L);
        h.processElement(ev("k", 1), 0L);
        h.processElement(ev("k", 3), 0L);
        h.processElement(ev("k", 4), 0L);
        h.setProcessingTime(300L);
        h.processElement(ev("k", 2), 0L);

        assertThat(side(h, GateState.PARKED_GAPS))
                .extracting(
                        ParkedGap::getChange,
                        ParkedGap::getMissingVersion,
                        ParkedGap::getParkedCount,
                        ParkedGap::getSinceMillis,
                        ParkedGap::getSlaDeadlineMillis)
                .containsExactly(
                        tuple(ParkedGapChange.OPENED, 2L, 1, 100L, 100L + SLA),
                        tuple(ParkedGapChange.PARKED, 2L, 2, 100L, 100L + SLA),
                        tuple(ParkedGapChange.ARRIVED, 2L, 2, 100L, 100L + SLA));
        assertThat(side(h, GateState.PARKED_GAPS).get(0).getParkedVersions()).containsExactly(3L);
        assertThat(side(h, GateState.PARKED_GAPS).get(1).getParkedVersions()).containsExactly(4L);
    }

    @Test
    void overdueGapRefreshesItsRecordWithCountAndVersions() throws Exception {
        h = gateHarness(CONFIG, null);
        h.processElement(ev("k", 1), 0L);
        h.processElement(ev("k", 4), 0L);
        h.processElement(ev("k", 3), 0L);
        h.setProcessingTime(SLA);

        ParkedGap overdue = side(h, GateState.PARKED_GAPS).get(2);
        assertThat(overdue.getChange()).isEqualTo(ParkedGapChange.OVERDUE);
        assertThat(overdue.isOverdue()).isTrue();
        assertThat(overdue.getParkedCount()).isEqualTo(2);
        assertThat(overdue.getParkedVersions()).containsExactly(3L, 4L);
    }

    @Test
    void skipOfTheMissingVersionReleasesTheParkedOnesInOrder() throws Exception {
        h = gateHarness(CONFIG, null);
        h.processElement(ev("k", 1), 0L);
        h.processElement(ev("k", 4), 0L);
        h.processElement(ev("k", 3), 0L);
        assertThat(appliedVersions(h)).containsExactly(1L);

        h.processElement(skip("k", 2), 0L);

        assertThat(appliedVersions(h)).containsExactly(1L, 3L, 4L);
        ParkedGap skipped = side(h, GateState.PARKED_GAPS).get(2);
        assertThat(skipped.getChange()).isEqualTo(ParkedGapChange.SKIPPED);
        assertThat(skipped.getMissingVersion()).isEqualTo(2L);
        assertThat(skipped.getActor()).isEqualTo("ops:alice");
        assertThat(skipped.getParkedVersions()).containsExactly(3L, 4L);
        assertThat(gateOf(h).tracker().openGaps()).isZero();
        assertThat(gateOf(h).tracker().parked()).isZero();
        assertThat(h.numProcessingTimeTimers()).isZero();
        // the version cursor is all that is left; version 5 is next
        assertThat(h.numKeyedStateEntries()).isEqualTo(1);
        h.processElement(ev("k", 5), 0L);
        assertThat(appliedVersions(h)).containsExactly(1L, 3L, 4L, 5L);
        // a late copy of the skipped version is stale, never applied
        h.processElement(ev("k", 2), 0L);
        assertThat(side(h, GateState.STALE)).extracting(GateEvent::getVersion).containsExactly(2L);
    }

    @Test
    void skipWhileStillBlockedMovesTheGapToTheNextMissingVersion() throws Exception {
        h = gateHarness(CONFIG, null);
        h.processElement(ev("k", 1), 0L);
        h.processElement(ev("k", 5), 0L);
        h.processElement(ev("k", 3), 0L);

        h.processElement(skip("k", 2), 0L);

        assertThat(appliedVersions(h)).containsExactly(1L, 3L);
        assertThat(side(h, GateState.PARKED_GAPS))
                .extracting(ParkedGap::getChange, ParkedGap::getMissingVersion)
                .containsExactly(
                        tuple(ParkedGapChange.OPENED, 2L),
                        tuple(ParkedGapChange.PARKED, 2L),
                        tuple(ParkedGapChange.SKIPPED, 2L),
                        tuple(ParkedGapChange.OPENED, 4L));
        assertThat(gateOf(h).tracker().openGaps()).isEqualTo(1);
    }

    @Test
    void skipOfAVersionThatArrivedMeanwhileIsACountedNoOp() throws Exception {
        h = gateHarness(CONFIG, null);
        h.processElement(ev("k", 1), 0L);
        h.processElement(ev("k", 3), 0L);
        h.processElement(ev("k", 2), 0L);

        h.processElement(skip("k", 2), 0L);

        assertThat(appliedVersions(h)).containsExactly(1L, 2L, 3L);
        assertThat(side(h, GateState.PARKED_GAPS))
                .extracting(ParkedGap::getChange)
                .containsExactly(
                        ParkedGapChange.OPENED, ParkedGapChange.ARRIVED, ParkedGapChange.SKIP_NOOP);
        assertThat(side(h, GateState.STALE)).isEmpty();
    }

    @Test
    void skipOfAVersionTheKeyDoesNotWaitForIsRefusedAndChangesNothing() throws Exception {
        h = gateHarness(CONFIG, null);
        h.processElement(ev("k", 1), 0L);
        h.processElement(ev("k", 4), 0L);

        h.processElement(skip("k", 3), 0L);
        h.processElement(skip("other", 1), 0L);

        assertThat(appliedVersions(h)).containsExactly(1L);
        assertThat(side(h, GateState.PARKED_GAPS))
                .extracting(ParkedGap::getChange)
                .containsExactly(
                        ParkedGapChange.OPENED,
                        ParkedGapChange.SKIP_REFUSED,
                        ParkedGapChange.SKIP_REFUSED);
        assertThat(gateOf(h).tracker().openGaps()).isEqualTo(1);
        // never skipped without the request: past the SLA the key is still parked
        h.setProcessingTime(10 * SLA);
        assertThat(appliedVersions(h)).containsExactly(1L);
        assertThat(side(h, GateState.GAP_BREAKS)).hasSize(1);
    }

    @Test
    void skipAfterRestoreReleasesTheRestoredParkedEvents() throws Exception {
        h = gateHarness(CONFIG, null);
        h.processElement(ev("k", 1), 0L);
        h.processElement(ev("k", 3), 0L);
        OperatorSubtaskState snapshot = h.snapshot(1L, 0L);
        h.close();

        h = gateHarness(CONFIG, snapshot);
        h.processElement(skip("k", 2), 0L);

        assertThat(appliedVersions(h)).containsExactly(3L);
        assertThat(side(h, GateState.PARKED_GAPS))
                .extracting(ParkedGap::getChange)
                .containsExactly(ParkedGapChange.SKIPPED);
        assertThat(gateOf(h).tracker().openGaps()).isZero();
    }
}
