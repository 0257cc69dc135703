package io.streamledger.local.it;

import static io.streamledger.local.it.Errors.assertError;
import static io.streamledger.local.it.Errors.assertValidation;
import static io.streamledger.local.it.Tables.attr;
import static io.streamledger.local.it.Tables.key;
import static io.streamledger.local.it.Tables.n;
import static io.streamledger.local.it.Tables.s;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.streamledger.local.LocalDynamoDbExtension;
import java.math.BigDecimal;
import java.net.URI;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.CancellationReason;
import software.amazon.awssdk.services.dynamodb.model.ConditionCheck;
import software.amazon.awssdk.services.dynamodb.model.ConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.Delete;
import software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndex;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.Projection;
import software.amazon.awssdk.services.dynamodb.model.ProjectionType;
import software.amazon.awssdk.services.dynamodb.model.Put;
import software.amazon.awssdk.services.dynamodb.model.ReturnConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.ReturnValuesOnConditionCheckFailure;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.TransactGetItem;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItemsResponse;
import software.amazon.awssdk.services.dynamodb.model.TransactionCanceledException;
import software.amazon.awssdk.services.dynamodb.model.Update;

/**
 * TransactWriteItems / TransactGetItems: all-or-nothing, cancellation reasons, idempotency,
 * isolation under concurrency, and the seed's accepted_order_v1 capacity (AMP14: 12 base + 3 GSI =
 * 15 units).
 */
@ExtendWith(LocalDynamoDbExtension.class)
class TransactionsITCase {
    private static DynamoDbClient ddb;
    private static String table;

    @BeforeAll
    static void setUp(URI endpoint) {
        ddb = Clients.dynamo(endpoint);
        table = Tables.pkSk(ddb, "Tx");
    }

    @AfterAll
    static void close() {
        ddb.close();
    }

    private static TransactWriteItem put(String tableName, Map<String, AttributeValue> item) {
        return TransactWriteItem.builder()
                .put(Put.builder().tableName(tableName).item(item).build())
                .build();
    }

    /** Pads an all-string item with a "pad" attribute to exactly {@code bytes} (ASCII sizes). */
    private static Map<String, AttributeValue> sized(Map<String, AttributeValue> base, int bytes) {
        int size = 0;
        for (Map.Entry<String, AttributeValue> e : base.entrySet()) {
            size += e.getKey().length() + e.getValue().s().length();
        }
        Map<String, AttributeValue> out = new HashMap<>(base);
        out.put("pad", s("p".repeat(bytes - size - "pad".length())));
        return out;
    }

    private static GlobalSecondaryIndex gsi(String name, String pk, String sk, String... include) {
        return GlobalSecondaryIndex.builder()
                .indexName(name)
                .keySchema(key(pk, KeyType.HASH), key(sk, KeyType.RANGE))
                .projection(
                        Projection.builder()
                                .projectionType(ProjectionType.INCLUDE)
                                .nonKeyAttributes(include)
                                .build())
                .build();
    }

