package io.streamledger.local.it;

import static io.streamledger.local.it.Errors.assertValidation;
import static io.streamledger.local.it.Tables.attr;
import static io.streamledger.local.it.Tables.key;
import static io.streamledger.local.it.Tables.n;
import static io.streamledger.local.it.Tables.s;
import static org.assertj.core.api.Assertions.assertThat;

import io.streamledger.local.LocalDynamoDbExtension;
import java.net.URI;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndex;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.LocalSecondaryIndex;
import software.amazon.awssdk.services.dynamodb.model.Projection;
import software.amazon.awssdk.services.dynamodb.model.ProjectionType;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.ScanRequest;
import software.amazon.awssdk.services.dynamodb.model.ScanResponse;
import software.amazon.awssdk.services.dynamodb.model.Select;

/**
 * Query and Scan: key conditions, ordering, paging, filters, Select, GSIs (sparse, KEYS_ONLY,
 * INCLUDE), LSIs, the 1 MB page and parallel scan segments (AP02–AP06, AP11, IDX16 sparse).
 */
@ExtendWith(LocalDynamoDbExtension.class)
class QueryScanITCase {
    private static DynamoDbClient ddb;
    private static String table;

    @BeforeAll
    static void setUp(URI endpoint) {
        ddb = Clients.dynamo(endpoint);
        table = Tables.unique("Orders");
        ddb.createTable(
                b ->
                        b.tableName(table)
                                .billingMode(BillingMode.PAY_PER_REQUEST)
                                .attributeDefinitions(
                                        attr("PK", ScalarAttributeType.S),
                                        attr("SK", ScalarAttributeType.S),
                                        attr("acct", ScalarAttributeType.S),
                                        attr("ts", ScalarAttributeType.N),
                                        attr("readyShard", ScalarAttributeType.S),
                                        attr("prio", ScalarAttributeType.N))
                                .keySchema(key("PK", KeyType.HASH), key("SK", KeyType.RANGE))
                                .globalSecondaryIndexes(
                                        GlobalSecondaryIndex.builder()
                                                .indexName("byAccount")
                                                .keySchema(
                                                        key("acct", KeyType.HASH),
                                                        key("ts", KeyType.RANGE))
                                                .projection(
                                                        Projection.builder()
                                                                .projectionType(
                                                                        ProjectionType.INCLUDE)
                                                                .nonKeyAttributes("qty")
                                                                .build())
                                                .build(),
                                        GlobalSecondaryIndex.builder()
                                                .indexName("ready")
                                                .keySchema(key("readyShard", KeyType.HASH))
                                                .projection(
                                                        Projection.builder()
                                                                .projectionType(
                                                                        ProjectionType.KEYS_ONLY)
                                                                .build())
                                                .build())
                                .localSecondaryIndexes(
                                        LocalSecondaryIndex.builder()
                                                .indexName("byPrio")
                                                .keySchema(
                                                        key("PK", KeyType.HASH),
                                                        key("prio", KeyType.RANGE))
                                                .projection(
                                                        Projection.builder()
                                                                .projectionType(ProjectionType.ALL)
                                                                .build())
                                                .build()));
        for (int i = 0; i < 10; i++) {
            Map<String, AttributeValue> item = new HashMap<>();
            item.put("PK", s("order#A"));
            item.put("SK", s(String.format("v%02d", i)));
            item.put("acct", s("acct-1"));
            item.put("ts", n(Integer.toString(100 + i)));
            item.put("qty", n(Integer.toString(i)));
            item.put("prio", n(Integer.toString(10 - i)));
            item.put("note", s("n" + i));
            if (i % 3 == 0) {
                item.put("readyShard", s("READY#0"));
            }
            ddb.putItem(b -> b.tableName(table).item(item));
        }
    }

    @AfterAll
    static void close() {
        ddb.close();
    }

    private static QueryResponse query(
            String cond, Map<String, AttributeValue> values, QueryRequest.Builder extra) {
        return ddb.query(
                extra.tableName(table)
                        .keyConditionExpression(cond)
                        .expressionAttributeValues(values)
                        .build());
    }

    private static List<String> sks(List<Map<String, AttributeValue>> items) {
        return items.stream().map(i -> i.get("SK").s()).toList();
    }

