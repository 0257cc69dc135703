package io.streamledger.local.streams;

import static io.streamledger.local.it.Tables.attr;
import static io.streamledger.local.it.Tables.key;
import static io.streamledger.local.it.Tables.n;
import static io.streamledger.local.it.Tables.s;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.streamledger.local.LocalDynamoDbExtension;
import io.streamledger.local.it.Clients;
import io.streamledger.local.it.Tables;
import java.util.HashSet;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.apache.flink.api.common.serialization.SimpleStringSchema;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.sink.SinkFunction;
import org.apache.flink.streaming.connectors.kinesis.FlinkDynamoDBStreamsConsumer;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.StreamViewType;

/**
 * Flink's v1 {@code FlinkDynamoDBStreamsConsumer} (SDK v1 streams adapter inside
 * flink-connector-kinesis) reads a table's stream from the local endpoint unmodified, including
 * closed parent shards and their children (CS07, AP13 projection input).
 */
class FlinkDynamoDbStreamsConsumerITCase {
    @RegisterExtension
    static final MiniClusterExtension FLINK =
            new MiniClusterExtension(
                    new MiniClusterResourceConfiguration.Builder()
                            .setNumberTaskManagers(1)
                            .setNumberSlotsPerTaskManager(2)
                            .build());

    @RegisterExtension
    static final LocalDynamoDbExtension LOCAL =
            new LocalDynamoDbExtension(
                    b ->
                            b.streamFeatures(
                                    StreamFeatures.defaults()
                                            .withStreams(
                                                    StreamsOptions.builder()
                                                            .shardsPerTable(2)
                                                            .maxRecordsPerShard(4) // forces lineage
                                                            .build())));

    private static final ConcurrentLinkedQueue<String> RECEIVED = new ConcurrentLinkedQueue<>();
    private static final ObjectMapper MAPPER = new ObjectMapper();

    /** Collects into a static queue (the sink runs in the MiniCluster, same JVM). */
    private static final class CollectSink implements SinkFunction<String> {
        @Override
        public void invoke(String value, Context context) {
            RECEIVED.add(value);
        }
    }

    @Test
    void consumerReadsEveryChangeAcrossRolledShards() throws Exception {
        String table = Tables.unique("flink-streams");
        Set<String> written = new HashSet<>();
        try (DynamoDbClient ddb = Clients.dynamo(LOCAL.endpoint().endpoint())) {
            ddb.createTable(
                    b ->
                            b.tableName(table)
                                    .billingMode(BillingMode.PAY_PER_REQUEST)
                                    .attributeDefinitions(
                                            attr("PK", ScalarAttributeType.S),
                                            attr("SK", ScalarAttributeType.S))
                                    .keySchema(key("PK", KeyType.HASH), key("SK", KeyType.RANGE))
                                    .streamSpecification(
                                            sp ->
                                                    sp.streamEnabled(true)
                                                            .streamViewType(
                                                                    StreamViewType
                                                                            .NEW_AND_OLD_IMAGES)));
            for (int v = 1; v <= 6; v++) {
                for (String pk : new String[] {"acct-1", "acct-2", "acct-3"}) {
                    int version = v;
                    ddb.putItem(
                            b ->
                                    b.tableName(table)
                                            .item(
                                                    Map.of(
                                                            "PK", s(pk),
                                                            "SK", s("BAL"),
                                                            "version",
                                                                    n(Integer.toString(version)))));
                    written.add(pk + "#" + v);
                }
            }
            String arn = ddb.describeTable(b -> b.tableName(table)).table().latestStreamArn();

            Properties p = new Properties();
            p.setProperty("aws.region", "us-east-1");
            p.setProperty("aws.endpoint", LOCAL.endpoint().endpoint().toString());
            p.setProperty("aws.credentials.provider", "BASIC");
            p.setProperty("aws.credentials.provider.basic.accesskeyid", "AKIDLOCAL");
            p.setProperty("aws.credentials.provider.basic.secretkey", "secret");
            p.setProperty("flink.stream.initpos", "TRIM_HORIZON");
            p.setProperty("flink.shard.discovery.intervalmillis", "500");

            StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
            env.setParallelism(1);
            env.addSource(new FlinkDynamoDBStreamsConsumer<>(arn, new SimpleStringSchema(), p))
                    .addSink(new CollectSink());
            JobClient job = env.executeAsync("dynamodb-streams-consumer-it");
            try {
                long deadline = System.currentTimeMillis() + 60_000;
                while (RECEIVED.size() < written.size() && System.currentTimeMillis() < deadline) {
                    Thread.sleep(100);
                }
            } finally {
                job.cancel().get();
            }
        }
        Set<String> seen = new HashSet<>();
        for (String json : RECEIVED) {
            JsonNode r = MAPPER.readTree(json);
            JsonNode image = r.get("dynamodb").get("NewImage");
            seen.add(
                    image.get("PK").get("S").asText()
                            + "#"
                            + image.get("version").get("N").asText());
        }
        assertThat(RECEIVED).hasSize(written.size()); // 18 changes, no loss, no duplicate
        assertThat(seen).isEqualTo(written);
    }
}
