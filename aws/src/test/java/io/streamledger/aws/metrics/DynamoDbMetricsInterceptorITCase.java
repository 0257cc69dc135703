package io.streamledger.aws.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.streamledger.aws.client.DynamoDbClientConfig;
import io.streamledger.aws.items.Av;
import io.streamledger.local.LocalDynamoDbExtension;
import io.streamledger.local.fault.FaultRule;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeDefinition;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.CreateTableRequest;
import software.amazon.awssdk.services.dynamodb.model.GetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndex;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.Projection;
import software.amazon.awssdk.services.dynamodb.model.ProjectionType;
import software.amazon.awssdk.services.dynamodb.model.ProvisionedThroughputExceededException;
import software.amazon.awssdk.services.dynamodb.model.Put;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.ReturnConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItemsRequest;
import software.amazon.awssdk.services.dynamodb.model.TransactionCanceledException;

/**
 * Real SDK v2 calls against the local endpoint, tagged by {@link ApTag}, recorded per AP and route
 * (seed AP01/AP02 on IDX01/IDX02) by {@link DynamoDbMetricsInterceptor}.
 */
class DynamoDbMetricsInterceptorITCase {
    private static final String TABLE = "mt_Orders";
    private static final String IDEMPOTENCY = "mt_Idempotency";

    @RegisterExtension static LocalDynamoDbExtension local = new LocalDynamoDbExtension();

    private static final InMemoryMetricsBackend backend = new InMemoryMetricsBackend();
    private static DynamoDbMetricsRecorder recorder;
    private static DynamoDbClient ddb;

    @BeforeAll
    static void setUp() {
        recorder = DynamoDbMetricsRecorder.create(backend, 4);
        ddb =
                DynamoDbClientConfig.local(local.endpoint().endpoint().toString())
                        .buildSyncClient(recorder);
        ddb.createTable(
                CreateTableRequest.builder()
                        .tableName(TABLE)
                        .billingMode(BillingMode.PAY_PER_REQUEST)
                        .attributeDefinitions(
                                attr("PK"), attr("SK"), attr("GSI1PK"), attr("GSI1SK"))
                        .keySchema(key("PK", KeyType.HASH), key("SK", KeyType.RANGE))
                        .globalSecondaryIndexes(
                                GlobalSecondaryIndex.builder()
                                        .indexName("GSI1")
                                        .keySchema(
                                                key("GSI1PK", KeyType.HASH),
                                                key("GSI1SK", KeyType.RANGE))
                                        .projection(
                                                Projection.builder()
                                                        .projectionType(ProjectionType.ALL)
                                                        .build())
                                        .build())
                        .build());
        ddb.createTable(
                CreateTableRequest.builder()
                        .tableName(IDEMPOTENCY)
                        .billingMode(BillingMode.PAY_PER_REQUEST)
                        .attributeDefinitions(attr("PK"), attr("SK"))
                        .keySchema(key("PK", KeyType.HASH), key("SK", KeyType.RANGE))
                        .build());
        put("T#A", "1");
        put("T#A", "2");
        put("T#A", "3");
        put("T#B", "1");
    }

    @AfterAll
    static void tearDown() {
        ddb.close();
    }

    private static void put(String pk, String sk) {
        ddb.putItem(
                ApTag.on(PutItemRequest.builder(), "AP01")
                        .tableName(TABLE)
                        .item(item(pk, sk))
                        .build());
    }

    private static Map<String, AttributeValue> item(String pk, String sk) {
        return Map.of(
                "PK", Av.s(pk), "SK", Av.s(sk), "GSI1PK", Av.s("ACC#" + pk), "GSI1SK", Av.s(sk));
    }