    @Test
    void acceptedOrderV1CostsTwelveBasePlusThreeGsiUnits() {
        // AMP14: order (1.2 KiB) + uniqueness sentinel (0.2 KiB) in Orders, idempotency result
        // (0.7 KiB) in Idempotency, outbox event (1.6 KiB) in Context; 2 Orders GSI entries
        // (IDX02, IDX03) and 1 Context READY entry (IDX17).
        String orders = Tables.unique("Orders");
        ddb.createTable(
                b ->
                        b.tableName(orders)
                                .billingMode(BillingMode.PAY_PER_REQUEST)
                                .attributeDefinitions(
                                        attr("PK", ScalarAttributeType.S),
                                        attr("SK", ScalarAttributeType.S),
                                        attr("GSI1PK", ScalarAttributeType.S),
                                        attr("GSI1SK", ScalarAttributeType.S),
                                        attr("GSI2PK", ScalarAttributeType.S),
                                        attr("GSI2SK", ScalarAttributeType.S))
                                .keySchema(key("PK", KeyType.HASH), key("SK", KeyType.RANGE))
                                .globalSecondaryIndexes(
                                        gsi("GSI1", "GSI1PK", "GSI1SK", "status", "symbol"),
                                        gsi("GSI2", "GSI2PK", "GSI2SK", "symbol")));
        String idempotency = Tables.unique("Idempotency");
        ddb.createTable(
                b ->
                        b.tableName(idempotency)
                                .billingMode(BillingMode.PAY_PER_REQUEST)
                                .attributeDefinitions(
                                        attr("PK", ScalarAttributeType.S),
                                        attr("SK", ScalarAttributeType.S),
                                        attr("GSI1PK", ScalarAttributeType.S),
                                        attr("GSI1SK", ScalarAttributeType.S))
                                .keySchema(key("PK", KeyType.HASH), key("SK", KeyType.RANGE))
                                .globalSecondaryIndexes(gsi("GSI1", "GSI1PK", "GSI1SK", "state")));
        String context = Tables.unique("Context");
        ddb.createTable(
                b ->
                        b.tableName(context)
                                .billingMode(BillingMode.PAY_PER_REQUEST)
                                .attributeDefinitions(
                                        attr("PK", ScalarAttributeType.S),
                                        attr("SK", ScalarAttributeType.S),
                                        attr("GSI3PK", ScalarAttributeType.S),
                                        attr("GSI3SK", ScalarAttributeType.S))
                                .keySchema(key("PK", KeyType.HASH), key("SK", KeyType.RANGE))
                                .globalSecondaryIndexes(
                                        gsi("GSI3", "GSI3PK", "GSI3SK", "eventType")));
        Map<String, AttributeValue> order =
                sized(
                        Map.of(
                                "PK", s("TEN#t1#ORDER#o1"),
                                "SK", s("META"),
                                "GSI1PK", s("TEN#t1#ACCT#a1"),
                                "GSI1SK", s("ORD#2026-11-30T10:00:00Z#o1"),
                                "GSI2PK", s("TEN#t1#ACCT#a1#STATUS#ACCEPTED"),
                                "GSI2SK", s("ORD#2026-11-30T10:00:00Z#o1"),
                                "status", s("ACCEPTED"),
                                "symbol", s("ACME")),
                        1229);
        Map<String, AttributeValue> result =
                sized(
                        Map.of("PK", s("TEN#t1#REQ#k1"), "SK", s("REQUEST"), "state", s("DONE")),
                        717);
        Map<String, AttributeValue> outbox =
                sized(
                        Map.of(
                                "PK", s("OUTBOX#e1"),
                                "SK", s("EVENT"),
                                "GSI3PK", s("SERVICE#orders#READY#07"),
                                "GSI3SK", s("DUE#2026-11-30T10:00:00Z#e1"),
                                "eventType", s("OrderAccepted")),
                        1638);
        Map<String, AttributeValue> sentinel =
                sized(Map.of("PK", s("TEN#t1#CLIENTORDER#c1"), "SK", s("UNIQUE")), 205);

        TransactWriteItemsResponse r =
                ddb.transactWriteItems(
                        b ->
                                b.returnConsumedCapacity(ReturnConsumedCapacity.INDEXES)
                                        .transactItems(
                                                put(orders, order),
                                                put(idempotency, result),
                                                put(context, outbox),
                                                put(orders, sentinel)));

        double total =
                r.consumedCapacity().stream().mapToDouble(ConsumedCapacity::capacityUnits).sum();
        double base =
                r.consumedCapacity().stream().mapToDouble(c -> c.table().capacityUnits()).sum();
        double gsi =
                r.consumedCapacity().stream()
                        .flatMap(c -> c.globalSecondaryIndexes().values().stream())
                        .mapToDouble(c -> c.capacityUnits())
                        .sum();
        assertThat(base).isEqualTo(12.0);
        assertThat(gsi).isEqualTo(3.0);
        assertThat(total).isEqualTo(15.0);
        ConsumedCapacity ordersCap =
                r.consumedCapacity().stream()
                        .filter(c -> c.tableName().equals(orders))
                        .findFirst()
                        .orElseThrow();
        assertThat(ordersCap.table().capacityUnits()).isEqualTo(6.0); // (2 + 1) x 2
        assertThat(ordersCap.globalSecondaryIndexes()).containsOnlyKeys("GSI1", "GSI2");
    }

    @Test
    void cancellationIsAllOrNothingWithOneReasonPerAction() {
        ddb.putItem(
                b ->
                        b.tableName(table)
                                .item(Map.of("PK", s("acct"), "SK", s("A"), "bal", n("10"))));
        List<TransactWriteItem> items =
                List.of(
                        put(table, Map.of("PK", s("new"), "SK", s("1"))),
                        TransactWriteItem.builder()
                                .update(
                                        Update.builder()
                                                .tableName(table)
                                                .key(key("acct", "A"))
                                                .updateExpression("SET bal = bal - :x")
                                                .conditionExpression("bal >= :x")
                                                .expressionAttributeValues(Map.of(":x", n("50")))
                                                .returnValuesOnConditionCheckFailure(
                                                        ReturnValuesOnConditionCheckFailure.ALL_OLD)
                                                .build())
                                .build(),
                        TransactWriteItem.builder()
                                .conditionCheck(
                                        ConditionCheck.builder()
                                                .tableName(table)
                                                .key(key("acct", "A"))
                                                .conditionExpression("attribute_exists(PK)")
                                                .build())
                                .build());
        assertThatThrownBy(
                        () ->
                                ddb.transactWriteItems(
                                        b -> b.transactItems(List.of(items.get(0), items.get(1)))))
                .isInstanceOfSatisfying(
                        TransactionCanceledException.class,
                        e -> {
                            List<CancellationReason> reasons = e.cancellationReasons();
                            assertThat(reasons)
                                    .extracting(CancellationReason::code)
                                    .containsExactly("None", "ConditionalCheckFailed");
                            assertThat(reasons.get(1).item()).containsEntry("bal", n("10"));
                            assertThat(e.getMessage()).contains("[None, ConditionalCheckFailed]");
                        });
        assertThat(ddb.getItem(b -> b.tableName(table).key(key("new", "1"))).hasItem()).isFalse();
    }

