package io.streamledger.operators.gate;

import static io.streamledger.operators.gate.GateTestSupport.ev;
import static io.streamledger.operators.gate.GateTestSupport.gateHarness;
import static io.streamledger.operators.gate.GateTestSupport.inboxHarness;
import static io.streamledger.operators.gate.GateTestSupport.side;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * CS06: the version gate then the inbox, as {@link Gate#apply} chains them; versions order,
 * identity dedupes, neither replaces the other.
 */
class GateChainTest {

    private static final long HORIZON = 1_000L;
    private static final GateConfig CONFIG =
            GateConfig.of(Duration.ofMillis(HORIZON), Duration.ofMinutes(1), 1);

    private KeyedOneInputStreamOperatorTestHarness<String, GateEvent, GateEvent> gate;
    private KeyedOneInputStreamOperatorTestHarness<String, GateEvent, GateEvent> inbox;
    private int forwarded;

    @BeforeEach
    void open() throws Exception {
        gate = gateHarness(CONFIG, null);
        inbox = inboxHarness(CONFIG, null);
    }

    @AfterEach
    void close() throws Exception {
        gate.close();
        inbox.close();
    }

    /** Sends through the gate, then forwards what it applied into the inbox (the chained edge). */
    private void send(GateEvent e) throws Exception {
        gate.processElement(new StreamRecord<>(e));
        List<GateEvent> out = gate.extractOutputValues();
        for (GateEvent applied : out.subList(forwarded, out.size())) {
            inbox.processElement(new StreamRecord<>(applied));
        }
        forwarded = out.size();
    }

    private void at(long t) throws Exception {
        gate.setProcessingTime(t);
        inbox.setProcessingTime(t);
    }

    @Test
    void aRedeliveryAfterTheHorizonIsStillStaleByVersion() throws Exception {
        at(0L);
        send(ev("k", 1, "fill-1"));
        at(HORIZON * 5);
        send(ev("k", 1, "fill-1"));

        assertThat(side(gate, GateState.STALE))
                .extracting(GateEvent::getEventId)
                .containsExactly("fill-1");
        assertThat(inbox.extractOutputValues()).hasSize(1);
        assertThat(side(inbox, GateState.DUPLICATES)).isEmpty();
    }

    @Test
    void anIdReEmittedUnderANewVersionConsumesTheVersionButNotTheEffect() throws Exception {
        at(0L);
        send(ev("k", 1, "fill-1"));
        send(ev("k", 2, "fill-1"));
        send(ev("k", 3, "fill-3"));

        // the gate moved through 1,2,3; without that, version 2 would be a permanent gap
        assertThat(GateTestSupport.appliedVersions(gate)).containsExactly(1L, 2L, 3L);
        assertThat(inbox.extractOutputValues())
                .extracting(GateEvent::getEventId)
                .containsExactly("fill-1", "fill-3");
        assertThat(side(inbox, GateState.DUPLICATES))
                .extracting(GateEvent::getVersion)
                .containsExactly(2L);
        assertThat(gate.numProcessingTimeTimers()).isZero();
    }

    @Test
    void aParkedThenDeadLetteredEventIsAcceptedWhenItIsDeliveredAgain() throws Exception {
        at(0L);
        send(ev("k", 1, "fill-1"));
        send(ev("k", 3, "fill-3")); // parked (max 1 parked)
        send(ev("k", 4, "fill-4")); // overflow: dead-lettered, never marked seen
        assertThat(side(gate, GateState.DEAD_LETTERS))
                .extracting(DeadLetter::getReason)
                .containsExactly(DeadLetterReason.PARK_OVERFLOW);

        send(ev("k", 2, "fill-2"));
        send(ev("k", 4, "fill-4")); // the legitimate re-delivery

        assertThat(inbox.extractOutputValues())
                .extracting(GateEvent::getVersion)
                .containsExactly(1L, 2L, 3L, 4L);
        assertThat(side(inbox, GateState.DUPLICATES)).isEmpty();
        assertThat(gate.numKeyedStateEntries()).isEqualTo(1);
        assertThat(gate.numProcessingTimeTimers()).isZero();
    }
}
