package io.streamledger.operators.gate;

import static io.streamledger.operators.gate.GateTestSupport.ev;
import static io.streamledger.operators.gate.GateTestSupport.inboxHarness;
import static io.streamledger.operators.gate.GateTestSupport.side;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** AP09: an eventId passes once per key within the dedupe horizon; receipts expire after it. */
class InboxDedupeTest {

    private static final long HORIZON = 1_000L;
    private static final GateConfig CONFIG =
            GateConfig.of(Duration.ofMillis(HORIZON), Duration.ofMinutes(1), 10);

    private KeyedOneInputStreamOperatorTestHarness<String, GateEvent, GateEvent> h;

    @AfterEach
    void close() throws Exception {
        if (h != null) {
            h.close();
        }
    }

    @Test
    void firstSightingPassesAndTheSameIdAgainIsACountedDuplicate() throws Exception {
        h = inboxHarness(CONFIG, null);
        h.processElement(ev("k", 1, "fill-1"), 0L);
        // the same business event re-emitted under a later version: identity says duplicate
        h.processElement(ev("k", 2, "fill-1"), 0L);
        h.processElement(ev("k", 3, "fill-2"), 0L);

        assertThat(h.extractOutputValues())
                .extracting(GateEvent::getEventId)
                .containsExactly("fill-1", "fill-2");
        assertThat(side(h, GateState.DUPLICATES))
                .extracting(GateEvent::getVersion)
                .containsExactly(2L);
        // receipt map + purge-at for the key, one purge timer
        assertThat(h.numKeyedStateEntries()).isEqualTo(2);
        assertThat(h.numProcessingTimeTimers()).isEqualTo(1);
        h.setProcessingTime(HORIZON);
        assertThat(h.numKeyedStateEntries()).isZero();
        assertThat(h.numProcessingTimeTimers()).isZero();
    }

    @Test
    void theSameIdOnAnotherKeyIsNotADuplicate() throws Exception {
        h = inboxHarness(CONFIG, null);
        h.processElement(ev("a", 1, "same"), 0L);
        h.processElement(ev("b", 1, "same"), 0L);
        assertThat(h.extractOutputValues()).hasSize(2);
        assertThat(side(h, GateState.DUPLICATES)).isEmpty();
    }

    @Test
    void aReceiptOlderThanTheHorizonNoLongerCountsEvenBeforeItIsPurged() throws Exception {
        h = inboxHarness(CONFIG, null);
        h.setProcessingTime(0L);
        h.processElement(ev("k", 1, "fill-1"), 0L);
        assertThat(h.numProcessingTimeTimers()).isEqualTo(1);

        h.setProcessingTime(HORIZON - 1);
        h.processElement(ev("k", 2, "fill-1"), 0L);
        assertThat(side(h, GateState.DUPLICATES)).hasSize(1);

        // read at the horizon, before the purge timer has run: the old receipt is ignored
        h.getProcessingTimeService().setCurrentTime(HORIZON);
        h.processElement(ev("k", 3, "fill-1"), 0L);
        assertThat(side(h, GateState.DUPLICATES)).hasSize(1);
        assertThat(h.extractOutputValues())
                .extracting(GateEvent::getVersion)
                .containsExactly(1L, 3L);
    }

    @Test
    void thePurgeTimerRemovesExpiredReceiptsAndFinallyAllStateAndTimers() throws Exception {
        h = inboxHarness(CONFIG, null);
        h.setProcessingTime(0L);
        h.processElement(ev("k", 1, "fill-1"), 0L);
        h.setProcessingTime(600L);
        h.processElement(ev("k", 2, "fill-2"), 0L);
        h.processElement(ev("quiet", 1, "fill-q"), 0L);
        // receipt map + purge-at per key, one timer per key
        assertThat(h.numKeyedStateEntries()).isEqualTo(4);
        assertThat(h.numProcessingTimeTimers()).isEqualTo(2);

        h.setProcessingTime(HORIZON); // k: fill-1 expires, fill-2 stays; next purge at 1600
        assertThat(h.numKeyedStateEntries()).isEqualTo(4);
        assertThat(h.numProcessingTimeTimers()).isEqualTo(2);
        h.processElement(ev("k", 3, "fill-1"), 0L);
        assertThat(h.extractOutputValues())
                .extracting(GateEvent::getEventId)
                .containsExactly("fill-1", "fill-2", "fill-q", "fill-1");

        h.setProcessingTime(600L + HORIZON); // quiet key and fill-2 gone
        assertThat(h.numKeyedStateEntries()).isEqualTo(2);
        h.setProcessingTime(10 * HORIZON);
        assertThat(h.numKeyedStateEntries()).isZero();
        assertThat(h.numProcessingTimeTimers()).isZero();
        assertThat(side(h, GateState.DUPLICATES)).isEmpty();
    }