    @Test
    void validationErrorInOneActionCancelsTheTransaction() {
        ddb.putItem(
                b -> b.tableName(table).item(Map.of("PK", s("text"), "SK", s("1"), "v", s("abc"))));
        assertThatThrownBy(
                        () ->
                                ddb.transactWriteItems(
                                        b ->
                                                b.transactItems(
                                                        put(
                                                                table,
                                                                Map.of(
                                                                        "PK",
                                                                        s("other"),
                                                                        "SK",
                                                                        s("1"))),
                                                        TransactWriteItem.builder()
                                                                .update(
                                                                        Update.builder()
                                                                                .tableName(table)
                                                                                .key(
                                                                                        key(
                                                                                                "text",
                                                                                                "1"))
                                                                                .updateExpression(
                                                                                        "SET v = v + :one")
                                                                                .expressionAttributeValues(
                                                                                        Map.of(
                                                                                                ":one",
                                                                                                n(
                                                                                                        "1")))
                                                                                .build())
                                                                .build())))
                .isInstanceOfSatisfying(
                        TransactionCanceledException.class,
                        e ->
                                assertThat(e.cancellationReasons())
                                        .extracting(CancellationReason::code)
                                        .containsExactly("None", "ValidationError"));
        assertThat(ddb.getItem(b -> b.tableName(table).key(key("other", "1"))).hasItem()).isFalse();
    }

    @Test
    void requestShapeLimits() {
        assertValidation(
                        () ->
                                ddb.transactWriteItems(
                                        b ->
                                                b.transactItems(
                                                        put(
                                                                table,
                                                                Map.of(
                                                                        "PK", s("dup"), "SK",
                                                                        s("1"))),
                                                        TransactWriteItem.builder()
                                                                .delete(
                                                                        Delete.builder()
                                                                                .tableName(table)
                                                                                .key(
                                                                                        key(
                                                                                                "dup",
                                                                                                "1"))
                                                                                .build())
                                                                .build())))
                .hasMessageContaining("multiple operations on one item");
        List<TransactWriteItem> tooMany = new ArrayList<>();
        for (int i = 0; i < 101; i++) {
            tooMany.add(put(table, Map.of("PK", s("many"), "SK", s(Integer.toString(i)))));
        }
        assertValidation(() -> ddb.transactWriteItems(b -> b.transactItems(tooMany)));
    }

    @Test
    void clientRequestTokenMakesRetriesIdempotentForTenMinutes() {
        TransactWriteItem add =
                TransactWriteItem.builder()
                        .update(
                                Update.builder()
                                        .tableName(table)
                                        .key(key("idem", "1"))
                                        .updateExpression("ADD hits :one")
                                        .expressionAttributeValues(Map.of(":one", n("1")))
                                        .build())
                        .build();
        ddb.transactWriteItems(b -> b.clientRequestToken("tok-1").transactItems(add));
        ddb.transactWriteItems(b -> b.clientRequestToken("tok-1").transactItems(add));
        assertThat(
                        ddb.getItem(b -> b.tableName(table).key(key("idem", "1")))
                                .item()
                                .get("hits")
                                .n())
                .isEqualTo("1");
        assertError(
                () ->
                        ddb.transactWriteItems(
                                b ->
                                        b.clientRequestToken("tok-1")
                                                .transactItems(
                                                        put(
                                                                table,
                                                                Map.of(
                                                                        "PK", s("idem"), "SK",
                                                                        s("2"))))),
                "IdempotentParameterMismatchException");
    }

