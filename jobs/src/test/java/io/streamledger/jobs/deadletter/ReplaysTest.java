package io.streamledger.jobs.deadletter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.streamledger.aws.deadletter.DeadLetterView;
import io.streamledger.jobs.config.JobOptions.TransportKind;
import io.streamledger.jobs.source.RawChange;
import io.streamledger.jobs.testing.TestRecords;
import io.streamledger.model.deadletter.DeadLetterReason;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import org.junit.jupiter.api.Test;

/** CS08 replay: a source entry becomes its raw record again, an entry key survives its ref. */
class ReplaysTest {

    private static DeadLetterView source(String payload, String encoding, String position) {
        return TestRecords.replayRequested(
                "_unknown",
                "projection",
                DeadLetterReason.UNPARSEABLE_RECORD,
                payload,
                encoding,
                position);
    }

    @Test
    void aSourceEntryBecomesItsRawRecordWithItsPositionEvenUnderAStreamArn() {
        String arn = "arn:aws:dynamodb:us-east-1:0:table/Ledger/stream/2026-12-01T00:00:00.000";
        RawChange raw =
                Replays.rawChange(
                        source("{\"a\":1}", "utf-8", arn + "/shardId-0001/4711"),
                        TransportKind.DYNAMODB_STREAMS);
        assertThat(raw.getTransport()).isEqualTo("DYNAMODB_STREAMS");
        assertThat(raw.getStream()).isEqualTo(arn);
        assertThat(raw.getShardId()).isEqualTo("shardId-0001");
        assertThat(raw.getSequenceNumber()).isEqualTo("4711");
        assertThat(new String(raw.getData(), StandardCharsets.UTF_8)).isEqualTo("{\"a\":1}");

        byte[] bytes = {(byte) 0xff, 0x00, 0x41};
        RawChange binary =
                Replays.rawChange(
                        source(Base64.getEncoder().encodeToString(bytes), "base64", null),
                        TransportKind.KINESIS);
        assertThat(binary.getData()).containsExactly(bytes);
        assertThat(binary.getShardId()).isNull();
    }

    @Test
    void theRefOfAnEntryLeadsBackToItsKeyAndOnlySourceEntriesAreRawRecords() {
        DeadLetterView e = source("x", "utf-8", null);
        assertThat(Replays.key(Replays.ref(e))).isEqualTo(e.key());
        assertThatThrownBy(() -> Replays.key("no separator"))
                .isInstanceOf(IllegalArgumentException.class);
        DeadLetterView json =
                TestRecords.replayRequested(
                        "t1", "reconciliation", DeadLetterReason.LATE_RECORD, "{}", "json", null);
        assertThatThrownBy(() -> Replays.rawChange(json, TransportKind.KINESIS))
                .hasMessageContaining("not a source dead letter");
        assertThatThrownBy(() -> Replays.gateEvent(json)).hasMessageContaining("not a gate event");
    }
}