    @Test
    void writesAreCountedWithUnitsPerTableAndIndexAndItemSizes() {
        assertThat(
                        backend.count(
                                DynamoDbMetric.REQUESTS, "AP01", "IDX01", TABLE, "base", "PutItem"))
                .isGreaterThanOrEqualTo(4);
        // each put writes the base item and its GSI1 projection: 1 unit each at this size
        assertThat(
                        backend.count(
                                DynamoDbMetric.CONSUMED_WRITE_UNITS,
                                "AP01",
                                "IDX01",
                                TABLE,
                                "base"))
                .isGreaterThanOrEqualTo(4);
        assertThat(
                        backend.count(
                                DynamoDbMetric.CONSUMED_WRITE_UNITS,
                                "AP01",
                                "IDX02",
                                TABLE,
                                "GSI1"))
                .isGreaterThanOrEqualTo(4);
        assertThat(backend.values(DynamoDbMetric.ITEM_SIZE, "AP01", "IDX01", TABLE, "base"))
                .contains((double) Av.itemSize(item("T#A", "1")));
        assertThat(
                        backend.values(
                                DynamoDbMetric.LATENCY, "AP01", "IDX01", TABLE, "base", "PutItem"))
                .allSatisfy(s -> assertThat(s).isPositive());
    }

    @Test
    void readsOnTheIndexAreChargedToTheCallersApAndTheIndexRoute() {
        var page =
                ddb.query(
                        ApTag.on(QueryRequest.builder(), "AP02")
                                .tableName(TABLE)
                                .indexName("GSI1")
                                .keyConditionExpression("#p = :p")
                                .expressionAttributeNames(Map.of("#p", "GSI1PK"))
                                .expressionAttributeValues(Map.of(":p", Av.s("ACC#T#A")))
                                .build());
        assertThat(page.count()).isEqualTo(3);
        assertThat(page.consumedCapacity()).as("asked for by the interceptor").isNotNull();
        assertThat(backend.count(DynamoDbMetric.REQUESTS, "AP02", "IDX02", TABLE, "GSI1", "Query"))
                .isEqualTo(1);
        assertThat(
                        backend.count(
                                DynamoDbMetric.CONSUMED_READ_UNITS, "AP02", "IDX02", TABLE, "GSI1"))
                .isPositive();
        assertThat(backend.values(DynamoDbMetric.ITEM_SIZE, "AP02", "IDX02", TABLE, "GSI1"))
                .hasSize(3);
    }

    @Test
    void conditionalFailureThrottleAndCancellationAreCountedByReason() {
        assertThatThrownBy(
                        () ->
                                ddb.putItem(
                                        ApTag.on(PutItemRequest.builder(), "AP17")
                                                .tableName(TABLE)
                                                .item(item("T#A", "1"))
                                                .conditionExpression("attribute_not_exists(PK)")
                                                .build()))
                .isInstanceOf(ConditionalCheckFailedException.class);
        assertThat(
                        backend.count(
                                DynamoDbMetric.CONDITIONAL_CHECK_FAILURES,
                                "AP17",
                                "IDX18",
                                TABLE,
                                "base"))
                .isEqualTo(1);

        local.endpoint()
                .faults()
                .add(FaultRule.throttle().operation("PutItem").table(TABLE).count(1));
        assertThatThrownBy(() -> put("T#C", "1"))
                .isInstanceOf(ProvisionedThroughputExceededException.class);
        assertThat(
                        backend.count(
                                DynamoDbMetric.THROTTLES,
                                "AP01",
                                "IDX01",
                                TABLE,
                                "base",
                                "ProvisionedThroughputExceededException"))
                .isEqualTo(1);

        TransactWriteItem failing =
                TransactWriteItem.builder()
                        .put(
                                Put.builder()
                                        .tableName(TABLE)
                                        .item(item("T#A", "2"))
                                        .conditionExpression("attribute_not_exists(PK)")
                                        .build())
                        .build();
        TransactWriteItem fine =
                TransactWriteItem.builder()
                        .put(Put.builder().tableName(TABLE).item(item("T#D", "1")).build())
                        .build();
        assertThatThrownBy(
                        () ->
                                ddb.transactWriteItems(
                                        ApTag.on(TransactWriteItemsRequest.builder(), "AP08")
                                                .transactItems(failing, fine)
                                                .build()))
                .isInstanceOf(TransactionCanceledException.class);
        // Orders base serves IDX01 and IDX18; AP08's own path is elsewhere, so the logical table
        assertThat(
                        backend.count(
                                DynamoDbMetric.TRANSACTION_CANCELLATIONS,
                                "AP08",
                                "Orders",
                                TABLE,
                                "base",
                                "ConditionalCheckFailed"))
                .isEqualTo(1);
        assertThat(backend.sum(DynamoDbMetric.CONDITIONAL_CHECK_FAILURES, "AP08")).isEqualTo(1);
        assertThat(backend.sum(DynamoDbMetric.ERRORS)).isZero();
    }

