package io.streamledger.local.it;

import static io.streamledger.local.it.Errors.assertError;
import static io.streamledger.local.it.Errors.assertValidation;
import static io.streamledger.local.it.Tables.key;
import static io.streamledger.local.it.Tables.n;
import static io.streamledger.local.it.Tables.s;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.streamledger.local.LocalDynamoDbExtension;
import io.streamledger.local.LocalEndpoint;
import io.streamledger.local.fault.FaultKind;
import io.streamledger.local.fault.FaultRule;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BatchGetItemResponse;
import software.amazon.awssdk.services.dynamodb.model.BatchWriteItemResponse;
import software.amazon.awssdk.services.dynamodb.model.InternalServerErrorException;
import software.amazon.awssdk.services.dynamodb.model.KeysAndAttributes;
import software.amazon.awssdk.services.dynamodb.model.ProvisionedThroughputExceededException;
import software.amazon.awssdk.services.dynamodb.model.PutRequest;
import software.amazon.awssdk.services.dynamodb.model.ReturnConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;

/**
 * BatchWriteItem / BatchGetItem limits and UnprocessedItems/Keys under injected throttling, and the
 * fault injector through its Java API and admin HTTP path (the CS03/CS05 retry paths).
 */
@ExtendWith(LocalDynamoDbExtension.class)
class BatchAndFaultsITCase {
    private static DynamoDbClient ddb;
    private static DynamoDbClient noRetry;
    private static LocalEndpoint endpoint;
    private static String table;

    @BeforeAll
    static void setUp(LocalEndpoint local) {
        endpoint = local;
        ddb = Clients.dynamo(local.endpoint());
        noRetry = Clients.dynamo(local.endpoint(), "AKIDLOCAL", false);
        table = Tables.pkSk(ddb, "Batch");
    }

    @AfterEach
    void clearFaults() {
        endpoint.faults().clear();
    }

    @AfterAll
    static void close() {
        ddb.close();
        noRetry.close();
    }

