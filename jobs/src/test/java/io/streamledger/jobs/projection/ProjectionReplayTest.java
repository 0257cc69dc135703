package io.streamledger.jobs.projection;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.streamledger.aws.deadletter.DeadLetterView;
import io.streamledger.jobs.config.JobOptions.KinesisPayload;
import io.streamledger.jobs.config.JobOptions.TransportKind;
import io.streamledger.jobs.deadletter.ReplaySource;
import io.streamledger.jobs.deadletter.Replays;
import io.streamledger.jobs.source.ParseChanges;
import io.streamledger.jobs.testing.TestRecords;
import io.streamledger.model.change.JsonFields;
import io.streamledger.model.deadletter.DeadLetterReason;
import io.streamledger.model.keys.AuthorityKey;
import io.streamledger.model.projection.ViewScope;
import io.streamledger.operators.gate.GateEvent;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * CS08 replay decoding of the projection job (AP13): gate entries come back as their event, source
 * entries are parsed again by the job's own parse step; each is tagged with its entry.
 */
class ProjectionReplayTest {

    private static final ReplaySource.Decoder<GateEvent> DECODER =
            ProjectionJob.replayDecoder(
                    new ParseChanges<>(
                            "Ledger",
                            KinesisPayload.DYNAMODB_CHANGE,
                            new ProjectionJob.AuthorityMapper(ViewScope.ALL)),
                    TransportKind.KINESIS);

    static DeadLetterView entry(
            String tenant,
            DeadLetterReason reason,
            String payload,
            String encoding,
            String position) {
        return TestRecords.replayRequested(
                tenant, "projection", reason, payload, encoding, position);
    }

    @Test
    void aGateEntryComesBackAsItsEventTaggedWithItsEntry() throws Exception {
        GateEvent original = new GateEvent("t1/a1/CASH/USD", 4, "ev-4", 10, 20, "K", "{\"x\":1}");
        DeadLetterView e =
                entry(
                        "t1",
                        DeadLetterReason.PARK_OVERFLOW,
                        JsonFields.MAPPER.writeValueAsString(original),
                        "json",
                        null);
        GateEvent back = DECODER.decode(e);
        assertThat(back).isEqualTo(original);
        assertThat(back.isReplay()).isTrue();
        assertThat(back.getReplayVersion()).isEqualTo(3);
        assertThat(Replays.key(back.getReplayOf())).isEqualTo(e.key());
        // the tag is not part of the event's JSON
        assertThat(JsonFields.MAPPER.writeValueAsString(back))
                .isEqualTo(JsonFields.MAPPER.writeValueAsString(original));
    }

    @Test
    void aSourceEntryIsParsedAgainThroughTheJobsParseStep() {
        AuthorityKey k = AuthorityKey.cash("t1", "a1", "USD");
        Map<String, String> image = new LinkedHashMap<>();
        image.put("PK", k.pk());
        image.put("SK", k.sk());
        image.put("version", "N:5");
        image.put("posted", "N:12.50");
        image.put("reserved", "N:0");
        String raw = TestRecords.insert("ev-9", "Ledger", 1_764_496_800_000L, image);
        DeadLetterView e =
                entry(
                        "_unknown",
                        DeadLetterReason.UNMAPPABLE_EVENT,
                        raw,
                        "utf-8",
                        "arn:aws:kinesis:us-east-1:0:stream/ledger/shardId-000000000001/4711");
        GateEvent back = DECODER.decode(e);
        assertThat(back.getSourceKey()).isEqualTo("t1/a1/CASH/USD");
        assertThat(back.getVersion()).isEqualTo(5);
        assertThat(Replays.key(back.getReplayOf())).isEqualTo(e.key());
        assertThat(back.getReplayVersion()).isEqualTo(3);
    }

    @Test
    void aRecordThatStillFailsOrIsNoneOfTheJobsIsRefusedWithTheParseReason() {
        assertThatThrownBy(
                        () ->
                                DECODER.decode(
                                        entry(
                                                "_unknown",
                                                DeadLetterReason.UNPARSEABLE_RECORD,
                                                "not json",
                                                "utf-8",
                                                null)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("still " + ParseChanges.UNPARSEABLE + ":");
        assertThatThrownBy(
                        () ->
                                DECODER.decode(
                                        entry(
                                                "t1",
                                                DeadLetterReason.REJECTED_FILL,
                                                "{}",
                                                "json",
                                                null)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("not REJECTED_FILL");
        assertThatThrownBy(
                        () ->
                                DECODER.decode(
                                        entry(
                                                "t1",
                                                DeadLetterReason.INVALID_EVENT,
                                                "",
                                                "json",
                                                null)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("kept no event");
    }
}
