package io.streamledger.local.kinesis;

import static io.streamledger.local.it.Tables.n;
import static io.streamledger.local.it.Tables.s;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.streamledger.local.LocalDynamoDbExtension;
import io.streamledger.local.it.Clients;
import io.streamledger.local.it.Tables;
import io.streamledger.local.streams.StreamFeatures;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.serialization.SimpleStringSchema;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.connector.kinesis.source.KinesisStreamsSource;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.sink.SinkFunction;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.ApproximateCreationDateTimePrecision;
import software.amazon.awssdk.services.dynamodb.model.DestinationStatus;
import software.amazon.awssdk.services.dynamodb.model.KinesisDataStreamDestination;

/**
 * End to end: a table's Kinesis streaming destination is enabled through the SDK v2 DynamoDB
 * client, the local endpoint forwards its changes to kinesis-local, and Flink's {@code
 * KinesisStreamsSource} reads the change records (seed C84; CS06 consumers dedupe by eventID).
 */
class KinesisDestinationFlinkITCase {
    @RegisterExtension static final KinesisLocalExtension KINESIS = new KinesisLocalExtension();

    @RegisterExtension
    static final LocalDynamoDbExtension LOCAL =
            new LocalDynamoDbExtension(
                    b ->
                            b.streamFeatures(
                                    StreamFeatures.defaults()
                                            .withKinesisDestination(KINESIS.destinationOptions())));

    @RegisterExtension
    static final MiniClusterExtension FLINK =
            new MiniClusterExtension(
                    new MiniClusterResourceConfiguration.Builder()
                            .setNumberTaskManagers(1)
                            .setNumberSlotsPerTaskManager(2)
                            .build());

    private static final ConcurrentLinkedQueue<String> RECEIVED = new ConcurrentLinkedQueue<>();
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private static final class CollectSink implements SinkFunction<String> {
        @Override
        public void invoke(String value, Context context) {
            RECEIVED.add(value);
        }
    }

    @Test
    void kinesisStreamsSourceReadsForwardedChangeRecords() throws Exception {
        String streamName = Tables.unique("ddb-cdc");
        String streamArn = KINESIS.kinesis().createStream(streamName, 2);
        Set<String> expected = new HashSet<>();
        try (DynamoDbClient ddb = Clients.dynamo(LOCAL.endpoint().endpoint())) {
            String table = Tables.pkSk(ddb, "kinesis-dest");
            var enabled =
                    ddb.enableKinesisStreamingDestination(
                            b ->
                                    b.tableName(table)
                                            .streamArn(streamArn)
                                            .enableKinesisStreamingConfiguration(
                                                    c ->
                                                            c.approximateCreationDateTimePrecision(
                                                                    ApproximateCreationDateTimePrecision
                                                                            .MILLISECOND)));
            assertThat(enabled.destinationStatus()).isEqualTo(DestinationStatus.ENABLING);
            KinesisDataStreamDestination active =
                    ddb.describeKinesisStreamingDestination(b -> b.tableName(table))
                            .kinesisDataStreamDestinations()
                            .get(0);
            assertThat(active.destinationStatus()).isEqualTo(DestinationStatus.ACTIVE);
            assertThat(active.streamArn()).isEqualTo(streamArn);

            for (int v = 1; v <= 3; v++) {
                for (String pk : new String[] {"order-1", "order-2", "order-3"}) {
                    int version = v;
                    ddb.putItem(
                            b ->
                                    b.tableName(table)
                                            .item(
                                                    Map.of(
                                                            "PK",
                                                            s(pk),
                                                            "SK",
                                                            s("STATE"),
                                                            "version",
                                                            n(Integer.toString(version)))));
                    expected.add((v == 1 ? "INSERT" : "MODIFY") + " " + pk + " " + v);
                }
            }
            ddb.deleteItem(b -> b.tableName(table).key(Tables.key("order-1", "STATE")));
            expected.add("REMOVE order-1 3");

            var disabled =
                    ddb.disableKinesisStreamingDestination(
                            b -> b.tableName(table).streamArn(streamArn));
            assertThat(disabled.destinationStatus()).isEqualTo(DestinationStatus.DISABLING);
            ddb.putItem(
                    b -> b.tableName(table).item(Map.of("PK", s("after-disable"), "SK", s("X"))));
            assertThat(
                            ddb.describeKinesisStreamingDestination(b -> b.tableName(table))
                                    .kinesisDataStreamDestinations()
                                    .get(0)
                                    .destinationStatus())
                    .isEqualTo(DestinationStatus.DISABLED);
        }

        Configuration config = new Configuration();
        config.setString("aws.region", KinesisLocal.REGION);
        config.setString("aws.endpoint", KINESIS.kinesis().endpoint().toString());
        config.setString("aws.credentials.provider", "BASIC");
        config.setString("aws.credentials.provider.basic.accesskeyid", KinesisLocal.ACCESS_KEY);
        config.setString("aws.credentials.provider.basic.secretkey", KinesisLocal.SECRET_KEY);
        config.setString("flink.stream.initpos", "TRIM_HORIZON");
        KinesisStreamsSource<String> source =
                KinesisStreamsSource.<String>builder()
                        .setStreamArn(streamArn)
                        .setSourceConfig(config)
                        .setDeserializationSchema(new SimpleStringSchema())
                        .build();
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(1);
        env.fromSource(source, WatermarkStrategy.noWatermarks(), "kinesis-local", Types.STRING)
                .addSink(new CollectSink());
        JobClient job = env.executeAsync("kinesis-destination-it");
        try {
            long deadline = System.currentTimeMillis() + 60_000;
            while (RECEIVED.size() < expected.size() && System.currentTimeMillis() < deadline) {
                Thread.sleep(100);
            }
            Thread.sleep(500); // a record forwarded after Disable would arrive by now
        } finally {
            job.cancel().get();
        }

        Set<String> seen = new HashSet<>();
        for (String json : RECEIVED) {
            JsonNode r = MAPPER.readTree(json);
            assertThat(r.get("recordFormat").asText()).isEqualTo("application/json");
            assertThat(r.get("eventSource").asText()).isEqualTo("aws:dynamodb");
            assertThat(r.get("dynamodb").get("ApproximateCreationDateTimePrecision").asText())
                    .isEqualTo("MILLISECOND");
            assertThat(r.get("dynamodb").get("ApproximateCreationDateTime").asLong())
                    .isGreaterThan(1_000_000_000_000L); // epoch millis
            JsonNode image =
                    r.get("dynamodb").has("NewImage")
                            ? r.get("dynamodb").get("NewImage")
                            : r.get("dynamodb").get("OldImage");
            seen.add(
                    r.get("eventName").asText()
                            + " "
                            + image.get("PK").get("S").asText()
                            + " "
                            + image.get("version").get("N").asText());
        }
        assertThat(RECEIVED).hasSize(expected.size());
        assertThat(seen).isEqualTo(expected);
    }
}
