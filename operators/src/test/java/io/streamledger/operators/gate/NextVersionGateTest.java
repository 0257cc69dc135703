package io.streamledger.operators.gate;

import static io.streamledger.operators.gate.GateTestSupport.appliedVersions;
import static io.streamledger.operators.gate.GateTestSupport.ev;
import static io.streamledger.operators.gate.GateTestSupport.gateHarness;
import static io.streamledger.operators.gate.GateTestSupport.gateOf;
import static io.streamledger.operators.gate.GateTestSupport.side;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** AP13/CS06/CS07: next version applies, stale is a no-op, gaps park, overdue gaps break. */
class NextVersionGateTest {

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

    /** Only the version cursor is left: no parked map, no gap, no timer, gauges at zero. */
    private void assertDrained(int keys) {
        assertThat(h.numKeyedStateEntries()).isEqualTo(keys);
        assertThat(h.numProcessingTimeTimers()).isZero();
        assertThat(gateOf(h).tracker().parked()).isZero();
        assertThat(gateOf(h).tracker().openGaps()).isZero();
    }

    @Test
    void nextVersionAppliesInOrder() throws Exception {
        h = gateHarness(CONFIG, null);
        for (long v = 1; v <= 3; v++) {
            h.processElement(ev("k", v), 0L);
        }
        assertThat(appliedVersions(h)).containsExactly(1L, 2L, 3L);
        assertThat(side(h, GateState.STALE)).isEmpty();
        assertThat(side(h, GateState.GAP_NOTICES)).isEmpty();
        assertDrained(1);
    }

    @Test
    void versionAtOrBelowCurrentIsACountedStaleNoOp() throws Exception {
        h = gateHarness(CONFIG, null);
        h.processElement(ev("k", 1), 0L);
        h.processElement(ev("k", 2), 0L);
        h.processElement(ev("k", 2), 0L);
        h.processElement(ev("k", 1), 0L);

        assertThat(appliedVersions(h)).containsExactly(1L, 2L);
        assertThat(side(h, GateState.STALE))
                .extracting(GateEvent::getVersion)
                .containsExactly(2L, 1L);
        assertDrained(1);
    }

