package io.streamledger.jobs.source;

import static org.assertj.core.api.Assertions.assertThat;

import io.streamledger.jobs.config.JobOptions.KinesisPayload;
import io.streamledger.model.change.ChangeRecord;
import io.streamledger.model.change.OutboxEvent;
import io.streamledger.model.change.Transport;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.api.operators.ProcessOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.OneInputStreamOperatorTestHarness;
import org.junit.jupiter.api.Test;

/** Bad records are dead-lettered with payload and reason; good ones mapped. */
class ParseChangesTest {

    /** Maps every change to its eventId; throws for eventIds starting with "bad". */
    static final class IdMapper implements RecordMapper<String> {
        private static final long serialVersionUID = 1L;

        @Override
        public Optional<String> fromChange(ChangeRecord c) {
            if (c.eventId().startsWith("bad")) {
                throw new IllegalArgumentException("cannot map " + c.eventId());
            }
            if (c.eventId().startsWith("skip")) {
                return Optional.empty();
            }
            return Optional.of(
                    c.eventId() + "@" + c.approximateCreationDateTime().getEpochSecond());
        }

        @Override
        public Optional<String> fromOutbox(OutboxEvent e) {
            return Optional.of("outbox:" + e.eventId());
        }
    }

    static String connectorJson(String eventId, long createdMillis) {
        return "{\"eventID\":\""
                + eventId
                + "\",\"eventName\":\"INSERT\",\"eventVersion\":\"1.1\","
                + "\"eventSource\":\"aws:dynamodb\",\"awsRegion\":\"us-east-1\",\"dynamodb\":{"
                + "\"ApproximateCreationDateTime\":"
                + createdMillis
                + ","
                + "\"Keys\":{\"PK\":{\"S\":\"A\"},\"SK\":{\"S\":\"B\"}},"
                + "\"NewImage\":{\"PK\":{\"S\":\"A\"},\"SK\":{\"S\":\"B\"}},"
                + "\"SequenceNumber\":\"100\",\"SizeBytes\":10,\"StreamViewType\":\"NEW_AND_OLD_IMAGES\"}}";
    }

    static RawChange raw(Transport t, byte[] data) {
        return new RawChange(t.name(), "arn:stream", "shardId-1", "100", 5L, data);
    }

    private static OneInputStreamOperatorTestHarness<RawChange, String> harness(KinesisPayload p)
            throws Exception {
        var h =
                new OneInputStreamOperatorTestHarness<>(
                        new ProcessOperator<>(new ParseChanges<>("Context", p, new IdMapper())));
        h.setup(
                Types.STRING.createSerializer(
                        new org.apache.flink.api.common.serialization.SerializerConfigImpl()));
        h.open();
        return h;
    }

    @Test
    void parsesConnectorJsonMapsAndDeadLettersTheRest() throws Exception {
        var h = harness(KinesisPayload.DYNAMODB_CHANGE);
        h.processElement(
                new StreamRecord<>(
                        raw(
                                Transport.DYNAMODB_STREAMS,
                                connectorJson("ok-1", 1_764_496_800_000L)
                                        .getBytes(StandardCharsets.UTF_8))));
        h.processElement(
                new StreamRecord<>(
                        raw(
                                Transport.DYNAMODB_STREAMS,
                                connectorJson("skip-1", 1_764_496_800_000L)
                                        .getBytes(StandardCharsets.UTF_8))));
        h.processElement(
                new StreamRecord<>(
                        raw(
                                Transport.DYNAMODB_STREAMS,
                                connectorJson("bad-1", 1_764_496_800_000L)
                                        .getBytes(StandardCharsets.UTF_8))));
        h.processElement(
                new StreamRecord<>(
                        raw(
                                Transport.DYNAMODB_STREAMS,
                                "{not json".getBytes(StandardCharsets.UTF_8))));
        h.processElement(
                new StreamRecord<>(
                        raw(Transport.DYNAMODB_STREAMS, new byte[] {(byte) 0xff, (byte) 0xfe, 0})));

        // connector millis are read as the API's seconds after normalisation
        assertThat(h.extractOutputValues()).containsExactly("ok-1@1764496800");
        List<SourceDeadLetter> dead =
                h.getSideOutput(SourceTypes.DEAD_LETTERS).stream()
                        .map(StreamRecord::getValue)
                        .toList();
        assertThat(dead)
                .extracting(SourceDeadLetter::getReason)
                .containsExactly(
                        ParseChanges.UNMAPPABLE,
                        ParseChanges.UNPARSEABLE,
                        ParseChanges.UNPARSEABLE);
        assertThat(dead.get(0).getDetail()).contains("cannot map bad-1");
        assertThat(dead.get(0).getPayload()).contains("\"bad-1\"");
        assertThat(dead.get(0).getPayloadEncoding()).isEqualTo("utf-8");
        assertThat(dead.get(1).getPayload()).isEqualTo("{not json");
        assertThat(dead.get(2).getPayloadEncoding()).isEqualTo("base64");
        assertThat(dead.get(2).getPayload()).isEqualTo("//4A");
        assertThat(dead)
                .allSatisfy(
                        d -> {
                            assertThat(d.getShardId()).isEqualTo("shardId-1");
                            assertThat(d.getSequenceNumber()).isEqualTo("100");
                        });
        h.close();
    }

    @Test
    void kinesisCarriesDynamoDbChangesOrRelayedOutboxEvents() throws Exception {
        String kds =
                "{\"awsRegion\":\"us-east-1\",\"eventID\":\"ok-2\",\"eventName\":\"INSERT\","
                        + "\"userIdentity\":null,\"recordFormat\":\"application/json\",\"tableName\":\"Context\","
                        + "\"dynamodb\":{\"ApproximateCreationDateTime\":1764496800123,"
                        + "\"Keys\":{\"PK\":{\"S\":\"A\"},\"SK\":{\"S\":\"B\"}},"
                        + "\"NewImage\":{\"PK\":{\"S\":\"A\"},\"SK\":{\"S\":\"B\"}},\"SizeBytes\":10,"
                        + "\"ApproximateCreationDateTimePrecision\":\"MILLISECOND\"},\"eventSource\":\"aws:dynamodb\"}";
        var h = harness(KinesisPayload.DYNAMODB_CHANGE);
        h.processElement(
                new StreamRecord<>(raw(Transport.KINESIS, kds.getBytes(StandardCharsets.UTF_8))));
        assertThat(h.extractOutputValues()).containsExactly("ok-2@1764496800");
        h.close();

        String outbox =
                "{\"eventId\":\"e-9\",\"aggregateType\":\"Order\",\"aggregateId\":\"o-1\","
                        + "\"aggregateVersion\":2,\"eventType\":\"TradeExecuted\",\"schemaVersion\":1,"
                        + "\"occurredAt\":\"2026-11-30T10:00:00.000Z\",\"traceId\":\"tr\",\"causationId\":null,"
                        + "\"payload\":{}}";
        var h2 = harness(KinesisPayload.OUTBOX_EVENT);
        h2.processElement(
                new StreamRecord<>(
                        raw(Transport.KINESIS, outbox.getBytes(StandardCharsets.UTF_8))));
        h2.processElement(
                new StreamRecord<>(raw(Transport.KINESIS, kds.getBytes(StandardCharsets.UTF_8))));
        assertThat(h2.extractOutputValues()).containsExactly("outbox:e-9");
        assertThat(h2.getSideOutput(SourceTypes.DEAD_LETTERS)).hasSize(1);
        h2.close();
    }
}