    @Test
    void sortKeyConditionsAndOrder() {
        Map<String, AttributeValue> pk = Map.of(":p", s("order#A"));
        assertThat(sks(query("PK = :p", pk, QueryRequest.builder()).items()))
                .hasSize(10)
                .startsWith("v00");
        assertThat(
                        sks(
                                query(
                                                "PK = :p AND SK BETWEEN :a AND :b",
                                                Map.of(
                                                        ":p",
                                                        s("order#A"),
                                                        ":a",
                                                        s("v03"),
                                                        ":b",
                                                        s("v05")),
                                                QueryRequest.builder())
                                        .items()))
                .containsExactly("v03", "v04", "v05");
        assertThat(
                        sks(
                                query(
                                                "PK = :p AND SK < :a",
                                                Map.of(":p", s("order#A"), ":a", s("v02")),
                                                QueryRequest.builder().scanIndexForward(false))
                                        .items()))
                .containsExactly("v01", "v00");
        assertThat(
                        sks(
                                query(
                                                "PK = :p AND begins_with(SK, :a)",
                                                Map.of(":p", s("order#A"), ":a", s("v0")),
                                                QueryRequest.builder())
                                        .items()))
                .hasSize(10);
        assertThat(
                        sks(
                                query(
                                                "PK = :p AND begins_with(SK, :a)",
                                                Map.of(":p", s("order#A"), ":a", s("v0")),
                                                QueryRequest.builder()
                                                        .scanIndexForward(false)
                                                        .limit(2))
                                        .items()))
                .containsExactly("v09", "v08");
        assertThat(
                        sks(
                                query(
                                                "SK >= :a AND PK = :p",
                                                Map.of(":p", s("order#A"), ":a", s("v08")),
                                                QueryRequest.builder())
                                        .items()))
                .containsExactly("v08", "v09");
    }

    @Test
    void limitPagesWithLastEvaluatedKeyAndFilterAppliesAfterEvaluation() {
        List<String> seen = new ArrayList<>();
        Map<String, AttributeValue> start = null;
        int pages = 0;
        do {
            QueryRequest.Builder b =
                    QueryRequest.builder()
                            .limit(4)
                            .filterExpression("qty >= :q")
                            .exclusiveStartKey(start);
            QueryResponse r = query("PK = :p", Map.of(":p", s("order#A"), ":q", n("5")), b);
            assertThat(r.scannedCount()).isLessThanOrEqualTo(4);
            seen.addAll(sks(r.items()));
            start =
                    r.hasLastEvaluatedKey() && !r.lastEvaluatedKey().isEmpty()
                            ? r.lastEvaluatedKey()
                            : null;
            pages++;
        } while (start != null && pages < 10);
        assertThat(seen).containsExactly("v05", "v06", "v07", "v08", "v09");
        assertThat(pages).isEqualTo(3);
    }

    @Test
    void descendingBeginsWithSkipsKeysAfterThePrefix() {
        for (String sk : List.of("a1", "a2", "b1", "b2")) {
            ddb.putItem(b -> b.tableName(table).item(Map.of("PK", s("order#B"), "SK", s(sk))));
        }
        assertThat(
                        sks(
                                query(
                                                "PK = :p AND begins_with(SK, :a)",
                                                Map.of(":p", s("order#B"), ":a", s("a")),
                                                QueryRequest.builder().scanIndexForward(false))
                                        .items()))
                .containsExactly("a2", "a1");
    }

    @Test
    void startKeyOutsideTheKeyConditionIsRejected() {
        assertValidation(
                        () ->
                                query(
                                        "PK = :p AND SK > :s",
                                        Map.of(":p", s("order#A"), ":s", s("v05")),
                                        QueryRequest.builder()
                                                .exclusiveStartKey(Tables.key("order#A", "v01"))))
                .hasMessageContaining("outside query boundaries");
    }

    @Test
    void selectCountAndProjection() {
        QueryResponse count =
                query(
                        "PK = :p",
                        Map.of(":p", s("order#A"), ":q", n("7")),
                        QueryRequest.builder().select(Select.COUNT).filterExpression("qty > :q"));
        assertThat(count.count()).isEqualTo(2);
        assertThat(count.scannedCount()).isEqualTo(10);
        assertThat(count.hasItems()).isFalse();
        QueryResponse projected =
                query(
                        "PK = :p AND SK = :s",
                        Map.of(":p", s("order#A"), ":s", s("v01")),
                        QueryRequest.builder()
                                .projectionExpression("qty, #n")
                                .expressionAttributeNames(Map.of("#n", "note")));
        assertThat(projected.items()).containsExactly(Map.of("qty", n("1"), "note", s("n1")));
    }

    @Test
    void gsiQueriesRespectProjectionAndSparseness() {
        QueryResponse byAccount =
                query(
                        "acct = :a AND ts > :t",
                        Map.of(":a", s("acct-1"), ":t", n("107")),
                        QueryRequest.builder().indexName("byAccount").scanIndexForward(false));
        assertThat(byAccount.items())
                .containsExactly(
                        Map.of(
                                "PK",
                                s("order#A"),
                                "SK",
                                s("v09"),
                                "acct",
                                s("acct-1"),
                                "ts",
                                n("109"),
                                "qty",
                                n("9")),
                        Map.of(
                                "PK",
                                s("order#A"),
                                "SK",
                                s("v08"),
                                "acct",
                                s("acct-1"),
                                "ts",
                                n("108"),
                                "qty",
                                n("8")));
        QueryResponse ready =
                query(
                        "readyShard = :r",
                        Map.of(":r", s("READY#0")),
                        QueryRequest.builder().indexName("ready"));
        assertThat(sks(ready.items())).containsExactlyInAnyOrder("v00", "v03", "v06", "v09");
        assertThat(ready.items().get(0).keySet())
                .containsExactlyInAnyOrder("PK", "SK", "readyShard");

        // leaving the sparse index: remove its key attribute
        ddb.updateItem(
                b ->
                        b.tableName(table)
                                .key(Tables.key("order#A", "v09"))
                                .updateExpression("REMOVE readyShard"));
        assertThat(
                        sks(
                                query(
                                                "readyShard = :r",
                                                Map.of(":r", s("READY#0")),
                                                QueryRequest.builder().indexName("ready"))
                                        .items()))
                .containsExactlyInAnyOrder("v00", "v03", "v06");
        ddb.updateItem(
                b ->
                        b.tableName(table)
                                .key(Tables.key("order#A", "v09"))
                                .updateExpression("SET readyShard = :r")
                                .expressionAttributeValues(Map.of(":r", s("READY#0"))));
    }