    private static List<WriteRequest> puts(String pk, int count) {
        List<WriteRequest> out = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            out.add(
                    WriteRequest.builder()
                            .putRequest(
                                    PutRequest.builder()
                                            .item(
                                                    Map.of(
                                                            "PK",
                                                            s(pk),
                                                            "SK",
                                                            s(String.format("%03d", i)),
                                                            "v",
                                                            n(Integer.toString(i))))
                                            .build())
                            .build());
        }
        return out;
    }

    @Test
    void batchWriteAndGetWithinLimits() {
        BatchWriteItemResponse w =
                ddb.batchWriteItem(
                        b ->
                                b.requestItems(Map.of(table, puts("bw", 25)))
                                        .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL));
        assertThat(w.unprocessedItems()).isEmpty();
        assertThat(w.consumedCapacity().get(0).capacityUnits()).isEqualTo(25.0);
        assertValidation(
                () -> ddb.batchWriteItem(b -> b.requestItems(Map.of(table, puts("bw", 26)))));

        List<Map<String, AttributeValue>> keys = new ArrayList<>();
        for (int i = 0; i < 25; i++) {
            keys.add(key("bw", String.format("%03d", i)));
        }
        keys.add(key("bw", "missing"));
        BatchGetItemResponse g =
                ddb.batchGetItem(
                        b ->
                                b.requestItems(
                                                Map.of(
                                                        table,
                                                        KeysAndAttributes.builder()
                                                                .keys(keys)
                                                                .consistentRead(true)
                                                                .build()))
                                        .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL));
        assertThat(g.responses().get(table)).hasSize(25);
        // each item rounds up on its own: 26 strong reads of < 4 KB
        assertThat(g.consumedCapacity().get(0).capacityUnits()).isEqualTo(26.0);

        List<Map<String, AttributeValue>> tooMany = new ArrayList<>();
        for (int i = 0; i < 101; i++) {
            tooMany.add(key("bw", "k" + i));
        }
        assertValidation(
                        () ->
                                ddb.batchGetItem(
                                        b ->
                                                b.requestItems(
                                                        Map.of(
                                                                table,
                                                                KeysAndAttributes.builder()
                                                                        .keys(tooMany)
                                                                        .build()))))
                .hasMessageContaining("Too many items requested");
        assertValidation(
                        () ->
                                ddb.batchGetItem(
                                        b ->
                                                b.requestItems(
                                                        Map.of(
                                                                table,
                                                                KeysAndAttributes.builder()
                                                                        .keys(
                                                                                key("bw", "001"),
                                                                                key("bw", "001"))
                                                                        .build()))))
                .hasMessageContaining("duplicates");
    }

    @Test
    void throttledBatchItemsComeBackUnprocessed() {
        endpoint.faults()
                .add(FaultRule.throttle().operation("BatchWriteItem").table(table).count(3));
        BatchWriteItemResponse w =
                noRetry.batchWriteItem(b -> b.requestItems(Map.of(table, puts("thr", 10))));
        assertThat(w.unprocessedItems().get(table)).hasSize(3);
        BatchWriteItemResponse retry =
                noRetry.batchWriteItem(b -> b.requestItems(w.unprocessedItems()));
        assertThat(retry.unprocessedItems()).isEmpty();
        assertThat(
                        noRetry.query(
                                        b ->
                                                b.tableName(table)
                                                        .keyConditionExpression("PK = :p")
                                                        .expressionAttributeValues(
                                                                Map.of(":p", s("thr"))))
                                .count())
                .isEqualTo(10);

        endpoint.faults().add(FaultRule.throttle().operation("BatchGetItem").count(2));
        BatchGetItemResponse g =
                noRetry.batchGetItem(
                        b ->
                                b.requestItems(
                                        Map.of(
                                                table,
                                                KeysAndAttributes.builder()
                                                        .keys(
                                                                key("thr", "000"),
                                                                key("thr", "001"),
                                                                key("thr", "002"))
                                                        .build())));
        assertThat(g.responses().get(table)).hasSize(1);
        assertThat(g.unprocessedKeys().get(table).keys()).hasSize(2);
    }

    @Test
    void wholeBatchThrottledIsAnError() {
        endpoint.faults().add(FaultRule.throttle().operation("BatchWriteItem"));
        assertThatThrownBy(
                        () ->
                                noRetry.batchWriteItem(
                                        b -> b.requestItems(Map.of(table, puts("all", 2)))))
                .isInstanceOf(ProvisionedThroughputExceededException.class);
    }

    @Test
    void throttleAndInternalErrorByCountThenRecover() {
        endpoint.faults().add(FaultRule.throttle().operation("PutItem").table(table).count(2));
        Map<String, AttributeValue> item = Map.of("PK", s("f"), "SK", s("1"));
        for (int i = 0; i < 2; i++) {
            assertThatThrownBy(() -> noRetry.putItem(b -> b.tableName(table).item(item)))
                    .isInstanceOf(ProvisionedThroughputExceededException.class);
        }
        noRetry.putItem(b -> b.tableName(table).item(item));

        endpoint.faults().add(FaultRule.of(FaultKind.THROTTLING).operation("GetItem").count(1));
        assertError(
                () -> noRetry.getItem(b -> b.tableName(table).key(key("f", "1"))),
                "ThrottlingException");

        endpoint.faults().add(FaultRule.internalError().operation("GetItem").count(1));
        assertThatThrownBy(() -> noRetry.getItem(b -> b.tableName(table).key(key("f", "1"))))
                .isInstanceOf(InternalServerErrorException.class)
                .satisfies(
                        e ->
                                assertThat(((InternalServerErrorException) e).statusCode())
                                        .isEqualTo(500));
        // the SDK's default retry policy rides over a transient 500
        endpoint.faults().add(FaultRule.internalError().operation("GetItem").count(1));
        assertThat(ddb.getItem(b -> b.tableName(table).key(key("f", "1"))).hasItem()).isTrue();

        // probability 0 never fires; a rule for another table does not match
        endpoint.faults().add(FaultRule.internalError().operation("GetItem").probability(0.0));
        endpoint.faults().add(FaultRule.internalError().table("SomeOtherTable"));
        assertThat(noRetry.getItem(b -> b.tableName(table).key(key("f", "1"))).hasItem()).isTrue();
    }

    @Test
    void injectedTransactionConflictCancelsWithoutApplying() {
        endpoint.faults().add(FaultRule.of(FaultKind.TRANSACTION_CONFLICT).table(table).count(1));
        var items =
                List.of(
                        software.amazon.awssdk.services.dynamodb.model.TransactWriteItem.builder()
                                .put(
                                        p ->
                                                p.tableName(table)
                                                        .item(Map.of("PK", s("tc"), "SK", s("1"))))
                                .build(),
                        software.amazon.awssdk.services.dynamodb.model.TransactWriteItem.builder()
                                .put(
                                        p ->
                                                p.tableName(table)
                                                        .item(Map.of("PK", s("tc"), "SK", s("2"))))
                                .build());
        assertThatThrownBy(() -> noRetry.transactWriteItems(b -> b.transactItems(items)))
                .isInstanceOfSatisfying(
                        software.amazon.awssdk.services.dynamodb.model.TransactionCanceledException
                                .class,
                        e ->
                                assertThat(e.cancellationReasons())
                                        .extracting(r -> r.code())
                                        .containsExactly("TransactionConflict", "None"));
        assertThat(noRetry.getItem(b -> b.tableName(table).key(key("tc", "1"))).hasItem())
                .isFalse();
        noRetry.transactWriteItems(b -> b.transactItems(items));
        assertThat(noRetry.getItem(b -> b.tableName(table).key(key("tc", "2"))).hasItem()).isTrue();
    }

    @Test
    void latencyIsAdded() {
        endpoint.faults().add(FaultRule.latency(300).operation("GetItem").count(1));
        long t0 = System.nanoTime();
        noRetry.getItem(b -> b.tableName(table).key(key("lat", "1")));
        assertThat((System.nanoTime() - t0) / 1_000_000).isGreaterThanOrEqualTo(300);
    }

    @Test
    void adminHttpPathAddsListsAndClearsFaults() throws Exception {
        HttpClient http = HttpClient.newHttpClient();
        URI faults = endpoint.endpoint().resolve("/__admin/faults");
        HttpResponse<String> added =
                http.send(
                        HttpRequest.newBuilder(faults)
                                .POST(
                                        HttpRequest.BodyPublishers.ofString(
                                                "{\"kind\":\"THROTTLE\",\"operation\":\"PutItem\",\"table\":\""
                                                        + table
                                                        + "\",\"count\":1}"))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
        assertThat(added.statusCode()).isEqualTo(200);
        assertThat(added.body()).contains("\"kind\":\"THROTTLE\"");
        HttpResponse<String> listed =
                http.send(
                        HttpRequest.newBuilder(faults).GET().build(),
                        HttpResponse.BodyHandlers.ofString());
        assertThat(listed.body()).contains("PutItem");
        assertThatThrownBy(
                        () ->
                                noRetry.putItem(
                                        b ->
                                                b.tableName(table)
                                                        .item(
                                                                Map.of(
                                                                        "PK", s("adm"), "SK",
                                                                        s("1")))))
                .isInstanceOf(ProvisionedThroughputExceededException.class);

        http.send(
                HttpRequest.newBuilder(faults)
                        .POST(
                                HttpRequest.BodyPublishers.ofString(
                                        "{\"kind\":\"INTERNAL_ERROR\",\"operation\":\"PutItem\"}"))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        HttpResponse<String> cleared =
                http.send(
                        HttpRequest.newBuilder(faults).DELETE().build(),
                        HttpResponse.BodyHandlers.ofString());
        assertThat(cleared.statusCode()).isEqualTo(200);
        assertThat(endpoint.faults().rules()).isEmpty();
        noRetry.putItem(b -> b.tableName(table).item(Map.of("PK", s("adm"), "SK", s("1"))));
    }
}