    @Test
    void purgesOfOneKeyAreAtLeastASliceOfTheHorizonApart() throws Exception {
        h = inboxHarness(CONFIG, null);
        long slice = HORIZON / InboxDedupe.PURGE_SLICES;
        h.setProcessingTime(0L);
        h.processElement(ev("k", 1, "fill-1"), 0L);
        h.setProcessingTime(100L);
        h.processElement(ev("k", 2, "fill-2"), 0L);

        // the purge at HORIZON drops fill-1; fill-2 expires at 1,100 but waits for HORIZON+slice
        h.setProcessingTime(HORIZON + slice - 1);
        assertThat(h.numKeyedStateEntries()).isEqualTo(2);
        assertThat(h.numProcessingTimeTimers()).isEqualTo(1);
        h.setProcessingTime(HORIZON + slice);
        assertThat(h.numKeyedStateEntries()).isZero();
        assertThat(h.numProcessingTimeTimers()).isZero();
    }

    @Test
    void snapshotRestoreKeepsLiveReceiptsAndThePurgeTimer() throws Exception {
        h = inboxHarness(CONFIG, null);
        h.setProcessingTime(0L);
        h.processElement(ev("k", 1, "fill-1"), 0L);
        OperatorSubtaskState snapshot = h.snapshot(1L, 0L);
        h.close();

        h = inboxHarness(CONFIG, snapshot);
        assertThat(h.numProcessingTimeTimers()).isEqualTo(1);
        h.setProcessingTime(HORIZON / 2);
        h.processElement(ev("k", 2, "fill-1"), 0L);
        h.processElement(ev("k", 3, "fill-3"), 0L);
        assertThat(side(h, GateState.DUPLICATES))
                .extracting(GateEvent::getEventId)
                .containsExactly("fill-1");
        assertThat(h.extractOutputValues())
                .extracting(GateEvent::getEventId)
                .containsExactly("fill-3");

        h.setProcessingTime(HORIZON / 2 + HORIZON);
        assertThat(h.numKeyedStateEntries()).isZero();
        assertThat(h.numProcessingTimeTimers()).isZero();
    }

    @Test
    void receiptsWrittenInDifferentMillisecondsKeepTheirOwnTimes() throws Exception {
        h = inboxHarness(CONFIG, null);
        h.getProcessingTimeService().setCurrentTime(0L);
        h.processElement(ev("k", 1, "early"), 0L);
        h.processElement(ev("k", 2, "early-too"), 0L); // same millisecond: may share the time
        h.getProcessingTimeService().setCurrentTime(10L);
        h.processElement(ev("k", 3, "later"), 0L);

        // at the horizon the two receipts of t=0 have expired, the one of t=10 has not
        h.getProcessingTimeService().setCurrentTime(HORIZON);
        h.processElement(ev("k", 4, "early"), 0L);
        h.processElement(ev("k", 5, "early-too"), 0L);
        h.processElement(ev("k", 6, "later"), 0L);
        assertThat(h.extractOutputValues())
                .extracting(GateEvent::getVersion)
                .containsExactly(1L, 2L, 3L, 4L, 5L);
        assertThat(side(h, GateState.DUPLICATES))
                .extracting(GateEvent::getEventId)
                .containsExactly("later");
    }
}