    @Test
    void transactGetReadsAllItemsAtOnePointAndCostsDouble() {
        ddb.putItem(b -> b.tableName(table).item(Map.of("PK", s("tg"), "SK", s("1"), "v", n("1"))));
        ddb.putItem(b -> b.tableName(table).item(Map.of("PK", s("tg"), "SK", s("2"), "v", n("2"))));
        var r =
                ddb.transactGetItems(
                        b ->
                                b.returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)
                                        .transactItems(
                                                TransactGetItem.builder()
                                                        .get(
                                                                g ->
                                                                        g.tableName(table)
                                                                                .key(
                                                                                        key(
                                                                                                "tg",
                                                                                                "1")))
                                                        .build(),
                                                TransactGetItem.builder()
                                                        .get(
                                                                g ->
                                                                        g.tableName(table)
                                                                                .key(
                                                                                        key(
                                                                                                "tg",
                                                                                                "3")))
                                                        .build(),
                                                TransactGetItem.builder()
                                                        .get(
                                                                g ->
                                                                        g.tableName(table)
                                                                                .key(key("tg", "2"))
                                                                                .projectionExpression(
                                                                                        "v"))
                                                        .build()));
        assertThat(r.responses().get(0).item()).containsEntry("v", n("1"));
        assertThat(r.responses().get(1).hasItem()).isFalse();
        assertThat(r.responses().get(2).item()).isEqualTo(Map.of("v", n("2")));
        assertThat(r.consumedCapacity().get(0).capacityUnits()).isEqualTo(6.0);
    }

    @Test
    void concurrentTransfersConserveTheTotal() throws Exception {
        int accounts = 4;
        for (int i = 0; i < accounts; i++) {
            int a = i;
            ddb.putItem(
                    b ->
                            b.tableName(table)
                                    .item(
                                            Map.of(
                                                    "PK",
                                                    s("xfer"),
                                                    "SK",
                                                    s("a" + a),
                                                    "bal",
                                                    n("100"))));
        }
        ExecutorService pool = Executors.newFixedThreadPool(8);
        List<Future<?>> futures = new ArrayList<>();
        for (int t = 0; t < 8; t++) {
            futures.add(
                    pool.submit(
                            () -> {
                                for (int i = 0; i < 40; i++) {
                                    int from = ThreadLocalRandom.current().nextInt(accounts);
                                    int to =
                                            (from
                                                            + 1
                                                            + ThreadLocalRandom.current()
                                                                    .nextInt(accounts - 1))
                                                    % accounts;
                                    try {
                                        ddb.transactWriteItems(
                                                b -> b.transactItems(transfer(from, to, "7.5")));
                                    } catch (TransactionCanceledException insufficient) {
                                        // the balance guard refused; nothing was applied
                                    }
                                }
                                return null;
                            }));
        }
        for (Future<?> f : futures) {
            f.get();
        }
        pool.shutdown();
        BigDecimal sum = BigDecimal.ZERO;
        for (var item :
                ddb.query(
                                b ->
                                        b.tableName(table)
                                                .keyConditionExpression("PK = :p")
                                                .consistentRead(true)
                                                .expressionAttributeValues(Map.of(":p", s("xfer"))))
                        .items()) {
            BigDecimal bal = new BigDecimal(item.get("bal").n());
            assertThat(bal.signum()).isGreaterThanOrEqualTo(0);
            sum = sum.add(bal);
        }
        assertThat(sum).isEqualByComparingTo("400");
    }

    private static List<TransactWriteItem> transfer(int from, int to, String amount) {
        return List.of(
                TransactWriteItem.builder()
                        .update(
                                Update.builder()
                                        .tableName(table)
                                        .key(key("xfer", "a" + from))
                                        .updateExpression("SET bal = bal - :x")
                                        .conditionExpression("bal >= :x")
                                        .expressionAttributeValues(Map.of(":x", n(amount)))
                                        .build())
                        .build(),
                TransactWriteItem.builder()
                        .update(
                                Update.builder()
                                        .tableName(table)
                                        .key(key("xfer", "a" + to))
                                        .updateExpression("SET bal = bal + :x")
                                        .expressionAttributeValues(Map.of(":x", n(amount)))
                                        .build())
                        .build());
    }

    @Test
    void concurrentIncrementsAreLinearizable() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(8);
        List<Future<?>> futures = new ArrayList<>();
        for (int t = 0; t < 8; t++) {
            futures.add(
                    pool.submit(
                            () -> {
                                for (int i = 0; i < 50; i++) {
                                    ddb.updateItem(
                                            b ->
                                                    b.tableName(table)
                                                            .key(key("ctr", "1"))
                                                            .updateExpression("ADD n :one")
                                                            .expressionAttributeValues(
                                                                    Map.of(":one", n("1"))));
                                }
                                return null;
                            }));
        }
        for (Future<?> f : futures) {
            f.get();
        }
        pool.shutdown();
        assertThat(ddb.getItem(b -> b.tableName(table).key(key("ctr", "1"))).item().get("n").n())
                .isEqualTo("400");
    }
}