    @Test
    void untaggedCallsShowAsNoneAndAnExplicitNoneCapacityIsKept() {
        var r =
                ddb.getItem(
                        GetItemRequest.builder()
                                .tableName(TABLE)
                                .key(Map.of("PK", Av.s("T#B"), "SK", Av.s("1")))
                                .returnConsumedCapacity(ReturnConsumedCapacity.NONE)
                                .build());
        assertThat(r.consumedCapacity()).isNull();
        assertThat(
                        backend.count(
                                DynamoDbMetric.REQUESTS,
                                "none",
                                "Orders",
                                TABLE,
                                "base",
                                "GetItem"))
                .as("an untagged call has no MAP row: the route is the logical table")
                .isEqualTo(1);
        assertThat(backend.sum(DynamoDbMetric.CONSUMED_READ_UNITS, "none")).isZero();
    }

    @Test
    void hotKeysOfALoadTestRequiredApAreSketched() {
        // AP01's lane L01 is LOAD_TEST_REQUIRED: T#A took 3 of the 4 setup puts
        assertThat(recorder.hotKeys("AP01").get(0).key()).isEqualTo("T#A");
        assertThat(backend.gauge(DynamoDbMetric.HOT_KEY_REQUESTS, "AP01", "1"))
                .isGreaterThanOrEqualTo(3);
        assertThat(backend.gauge(DynamoDbMetric.MAX_KEY_SHARE, "AP01")).isBetween(0.5, 1.0);
        // AP02's query keys come from the key condition
        ddb.query(
                ApTag.on(QueryRequest.builder(), "AP02")
                        .tableName(TABLE)
                        .indexName("GSI1")
                        .keyConditionExpression("GSI1PK = :p AND GSI1SK > :s")
                        .expressionAttributeValues(Map.of(":p", Av.s("ACC#T#B"), ":s", Av.s("0")))
                        .build());
        assertThat(recorder.hotKeys("AP02")).extracting(SpaceSaving.Entry::key).contains("ACC#T#B");
    }

    @Test
    void aTransactionsHotKeyIsItsFirstActionOnTheApsOwnRoute() {
        TransactWriteItem order =
                TransactWriteItem.builder()
                        .put(Put.builder().tableName(TABLE).item(item("T#E", "1")).build())
                        .build();
        TransactWriteItem claim =
                TransactWriteItem.builder()
                        .put(
                                Put.builder()
                                        .tableName(IDEMPOTENCY)
                                        .item(Map.of("PK", Av.s("T#REQ#k1"), "SK", Av.s("R")))
                                        .build())
                        .build();
        ddb.transactWriteItems(
                ApTag.on(TransactWriteItemsRequest.builder(), "AP08")
                        .transactItems(order, claim)
                        .build());
        // AP08's MAP row is IDX08 (Idempotency), so the claim's key, not the order's first action
        assertThat(recorder.hotKeys("AP08"))
                .extracting(SpaceSaving.Entry::key)
                .contains("T#REQ#k1")
                .doesNotContain("T#E");
        assertThat(
                        backend.count(
                                DynamoDbMetric.CONSUMED_WRITE_UNITS,
                                "AP08",
                                "IDX08",
                                IDEMPOTENCY,
                                "base"))
                .isPositive();
    }

    private static AttributeDefinition attr(String name) {
        return AttributeDefinition.builder()
                .attributeName(name)
                .attributeType(ScalarAttributeType.S)
                .build();
    }

    private static KeySchemaElement key(String name, KeyType type) {
        return KeySchemaElement.builder().attributeName(name).keyType(type).build();
    }
}
