package io.streamledger.stack.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.streamledger.jobs.it.CollectSink;
import io.streamledger.jobs.source.ChangeSources;
import io.streamledger.jobs.source.ConnectorRecordJson;
import io.streamledger.jobs.source.RawChange;
import io.streamledger.model.change.ChangeRecord;
import io.streamledger.model.change.DynamoDbStreamsRecordParser;
import io.streamledger.model.change.Transport;
import io.streamledger.model.table.Tables;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * Pins down what {@code FlinkDynamoDBStreamsConsumer} (flink-connector-kinesis 4.3.0-1.19) really
 * hands its deserialization schema, read from a real stream of the local endpoint: the adapter's
 * JSON of the SDK v1 record, wire names, and {@code ApproximateCreationDateTime} in epoch
 * MILLISECONDS (the API sends seconds) — the reason {@link ConnectorRecordJson} exists.
 */
class DynamoDbStreamsConnectorShapeITCase {

    @RegisterExtension static final MiniClusterExtension CLUSTER = new MiniClusterExtension();

    @Test
    void connectorDeliversAdapterJsonWithMillisecondCreationTime() throws Exception {
        try (LocalStack stack =
                new LocalStack(
                        "shape" + UUID.randomUUID().toString().substring(0, 6) + "_", false)) {
            Instant before = Instant.now();
            stack.ddb.putItem(
                    b ->
                            b.tableName(stack.table(Tables.CONTEXT))
                                    .item(
                                            Map.of(
                                                    "PK", AttributeValue.fromS("OUTBOX#e-shape"),
                                                    "SK", AttributeValue.fromS("EVENT"),
                                                    "amount", AttributeValue.fromN("10.50"),
                                                    "blob",
                                                            AttributeValue.fromB(
                                                                    SdkBytes.fromUtf8String(
                                                                            "hi")))));
            Instant after = Instant.now();

            StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
            env.setParallelism(1);
            ChangeSources.fromConfig(stack.configReading(Tables.CONTEXT), "shape")
                    .open(env)
                    .sinkTo(new CollectSink<>("raw"));
            JobClient job = env.executeAsync("connector-shape");
            try {
                long deadline = System.currentTimeMillis() + 30_000;
                while (CollectSink.values("raw").isEmpty()
                        && System.currentTimeMillis() < deadline) {
                    Thread.sleep(200);
                }
            } finally {
                job.cancel().get();
            }
            List<RawChange> raw = List.copyOf(CollectSink.<RawChange>values("raw"));
            assertThat(raw).hasSize(1);
            RawChange r = raw.get(0);
            assertThat(r.getTransport()).isEqualTo(Transport.DYNAMODB_STREAMS.name());
            assertThat(r.getShardId()).startsWith("shardId-");
            assertThat(r.getStream()).isEqualTo(stack.streamArn(Tables.CONTEXT));

            JsonNode json = new ObjectMapper().readTree(r.getData());
            assertThat(json.get("eventName").asText()).isEqualTo("INSERT");
            assertThat(json.get("eventID").asText()).isNotEmpty();
            JsonNode ddb = json.get("dynamodb");
            assertThat(ddb.get("Keys").get("PK").get("S").asText()).isEqualTo("OUTBOX#e-shape");
            // numbers arrive as exact text, normalised like DynamoDB does ("10.50" -> "10.5")
            assertThat(ddb.get("NewImage").get("amount").get("N").isTextual()).isTrue();
            assertThat(
                            new java.math.BigDecimal(
                                    ddb.get("NewImage").get("amount").get("N").asText()))
                    .isEqualByComparingTo("10.50");
            assertThat(ddb.get("NewImage").get("blob").get("B").asText()).isEqualTo("aGk=");
            assertThat(ddb.get("SequenceNumber").asText()).isEqualTo(r.getSequenceNumber());
            // the trap: epoch milliseconds, not the API's seconds
            long created = ddb.get("ApproximateCreationDateTime").asLong();
            assertThat(created)
                    .isBetween(before.getEpochSecond() * 1000 - 1000, after.toEpochMilli() + 1000);

            ChangeRecord naive = DynamoDbStreamsRecordParser.parse(json, "Context", r.getShardId());
            assertThat(naive.approximateCreationDateTime().atZone(ZoneOffset.UTC).getYear())
                    .isGreaterThan(50_000);
            ChangeRecord fixed =
                    DynamoDbStreamsRecordParser.parse(
                            ConnectorRecordJson.normalize(r.getData()), "Context", r.getShardId());
            assertThat(fixed.approximateCreationDateTime())
                    .isBetween(before.minusSeconds(1), after.plusSeconds(1));
            assertThat(fixed.newImage()).containsKey("blob");
            // the adapter's real bytes take the one-pass path, to the same record
            assertThat(
                            DynamoDbStreamsRecordParser.parseStreaming(
                                    r.getData(), "Context", r.getShardId(), true))
                    .isEqualTo(fixed);
        }
    }
}