    @Test
    void outOfOrderParksThenReleasesInOrder() throws Exception {
        h = gateHarness(CONFIG, null);
        h.setProcessingTime(100L);
        h.processElement(ev("k", 1), 0L);
        h.processElement(ev("k", 3), 0L);
        h.processElement(ev("k", 4), 0L);

        assertThat(appliedVersions(h)).containsExactly(1L);
        // version cursor + parked map + open gap, and one SLA timer
        assertThat(h.numKeyedStateEntries()).isEqualTo(3);
        assertThat(h.numProcessingTimeTimers()).isEqualTo(1);
        assertThat(gateOf(h).tracker().parked()).isEqualTo(2);
        assertThat(gateOf(h).tracker().openGaps()).isEqualTo(1);
        assertThat(gateOf(h).tracker().oldestGapAgeMillis(350L)).isEqualTo(250L);

        h.processElement(ev("k", 2), 0L);

        assertThat(appliedVersions(h)).containsExactly(1L, 2L, 3L, 4L);
        List<GapNotice> notices = side(h, GateState.GAP_NOTICES);
        assertThat(notices)
                .extracting(GapNotice::getStatus, GapNotice::getMissingVersion)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple(GapStatus.OPENED, 2L),
                        org.assertj.core.groups.Tuple.tuple(GapStatus.CLOSED, 2L));
        assertThat(notices.get(0).getSinceMillis()).isEqualTo(100L);
        assertThat(side(h, GateState.GAP_BREAKS)).isEmpty();
        assertDrained(1);
    }

    @Test
    void firstEventAboveOneWaitsForVersionOne() throws Exception {
        h = gateHarness(CONFIG, null);
        h.processElement(ev("k", 2), 0L);
        assertThat(appliedVersions(h)).isEmpty();
        assertThat(side(h, GateState.GAP_NOTICES))
                .extracting(GapNotice::getMissingVersion)
                .containsExactly(1L);

        h.processElement(ev("k", 1), 0L);
        assertThat(appliedVersions(h)).containsExactly(1L, 2L);
        assertDrained(1);
    }

    @Test
    void overdueGapEmitsExactlyOneBreakAndKeepsTheKeyParked() throws Exception {
        h = gateHarness(CONFIG, null);
        h.setProcessingTime(100L);
        h.processElement(ev("k", 1), 0L);
        h.processElement(ev("k", 3), 0L);

        h.setProcessingTime(100L + SLA - 1);
        assertThat(side(h, GateState.GAP_BREAKS)).isEmpty();

        h.setProcessingTime(100L + SLA);
        List<GapBreak> breaks = side(h, GateState.GAP_BREAKS);
        assertThat(breaks).hasSize(1);
        GapBreak b = breaks.get(0);
        assertThat(b.getBreakId()).isEqualTo("GAP#k#V#2");
        assertThat(b.getMissingVersion()).isEqualTo(2L);
        assertThat(b.getSinceMillis()).isEqualTo(100L);
        assertThat(b.getDetectedAtMillis()).isEqualTo(100L + SLA);
        assertThat(b.getParkedCount()).isEqualTo(1);

        // time passes, more arrives: no second break, nothing skipped, still parked
        h.setProcessingTime(100L + 10 * SLA);
        h.processElement(ev("k", 4), 0L);
        assertThat(side(h, GateState.GAP_BREAKS)).hasSize(1);
        assertThat(appliedVersions(h)).containsExactly(1L);
        assertThat(h.numProcessingTimeTimers()).isZero();
        assertThat(h.numKeyedStateEntries()).isEqualTo(3);
        assertThat(gateOf(h).tracker().parked()).isEqualTo(2);
        assertThat(gateOf(h).tracker().openGaps()).isEqualTo(1);
    }

    @Test
    void lateArrivalAfterBreakClosesTheGapAndReleases() throws Exception {
        h = gateHarness(CONFIG, null);
        h.processElement(ev("k", 1), 0L);
        h.processElement(ev("k", 3), 0L);
        h.processElement(ev("k", 4), 0L);
        h.setProcessingTime(SLA);
        assertThat(side(h, GateState.GAP_BREAKS)).hasSize(1);

        h.processElement(ev("k", 2), 0L);

        assertThat(appliedVersions(h)).containsExactly(1L, 2L, 3L, 4L);
        assertThat(side(h, GateState.GAP_BREAKS)).hasSize(1);
        assertThat(side(h, GateState.GAP_NOTICES))
                .extracting(GapNotice::getStatus)
                .containsExactly(GapStatus.OPENED, GapStatus.CLOSED);
        assertDrained(1);
    }

    @Test
    void keyStillBlockedAfterABreakBreaksOnItsNextMissingVersionAtOnce() throws Exception {
        h = gateHarness(CONFIG, null);
        h.processElement(ev("k", 1), 0L);
        h.processElement(ev("k", 3), 0L);
        h.processElement(ev("k", 5), 0L);
        h.setProcessingTime(SLA);
        h.processElement(ev("k", 2), 0L); // releases 2,3; now blocked on 4, overdue since 0

        assertThat(appliedVersions(h)).containsExactly(1L, 2L, 3L);
        assertThat(side(h, GateState.GAP_BREAKS))
                .extracting(GapBreak::getBreakId)
                .containsExactly("GAP#k#V#2", "GAP#k#V#4");
        assertThat(h.numProcessingTimeTimers()).isZero();

        h.processElement(ev("k", 4), 0L);
        assertThat(appliedVersions(h)).containsExactly(1L, 2L, 3L, 4L, 5L);
        assertDrained(1);
    }

    @Test
    void partialReleaseBeforeTheSlaKeepsTheOriginalTimer() throws Exception {
        h = gateHarness(CONFIG, null);
        h.setProcessingTime(100L);
        h.processElement(ev("k", 1), 0L);
        h.processElement(ev("k", 3), 0L);
        h.processElement(ev("k", 5), 0L);
        h.setProcessingTime(500L);
        h.processElement(ev("k", 2), 0L); // blocked on 4 now, since 100 still

        assertThat(h.numProcessingTimeTimers()).isEqualTo(1);
        assertThat(side(h, GateState.GAP_NOTICES))
                .extracting(GapNotice::getStatus, GapNotice::getMissingVersion)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple(GapStatus.OPENED, 2L),
                        org.assertj.core.groups.Tuple.tuple(GapStatus.CLOSED, 2L),
                        org.assertj.core.groups.Tuple.tuple(GapStatus.OPENED, 4L));

        h.setProcessingTime(100L + SLA);
        assertThat(side(h, GateState.GAP_BREAKS))
                .extracting(GapBreak::getBreakId, GapBreak::getSinceMillis)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("GAP#k#V#4", 100L));

        h.processElement(ev("k", 4), 0L);
        assertThat(appliedVersions(h)).containsExactly(1L, 2L, 3L, 4L, 5L);
        assertDrained(1);
    }

    @Test
    void parkOverflowDeadLettersTheEventWithItsReasonAndAcceptsALaterRedelivery() throws Exception {
        h = gateHarness(CONFIG, null); // max 3 parked per key
        h.processElement(ev("k", 1), 0L);
        for (long v = 3; v <= 6; v++) {
            h.processElement(ev("k", v), 0L);
        }

        List<DeadLetter> dead = side(h, GateState.DEAD_LETTERS);
        assertThat(dead).hasSize(1);
        assertThat(dead.get(0).getReason()).isEqualTo(DeadLetterReason.PARK_OVERFLOW);
        assertThat(dead.get(0).getEvent().getVersion()).isEqualTo(6L);
        assertThat(dead.get(0).getDetail()).contains("max 3").contains("version 2");
        assertThat(gateOf(h).tracker().parked()).isEqualTo(3);

        h.processElement(ev("k", 2), 0L);
        assertThat(appliedVersions(h)).containsExactly(1L, 2L, 3L, 4L, 5L);
        // the dead-lettered event is not remembered anywhere: its re-delivery applies
        h.processElement(ev("k", 6), 0L);
        assertThat(appliedVersions(h)).containsExactly(1L, 2L, 3L, 4L, 5L, 6L);
        assertDrained(1);
    }

    @Test
    void redeliveredParkedEventIsADuplicateAndAnotherIdAtThatVersionIsAConflict() throws Exception {
        h = gateHarness(CONFIG, null);
        h.processElement(ev("k", 1), 0L);
        h.processElement(ev("k", 3), 0L);
        h.processElement(ev("k", 3), 0L);
        h.processElement(ev("k", 3, "other-id"), 0L);

        assertThat(side(h, GateState.DUPLICATES))
                .extracting(GateEvent::getEventId)
                .containsExactly("k-e3");
        List<DeadLetter> dead = side(h, GateState.DEAD_LETTERS);
        assertThat(dead)
                .extracting(DeadLetter::getReason)
                .containsExactly(DeadLetterReason.VERSION_CONFLICT);
        assertThat(dead.get(0).getDetail()).contains("k-e3");
        assertThat(gateOf(h).tracker().parked()).isEqualTo(1);

        h.processElement(ev("k", 2), 0L);
        assertThat(h.extractOutputValues())
                .extracting(GateEvent::getEventId)
                .containsExactly("k-e1", "k-e2", "k-e3");
        assertDrained(1);
    }

    @Test
    void aGapOnOneKeyNeverBlocksAnother() throws Exception {
        h = gateHarness(CONFIG, null);
        h.processElement(ev("a", 1), 0L);
        h.processElement(ev("a", 3), 0L);
        h.processElement(ev("b", 1), 0L);
        h.processElement(ev("b", 2), 0L);

        assertThat(h.extractOutputValues())
                .extracting(GateEvent::getSourceKey, GateEvent::getVersion)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple("a", 1L),
                        org.assertj.core.groups.Tuple.tuple("b", 1L),
                        org.assertj.core.groups.Tuple.tuple("b", 2L));
        assertThat(gateOf(h).tracker().openGaps()).isEqualTo(1);
        h.processElement(ev("a", 2), 0L);
        assertDrained(2);
    }

    @Test
    void snapshotRestoreKeepsParkedEventsTheSlaTimerAndTheGauges() throws Exception {
        h = gateHarness(CONFIG, null);
        h.setProcessingTime(100L);
        h.processElement(ev("k", 1), 0L);
        h.processElement(ev("k", 3), 0L);
        h.processElement(ev("k", 4), 0L);
        h.processElement(ev("other", 1), 0L);
        OperatorSubtaskState snapshot = h.snapshot(1L, 100L);
        h.close();

        h = gateHarness(CONFIG, snapshot);
        // gauges rebuilt from keyed state, not zero until the key is touched again
        assertThat(gateOf(h).tracker().parked()).isEqualTo(2);
        assertThat(gateOf(h).tracker().openGaps()).isEqualTo(1);
        // and the blocked-key set, which from now on decides whether OPEN_GAP is read
        assertThat(gateOf(h).blockedKeys().isComplete()).isTrue();
        assertThat(gateOf(h).blockedKeys().mayBeBlocked("k")).isTrue();
        assertThat(gateOf(h).blockedKeys().mayBeBlocked("other")).isFalse();
        assertThat(h.numProcessingTimeTimers()).isEqualTo(1);
        assertThat(h.numKeyedStateEntries()).isEqualTo(4);

        h.setProcessingTime(100L + SLA);
        assertThat(side(h, GateState.GAP_BREAKS))
                .extracting(GapBreak::getBreakId)
                .containsExactly("GAP#k#V#2");

        h.processElement(ev("k", 2), 0L);
        h.processElement(ev("k", 4), 0L);
        h.processElement(ev("other", 1), 0L);
        assertThat(appliedVersions(h)).containsExactly(2L, 3L, 4L);
        assertThat(side(h, GateState.STALE))
                .extracting(GateEvent::getSourceKey, GateEvent::getVersion)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple("k", 4L),
                        org.assertj.core.groups.Tuple.tuple("other", 1L));
        assertDrained(2);
    }

    @Test
    void replayFromASnapshotTakenBeforeTheBreakReEmitsTheSameBreakId() throws Exception {
        h = gateHarness(CONFIG, null);
        h.processElement(ev("k", 1), 0L);
        h.processElement(ev("k", 3), 0L);
        OperatorSubtaskState beforeBreak = h.snapshot(1L, 0L);
        h.setProcessingTime(SLA);
        String first = side(h, GateState.GAP_BREAKS).get(0).getBreakId();
        h.close();

        h = gateHarness(CONFIG, beforeBreak);
        h.setProcessingTime(SLA + 5);
        assertThat(side(h, GateState.GAP_BREAKS))
                .extracting(GapBreak::getBreakId)
                .containsExactly(first);
    }

    @Test
    void restoreWithALongerSlaStillDeletesTheTimerOfTheOriginalGap() throws Exception {
        h = gateHarness(CONFIG, null);
        h.processElement(ev("k", 1), 0L);
        h.processElement(ev("k", 3), 0L);
        OperatorSubtaskState snapshot = h.snapshot(1L, 0L);
        h.close();

        h = gateHarness(CONFIG.withGapSla(Duration.ofMillis(50 * SLA)), snapshot);
        h.processElement(ev("k", 2), 0L);
        assertThat(appliedVersions(h)).containsExactly(2L, 3L);
        assertDrained(1);
    }

    @Test
    void rescalingFromOneToTwoSubtasksSplitsParkedKeysAndTheirGauges() throws Exception {
        int maxParallelism = 128;
        int keys = 40;
        h = GateTestSupport.gateSubtask(CONFIG, maxParallelism, 1, 0, null);
        for (int k = 0; k < keys; k++) {
            h.processElement(ev("key-" + k, 1), 0L);
            h.processElement(ev("key-" + k, 3), 0L);
        }
        OperatorSubtaskState snapshot = h.snapshot(1L, 0L);
        h.close();
        h = null;

        long parked = 0;
        int gaps = 0;
        int timers = 0;
        for (int subtask = 0; subtask < 2; subtask++) {
            OperatorSubtaskState part =
                    org.apache.flink.streaming.util.AbstractStreamOperatorTestHarness
                            .repartitionOperatorState(snapshot, maxParallelism, 1, 2, subtask);
            try (var s = GateTestSupport.gateSubtask(CONFIG, maxParallelism, 2, subtask, part)) {
                ParkingTracker t = gateOf(s).tracker();
                assertThat(t.openGaps()).as("subtask %d holds some gaps", subtask).isPositive();
                assertThat(gateOf(s).blockedKeys().size()).isEqualTo(t.openGaps());
                parked += t.parked();
                gaps += t.openGaps();
                timers += s.numProcessingTimeTimers();
            }
        }
        assertThat(parked).isEqualTo(keys);
        assertThat(gaps).isEqualTo(keys);
        assertThat(timers).isEqualTo(keys);
    }

    @Test
    void blockedKeysFollowEveryGapOpenedAndClosed() throws Exception {
        h = gateHarness(CONFIG, null);
        BlockedKeys blocked = gateOf(h).blockedKeys();
        assertThat(blocked.isComplete()).isTrue();
        h.processElement(ev("a", 1), 0L);
        h.processElement(ev("b", 2), 0L);
        h.processElement(ev("c", 3), 0L);
        assertThat(blocked.size()).isEqualTo(2);
        assertThat(blocked.mayBeBlocked("a")).isFalse();
        assertThat(blocked.mayBeBlocked("b")).isTrue();

        h.processElement(ev("b", 1), 0L); // closes b's gap
        h.processElement(ev("c", 1), 0L); // c still waits for 2: blocked on a new version
        assertThat(blocked.mayBeBlocked("b")).isFalse();
        assertThat(blocked.mayBeBlocked("c")).isTrue();
        // a blocked key's next event still finds its gap: c releases 2, 3 and unblocks
        h.processElement(ev("c", 2), 0L);
        assertThat(blocked.size()).isZero();
        assertThat(appliedVersions(h)).containsExactly(1L, 1L, 2L, 1L, 2L, 3L);
        assertDrained(3);
    }

    @Test
    void underAPlainKeyedOperatorTheGateStillReadsARestoredGap() throws Exception {
        h = gateHarness(CONFIG, null);
        h.processElement(ev("k", 1), 0L);
        h.processElement(ev("k", 3), 0L);
        OperatorSubtaskState snapshot = h.snapshot(1L, 0L);
        h.close();

        // nothing rebuilds the blocked-key set here, so the gate must not trust it: were the
        // restored gap skipped, the copy below would overwrite the parked event and open a
        // second gap with a second timer
        NextVersionGate gate = new NextVersionGate(CONFIG);
        h =
                new KeyedOneInputStreamOperatorTestHarness<>(
                        new org.apache.flink.streaming.api.operators.KeyedProcessOperator<>(gate),
                        new SourceKeySelector(),
                        GateState.SOURCE_KEY);
        h.getExecutionConfig().disableGenericTypes();
        h.setup(
                GateState.GATE_EVENT.createSerializer(
                        h.getExecutionConfig().getSerializerConfig()));
        h.initializeState(snapshot);
        h.open();
        assertThat(gate.blockedKeys().isComplete()).isFalse();

        h.processElement(ev("k", 3), 0L);
        h.processElement(ev("k", 3, "another-id"), 0L);
        assertThat(side(h, GateState.DUPLICATES))
                .extracting(GateEvent::getVersion)
                .containsExactly(3L);
        assertThat(side(h, GateState.DEAD_LETTERS))
                .extracting(DeadLetter::getReason)
                .containsExactly(DeadLetterReason.VERSION_CONFLICT);
        assertThat(side(h, GateState.GAP_NOTICES)).isEmpty();
        assertThat(h.numProcessingTimeTimers()).isEqualTo(1);
    }

    private static GateEvent replay(GateEvent e, String entry) {
        e.setReplayOf(entry);
        e.setReplayVersion(2);
        return e;
    }

    @Test
    void aParkedReplayIsReportedWithTheMissingVersionAndReleasedWithItsTag() throws Exception {
        h = gateHarness(CONFIG, null);
        h.processElement(ev("k", 1), 0L);
        h.processElement(replay(ev("k", 4), "pk\nsk-a"), 0L);
        h.processElement(ev("k", 3), 0L);
        // a second request of another entry for the parked replay changes nothing
        h.processElement(replay(ev("k", 4), "pk\nsk-b"), 0L);

        assertThat(side(h, GateState.PARKED_REPLAYS))
                .singleElement()
                .satisfies(
                        p -> {
                            assertThat(p.getReplayOf()).isEqualTo("pk\nsk-a");
                            assertThat(p.getVersion()).isEqualTo(4);
                            assertThat(p.getMissingVersion()).isEqualTo(2);
                        });
        assertThat(side(h, GateState.DUPLICATES))
                .extracting(GateEvent::getReplayOf)
                .containsExactly("pk\nsk-b");

        h.processElement(ev("k", 2), 0L);
        assertThat(appliedVersions(h)).containsExactly(1L, 2L, 3L, 4L);
        assertThat(h.extractOutputValues().get(3).getReplayOf()).isEqualTo("pk\nsk-a");
        assertThat(h.extractOutputValues().get(2).isReplay()).isFalse();
        assertDrained(1);
    }
}