    @Test
    void gsiRejectsConsistentReadAndAllAttributesOnPartialProjection() {
        assertValidation(
                        () ->
                                query(
                                        "readyShard = :r",
                                        Map.of(":r", s("READY#0")),
                                        QueryRequest.builder()
                                                .indexName("ready")
                                                .consistentRead(true)))
                .hasMessageContaining(
                        "Consistent reads are not supported on global secondary indexes");
        assertValidation(
                () ->
                        query(
                                "readyShard = :r",
                                Map.of(":r", s("READY#0")),
                                QueryRequest.builder()
                                        .indexName("ready")
                                        .select(Select.ALL_ATTRIBUTES)));
        assertValidation(() -> query("SK = :r", Map.of(":r", s("v01")), QueryRequest.builder()))
                .hasMessageContaining("missed key schema element");
        assertValidation(
                        () ->
                                query(
                                        "PK = :r",
                                        Map.of(":r", s("x")),
                                        QueryRequest.builder().indexName("nope")))
                .hasMessageContaining("does not have the specified index");
    }

    @Test
    void lsiOrdersByAlternateSortKey() {
        QueryResponse r =
                query(
                        "PK = :p AND prio <= :x",
                        Map.of(":p", s("order#A"), ":x", n("2")),
                        QueryRequest.builder().indexName("byPrio"));
        assertThat(sks(r.items())).containsExactly("v09", "v08");
    }

    @Test
    void onePageStopsAtOneMegabyte() {
        String big = Tables.unique("Big");
        Tables.pkSkNamed(ddb, big);
        String payload = "x".repeat(100 * 1024);
        for (int i = 0; i < 25; i++) {
            String sk = String.format("%03d", i);
            ddb.putItem(
                    b -> b.tableName(big).item(Map.of("PK", s("p"), "SK", s(sk), "d", s(payload))));
        }
        QueryResponse first =
                ddb.query(
                        b ->
                                b.tableName(big)
                                        .keyConditionExpression("PK = :p")
                                        .expressionAttributeValues(Map.of(":p", s("p"))));
        assertThat(first.count()).isBetween(9, 11);
        assertThat(first.lastEvaluatedKey()).isNotEmpty();
        int total = first.count();
        Map<String, AttributeValue> start = first.lastEvaluatedKey();
        while (start != null && !start.isEmpty()) {
            Map<String, AttributeValue> s0 = start;
            QueryResponse next =
                    ddb.query(
                            b ->
                                    b.tableName(big)
                                            .keyConditionExpression("PK = :p")
                                            .exclusiveStartKey(s0)
                                            .expressionAttributeValues(Map.of(":p", s("p"))));
            total += next.count();
            start = next.lastEvaluatedKey();
        }
        assertThat(total).isEqualTo(25);
    }

    @Test
    void parallelScanSegmentsPartitionTheTable() {
        String t = Tables.unique("Scan");
        Tables.pkSkNamed(ddb, t);
        for (int i = 0; i < 40; i++) {
            String pk = "p" + i;
            ddb.putItem(b -> b.tableName(t).item(Map.of("PK", s(pk), "SK", s("x"))));
        }
        Set<String> all = new HashSet<>();
        int sum = 0;
        for (int seg = 0; seg < 4; seg++) {
            int segment = seg;
            ScanResponse r =
                    ddb.scan(
                            ScanRequest.builder()
                                    .tableName(t)
                                    .segment(segment)
                                    .totalSegments(4)
                                    .build());
            sum += r.count();
            r.items().forEach(i -> all.add(i.get("PK").s()));
        }
        assertThat(sum).isEqualTo(40);
        assertThat(all).hasSize(40);
        ScanResponse filtered =
                ddb.scan(
                        b ->
                                b.tableName(t)
                                        .filterExpression("begins_with(PK, :p)")
                                        .expressionAttributeValues(Map.of(":p", s("p1")))
                                        .limit(100));
        assertThat(filtered.count()).isEqualTo(11);
        assertThat(filtered.scannedCount()).isEqualTo(40);
    }
}
