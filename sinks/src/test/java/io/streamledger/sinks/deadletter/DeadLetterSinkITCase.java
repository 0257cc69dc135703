package io.streamledger.sinks.deadletter;

import static org.assertj.core.api.Assertions.assertThat;

import io.streamledger.aws.client.DynamoDbClientConfig;
import io.streamledger.aws.deadletter.DeadLetterEntry;
import io.streamledger.aws.deadletter.DeadLetterItems;
import io.streamledger.aws.deadletter.DeadLetterReader;
import io.streamledger.local.LocalDynamoDbExtension;
import io.streamledger.model.deadletter.DeadLetterReason;
import io.streamledger.model.deadletter.DeadLetterStatus;
import io.streamledger.model.table.Attr;
import io.streamledger.model.table.GsiSpec;
import io.streamledger.model.table.TableSpec;
import io.streamledger.model.table.Tables;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeDefinition;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndex;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.Projection;
import software.amazon.awssdk.services.dynamodb.model.ProjectionType;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;

/**
 * The dead-letter sink against the local endpoint (CS08): one entry per record whatever the
 * repeats, a replay after a restart (the same job run again) lands on the same entries and only
 * counts attempts, the first payload is kept, and OPEN entries carry the sparse status-queue keys.
 */
class DeadLetterSinkITCase {

    @RegisterExtension static final LocalDynamoDbExtension DYNAMO = new LocalDynamoDbExtension();

    private static void create(DynamoDbClient ddb, String name, TableSpec spec) {
        GsiSpec g = spec.gsi("GSI1").orElseThrow();
        ddb.createTable(
                b ->
                        b.tableName(name)
                                .billingMode(BillingMode.PAY_PER_REQUEST)
                                .attributeDefinitions(
                                        spec.keyAttributes().stream()
                                                .map(
                                                        a ->
                                                                AttributeDefinition.builder()
                                                                        .attributeName(a)
                                                                        .attributeType(
                                                                                ScalarAttributeType
                                                                                        .S)
                                                                        .build())
                                                .toList())
                                .keySchema(key(Attr.PK, KeyType.HASH), key(Attr.SK, KeyType.RANGE))
                                .globalSecondaryIndexes(
                                        GlobalSecondaryIndex.builder()
                                                .indexName(g.indexName())
                                                .keySchema(
                                                        key(g.pkAttr(), KeyType.HASH),
                                                        key(g.skAttr(), KeyType.RANGE))
                                                .projection(
                                                        Projection.builder()
                                                                .projectionType(
                                                                        ProjectionType.KEYS_ONLY)
                                                                .build())
                                                .build()));
    }

    private static KeySchemaElement key(String name, KeyType type) {
        return KeySchemaElement.builder().attributeName(name).keyType(type).build();
    }

    private static DeadLetterEntry entry(String origin, String payload) {
        return new DeadLetterEntry(
                "t1",
                "posting",
                "posting-guard-v1",
                DeadLetterReason.REJECTED_FILL,
                "quantity 0",
                payload,
                "json",
                origin,
                null,
                "Account#acct-1",
                0,
                1_764_496_800_000L);
    }

    @Test
    void repeatsAndReplaysNeverDuplicateAnEntry() throws Exception {
        DynamoDbClientConfig config =
                DynamoDbClientConfig.local(DYNAMO.endpoint().endpoint().toString());
        String table = "DeadLetter_it_" + UUID.randomUUID().toString().substring(0, 8);
        try (DynamoDbClient ddb = config.buildSyncClient()) {
            create(ddb, table, Tables.DEAD_LETTER);
            // origin|payload: e-1 is set aside twice in one run
            List<String> input =
                    List.of("event:e-1|{\"v\":1}", "event:e-1|{\"v\":2}", "event:e-2|{}");
            for (int run = 0; run < 2; run++) { // the second run is the replay after a restart
                StreamExecutionEnvironment env =
                        StreamExecutionEnvironment.getExecutionEnvironment();
                env.getConfig().disableGenericTypes();
                env.setParallelism(1);
                env.fromData(input, Types.STRING)
                        .sinkTo(
                                new DeadLetterSink<String>(
                                        config,
                                        table,
                                        s -> entry(s.split("\\|")[0], s.split("\\|")[1]),
                                        3,
                                        5,
                                        50))
                        .uid("dead-letter-sink-it");
                env.execute("dead-letter-sink-it-" + run);
            }

            List<Map<String, AttributeValue>> items =
                    new DeadLetterReader(ddb, table).list("t1", "posting", 10);
            assertThat(items).hasSize(2);
            Map<String, AttributeValue> e1 =
                    items.stream()
                            .filter(i -> i.get(DeadLetterItems.A_ORIGIN).s().equals("event:e-1"))
                            .findFirst()
                            .orElseThrow();
            assertThat(e1.get(DeadLetterItems.A_ATTEMPTS).n()).isEqualTo("4");
            assertThat(e1.get(DeadLetterItems.A_PAYLOAD).s()).isEqualTo("{\"v\":1}");
            assertThat(e1.get(DeadLetterItems.A_STATUS).s())
                    .isEqualTo(DeadLetterStatus.OPEN.name());
            assertThat(e1.get(DeadLetterItems.A_REASON).s()).isEqualTo("REJECTED_FILL");
            assertThat(e1.get(Attr.GSI1PK).s()).startsWith("TEN#t1#DLQ#STATUS#OPEN#");
            assertThat(e1.get(Attr.SK).s()).startsWith("DL#REJECTED_FILL#");
            assertThat(e1.get(DeadLetterItems.A_AGGREGATE_KEY).s()).isEqualTo("Account#acct-1");
            Map<String, AttributeValue> e2 =
                    items.stream()
                            .filter(i -> i.get(DeadLetterItems.A_ORIGIN).s().equals("event:e-2"))
                            .findFirst()
                            .orElseThrow();
            assertThat(e2.get(DeadLetterItems.A_ATTEMPTS).n()).isEqualTo("2");
        }
    }
}
