package io.streamledger.jobs.deadletter;

import static org.assertj.core.api.Assertions.assertThat;

import io.streamledger.aws.deadletter.ParkedGapItems;
import io.streamledger.model.deadletter.ParkedGapIds;
import io.streamledger.model.keys.DeadLetterKey;
import io.streamledger.operators.gate.GateEvent;
import io.streamledger.operators.gate.ParkedReplay;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;

/**
 * CS08 replay settles of a gate's outcomes (CS07): a parked replay names its gap record and moves
 * REPLAY_REQUESTED → REPLAY_PARKED; every other outcome settles from the requested version, or from
 * the version its park left.
 */
class ReplaySettlementTest {

    private static final DeadLetterKey ENTRY =
            new DeadLetterKey("_unknown", "posting", "UNPARSEABLE_RECORD", "e1");
    private static final Instant AT = Instant.parse("2026-12-01T10:00:00Z");

    private static GateEvent replay(long version) {
        GateEvent e = new GateEvent("t1/A1", version, "ev-" + version, 0, 0, "TradeExecuted", "{}");
        e.setReplayOf(ENTRY.ref());
        e.setReplayVersion(3);
        return e;
    }

    private static String from(UpdateItemRequest r) {
        return r.expressionAttributeValues().get(":from").s()
                + "@"
                + r.expressionAttributeValues().get(":expected").n()
                + "→"
                + r.expressionAttributeValues().get(":to").s();
    }

    @Test
    void aParkedReplayNamesItsGapRecordAndOnlyParksARequestedEntry() {
        ReplayOutcome p =
                ReplayOutcome.parked(
                        new ParkedReplay(replay(4), 2, 99),
                        "posting",
                        "posting-exec-order-gate-v1");
        String gap =
                ParkedGapItems.ref(
                        "posting",
                        ParkedGapIds.of("posting", "posting-exec-order-gate-v1", "t1/A1", 2));
        assertThat(p.isParked()).isTrue();
        assertThat(p.getNote())
                .isEqualTo(
                        "behind gap " + gap + " of t1/A1: waits for version 2 (this is version 4)");

        List<UpdateItemRequest> writes = ReplaySettlementSink.requests("DLQ", "posting", p, AT);
        assertThat(writes)
                .extracting(ReplaySettlementTest::from)
                .containsExactly("REPLAY_REQUESTED@3→REPLAY_PARKED");
        assertThat(writes.get(0).key().get("SK").s()).isEqualTo(ENTRY.sk());
    }

    @Test
    void anOutcomeSettlesARequestedOrAParkedEntry() {
        assertThat(
                        ReplaySettlementSink.requests(
                                "DLQ", "posting", ReplayOutcome.applied(replay(2), "APPLIED"), AT))
                .extracting(ReplaySettlementTest::from)
                .containsExactly("REPLAY_REQUESTED@3→REPLAYED", "REPLAY_PARKED@4→REPLAYED");
        assertThat(
                        ReplaySettlementSink.requests(
                                "DLQ",
                                "posting",
                                ReplayOutcome.failed(replay(2), false, "PARK_OVERFLOW: full"),
                                AT))
                .extracting(ReplaySettlementTest::from)
                .containsExactly("REPLAY_REQUESTED@3→OPEN", "REPLAY_PARKED@4→OPEN");
    }
}
