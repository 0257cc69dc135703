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
        // one receipt map for the key; TTL needs no timers
        assertThat(h.numKeyedStateEntries()).isEqualTo(1);
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
    void receiptsExpireAfterTheHorizonAndThenTheIdPassesAgain() throws Exception {
        h = inboxHarness(CONFIG, null);
        h.setStateTtlProcessingTime(0L);
        h.setProcessingTime(0L);
        h.processElement(ev("k", 1, "fill-1"), 0L);

        h.setStateTtlProcessingTime(HORIZON - 1);
        h.setProcessingTime(HORIZON - 1);
        h.processElement(ev("k", 2, "fill-1"), 0L);
        assertThat(side(h, GateState.DUPLICATES)).hasSize(1);

        h.setStateTtlProcessingTime(HORIZON);
        h.setProcessingTime(HORIZON);
        h.processElement(ev("k", 3, "fill-1"), 0L);
        assertThat(side(h, GateState.DUPLICATES)).hasSize(1);
        assertThat(h.extractOutputValues())
                .extracting(GateEvent::getVersion)
                .containsExactly(1L, 3L);
        assertThat(h.numKeyedStateEntries()).isEqualTo(1);
    }

    @Test
    void expiredReceiptsAreCleanedOnAccessAndLeftOutOfSnapshots() throws Exception {
        h = inboxHarness(CONFIG, null);
        h.setStateTtlProcessingTime(0L);
        for (int k = 0; k < 3; k++) {
            h.processElement(ev("old-" + k, 1), 0L);
        }
        assertThat(h.numKeyedStateEntries()).isEqualTo(3);

        h.setStateTtlProcessingTime(HORIZON + 1);
        // full-snapshot cleanup: expired receipts are not written into the snapshot
        OperatorSubtaskState snapshot = h.snapshot(1L, HORIZON + 1);
        // incremental cleanup: each record sweeps a few entries of other keys
        for (int i = 1; i <= 20; i++) {
            h.processElement(ev("fresh", i), 0L);
        }
        assertThat(h.numKeyedStateEntries()).isEqualTo(1);
        h.close();

        h = inboxHarness(CONFIG, snapshot);
        assertThat(h.numKeyedStateEntries()).isZero();
        assertThat(h.numProcessingTimeTimers()).isZero();
    }

    @Test
    void snapshotRestoreKeepsLiveReceipts() throws Exception {
        h = inboxHarness(CONFIG, null);
        h.setStateTtlProcessingTime(0L);
        h.processElement(ev("k", 1, "fill-1"), 0L);
        OperatorSubtaskState snapshot = h.snapshot(1L, 0L);
        h.close();

        h = inboxHarness(CONFIG, snapshot);
        h.setStateTtlProcessingTime(HORIZON / 2);
        h.processElement(ev("k", 2, "fill-1"), 0L);
        h.processElement(ev("k", 3, "fill-3"), 0L);
        assertThat(side(h, GateState.DUPLICATES))
                .extracting(GateEvent::getEventId)
                .containsExactly("fill-1");
        assertThat(h.extractOutputValues())
                .extracting(GateEvent::getEventId)
                .containsExactly("fill-3");
        assertThat(h.numKeyedStateEntries()).isEqualTo(1);
    }
}
