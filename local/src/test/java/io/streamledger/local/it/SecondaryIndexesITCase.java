package io.streamledger.local.it;

import static io.streamledger.local.it.Errors.assertError;
import static io.streamledger.local.it.Errors.assertValidation;
import static io.streamledger.local.it.Tables.attr;
import static io.streamledger.local.it.Tables.n;
import static io.streamledger.local.it.Tables.s;
import static org.assertj.core.api.Assertions.assertThat;

import io.streamledger.local.LocalDynamoDbExtension;
import java.net.URI;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndex;
import software.amazon.awssdk.services.dynamodb.model.IndexStatus;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.LocalSecondaryIndex;
import software.amazon.awssdk.services.dynamodb.model.ProjectionType;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.Select;
import software.amazon.awssdk.services.dynamodb.model.TableStatus;

/**
 * Secondary indexes beyond the basics: multi-attribute GSI keys (up to four partition and four sort
 * attributes), online GSI creation with backfill and deletion, index key type conflicts, unknown
 * indexes and LSI rules (IDX04–IDX16 access paths).
 */
@ExtendWith(LocalDynamoDbExtension.class)
class SecondaryIndexesITCase {
    private static DynamoDbClient ddb;

    @BeforeAll
    static void setUp(URI endpoint) {
        ddb = Clients.dynamo(endpoint);
    }

    @AfterAll
    static void close() {
        ddb.close();
    }

    private static KeySchemaElement hash(String a) {
        return Tables.key(a, KeyType.HASH);
    }

    private static KeySchemaElement range(String a) {
        return Tables.key(a, KeyType.RANGE);
    }

    /** PK/SK table with GSI "byTenant": HASH tenant, geo; RANGE year (N), seq (N). */
    private static String compositeTable() {
        String name = Tables.unique("Multi");
        ddb.createTable(
                b ->
                        b.tableName(name)
                                .billingMode(BillingMode.PAY_PER_REQUEST)
                                .attributeDefinitions(
                                        attr("PK", ScalarAttributeType.S),
                                        attr("SK", ScalarAttributeType.S),
                                        attr("tenant", ScalarAttributeType.S),
                                        attr("geo", ScalarAttributeType.S),
                                        attr("year", ScalarAttributeType.N),
                                        attr("seq", ScalarAttributeType.N))
                                .keySchema(hash("PK"), range("SK"))
                                .globalSecondaryIndexes(
                                        GlobalSecondaryIndex.builder()
                                                .indexName("byTenant")
                                                .keySchema(
                                                        hash("tenant"),
                                                        hash("geo"),
                                                        range("year"),
                                                        range("seq"))
                                                .projection(
                                                        p -> p.projectionType(ProjectionType.ALL))
                                                .build()));
        return name;
    }

    private static void put(String table, String pk, Object... kv) {
        Map<String, AttributeValue> item = new HashMap<>(Tables.key(pk, "1"));
        for (int i = 0; i < kv.length; i += 2) {
            item.put((String) kv[i], (AttributeValue) kv[i + 1]);
        }
        ddb.putItem(b -> b.tableName(table).item(item));
    }

    private static List<String> pks(
            String table, String index, String kce, Map<String, AttributeValue> values) {
        return ddb
                .query(
                        QueryRequest.builder()
                                .tableName(table)
                                .indexName(index)
                                .keyConditionExpression(kce)
                                .expressionAttributeValues(values)
                                .build())
                .items()
                .stream()
                .map(i -> i.get("PK").s())
                .collect(Collectors.toList());
    }

    @Test
    void multiAttributeGsiKeysAreQueriedAttributeByAttribute() {
        String t = compositeTable();
        put(t, "a", "tenant", s("acme"), "geo", s("eu"), "year", n("2025"), "seq", n("2"));
        put(t, "b", "tenant", s("acme"), "geo", s("eu"), "year", n("2025"), "seq", n("10"));
        put(t, "c", "tenant", s("acme"), "geo", s("eu"), "year", n("2026"), "seq", n("1"));
        put(t, "d", "tenant", s("acme"), "geo", s("us"), "year", n("2025"), "seq", n("1"));
        put(t, "e", "tenant", s("acme"), "geo", s("eu"), "year", n("2025")); // no seq: not indexed
        var gsi = ddb.describeTable(b -> b.tableName(t)).table().globalSecondaryIndexes().get(0);
        assertThat(gsi.keySchema())
                .containsExactly(hash("tenant"), hash("geo"), range("year"), range("seq"));
        assertThat(gsi.itemCount()).isEqualTo(4);

        Map<String, AttributeValue> v = Map.of(":t", s("acme"), ":r", s("eu"));
        // sorted by (year, seq) numerically, not by a concatenated string
        assertThat(pks(t, "byTenant", "tenant = :t AND geo = :r", v))
                .containsExactly("a", "b", "c");
        Map<String, AttributeValue> y = new HashMap<>(v);
        y.put(":y", n("2025"));
        y.put(":s", n("5"));
        var r =
                ddb.query(
                        b ->
                                b.tableName(t)
                                        .indexName("byTenant")
                                        .keyConditionExpression(
                                                "tenant = :t AND geo = :r AND #y = :y AND seq > :s")
                                        .expressionAttributeNames(Map.of("#y", "year"))
                                        .expressionAttributeValues(y)
                                        .scanIndexForward(false));
        assertThat(r.items()).extracting(i -> i.get("PK").s()).containsExactly("b");
        Map<String, AttributeValue> lt = new HashMap<>(v);
        lt.put(":y", n("2026"));
        assertThat(
                        ddb.query(
                                        b ->
                                                b.tableName(t)
                                                        .indexName("byTenant")
                                                        .keyConditionExpression(
                                                                "tenant = :t AND geo = :r AND #y < :y")
                                                        .expressionAttributeNames(
                                                                Map.of("#y", "year"))
                                                        .expressionAttributeValues(lt))
                                .items())
                .extracting(i -> i.get("PK").s())
                .containsExactly("a", "b");
    }

    @Test
    void multiAttributeKeyConditionsAreValidated() {
        String t = compositeTable();
        assertValidation(() -> pks(t, "byTenant", "tenant = :t", Map.of(":t", s("acme"))))
                .hasMessageContaining("Query condition missed key schema element: geo");
        assertValidation(
                        () ->
                                pks(
                                        t,
                                        "byTenant",
                                        "tenant = :t AND geo = :r AND seq = :s",
                                        Map.of(":t", s("acme"), ":r", s("eu"), ":s", n("1"))))
                .hasMessageContaining("requires conditions on the sort key attributes before it");
        assertValidation(
                        () ->
                                ddb.query(
                                        b ->
                                                b.tableName(t)
                                                        .indexName("byTenant")
                                                        .keyConditionExpression(
                                                                "tenant = :t AND geo = :r AND #y > :y AND seq = :s")
                                                        .expressionAttributeNames(
                                                                Map.of("#y", "year"))
                                                        .expressionAttributeValues(
                                                                Map.of(
                                                                        ":t", s("acme"), ":r",
                                                                        s("eu"), ":y", n("1"), ":s",
                                                                        n("1")))))
                .hasMessageContaining(
                        "only the last sort key attribute of a condition may use an operator other than =");
        // the table's own key keeps one partition and one sort attribute
        assertValidation(
                        () ->
                                ddb.createTable(
                                        b ->
                                                b.tableName(Tables.unique("Two"))
                                                        .billingMode(BillingMode.PAY_PER_REQUEST)
                                                        .attributeDefinitions(
                                                                attr("a", ScalarAttributeType.S),
                                                                attr("b", ScalarAttributeType.S))
                                                        .keySchema(hash("a"), hash("b"))))
                .hasMessageContaining("Too many hash keys");
        // at most four partition attributes in a GSI
        assertValidation(
                        () ->
                                ddb.createTable(
                                        b ->
                                                b.tableName(Tables.unique("Five"))
                                                        .billingMode(BillingMode.PAY_PER_REQUEST)
                                                        .attributeDefinitions(
                                                                attr("PK", ScalarAttributeType.S),
                                                                attr("a", ScalarAttributeType.S),
                                                                attr("b", ScalarAttributeType.S),
                                                                attr("c", ScalarAttributeType.S),
                                                                attr("d", ScalarAttributeType.S),
                                                                attr("e", ScalarAttributeType.S))
                                                        .keySchema(hash("PK"))
                                                        .globalSecondaryIndexes(
                                                                GlobalSecondaryIndex.builder()
                                                                        .indexName("five")
                                                                        .keySchema(
                                                                                hash("a"),
                                                                                hash("b"),
                                                                                hash("c"),
                                                                                hash("d"),
                                                                                hash("e"))
                                                                        .projection(
                                                                                p ->
                                                                                        p
                                                                                                .projectionType(
                                                                                                        ProjectionType
                                                                                                                .KEYS_ONLY))
                                                                        .build())))
                .hasMessageContaining("at most 4 HASH and 4 RANGE key attributes");
    }

    @Test
    void gsiCreatedOnAPopulatedTableIsBackfilledAndCanBeDropped() {
        String t = Tables.pkSk(ddb, "Online");
        for (int i = 0; i < 5; i++) {
            put(t, "p" + i, "status", s(i % 2 == 0 ? "OPEN" : "DONE"));
        }
        put(t, "nostatus");
        var created =
                ddb.updateTable(
                                b ->
                                        b.tableName(t)
                                                .attributeDefinitions(
                                                        attr("status", ScalarAttributeType.S))
                                                .globalSecondaryIndexUpdates(
                                                        u ->
                                                                u.create(
                                                                        c ->
                                                                                c.indexName(
                                                                                                "byStatus")
                                                                                        .keySchema(
                                                                                                hash(
                                                                                                        "status"))
                                                                                        .projection(
                                                                                                p ->
                                                                                                        p
                                                                                                                .projectionType(
                                                                                                                        ProjectionType
                                                                                                                                .KEYS_ONLY)))))
                        .tableDescription();
        assertThat(created.tableStatus()).isEqualTo(TableStatus.UPDATING);
        assertThat(created.globalSecondaryIndexes().get(0).indexStatus())
                .isEqualTo(IndexStatus.CREATING);
        assertThat(created.globalSecondaryIndexes().get(0).backfilling()).isTrue();

        var described = Tables.awaitIndexesActive(ddb, t);
        assertThat(described.tableStatus()).isEqualTo(TableStatus.ACTIVE);
        assertThat(described.globalSecondaryIndexes().get(0).indexStatus())
                .isEqualTo(IndexStatus.ACTIVE);
        assertThat(described.globalSecondaryIndexes().get(0).itemCount()).isEqualTo(5);
        var open =
                ddb.query(
                        b ->
                                b.tableName(t)
                                        .indexName("byStatus")
                                        .keyConditionExpression("#s = :s")
                                        .expressionAttributeNames(Map.of("#s", "status"))
                                        .expressionAttributeValues(Map.of(":s", s("OPEN"))));
        assertThat(open.items())
                .extracting(i -> i.get("PK").s())
                .containsExactlyInAnyOrder("p0", "p2", "p4");

        var dropped =
                ddb.updateTable(
                                b ->
                                        b.tableName(t)
                                                .globalSecondaryIndexUpdates(
                                                        u ->
                                                                u.delete(
                                                                        d ->
                                                                                d.indexName(
                                                                                        "byStatus"))))
                        .tableDescription();
        assertThat(dropped.globalSecondaryIndexes())
                .singleElement()
                .satisfies(g -> assertThat(g.indexStatus()).isEqualTo(IndexStatus.DELETING));
        assertThat(ddb.describeTable(b -> b.tableName(t)).table().globalSecondaryIndexes())
                .isEmpty();
        assertValidation(() -> ddb.scan(b -> b.tableName(t).indexName("byStatus")))
                .hasMessageContaining("The table does not have the specified index: byStatus");
        assertError(
                () ->
                        ddb.updateTable(
                                b ->
                                        b.tableName(t)
                                                .globalSecondaryIndexUpdates(
                                                        u ->
                                                                u.delete(
                                                                        d ->
                                                                                d.indexName(
                                                                                        "byStatus")))),
                "ResourceNotFoundException");
    }

    @Test
    void indexKeyTypeConflictsAndLsiRules() {
        String t = Tables.unique("Lsi");
        ddb.createTable(
                b ->
                        b.tableName(t)
                                .billingMode(BillingMode.PAY_PER_REQUEST)
                                .attributeDefinitions(
                                        attr("PK", ScalarAttributeType.S),
                                        attr("SK", ScalarAttributeType.S),
                                        attr("amount", ScalarAttributeType.N))
                                .keySchema(hash("PK"), range("SK"))
                                .localSecondaryIndexes(
                                        LocalSecondaryIndex.builder()
                                                .indexName("byAmount")
                                                .keySchema(hash("PK"), range("amount"))
                                                .projection(
                                                        p ->
                                                                p.projectionType(
                                                                        ProjectionType.KEYS_ONLY))
                                                .build()));
        assertValidation(() -> put(t, "x", "amount", s("ten")))
                .hasMessageContaining(
                        "Type mismatch for Index Key amount Expected: N Actual: S IndexName: byAmount");
        put(t, "x", "amount", n("10"), "note", s("kept in the table"));
        // an LSI allows consistent reads and fetches unprojected attributes from the table
        var all =
                ddb.query(
                        b ->
                                b.tableName(t)
                                        .indexName("byAmount")
                                        .keyConditionExpression("PK = :p")
                                        .expressionAttributeValues(Map.of(":p", s("x")))
                                        .consistentRead(true)
                                        .select(Select.ALL_ATTRIBUTES));
        assertThat(all.items().get(0)).containsEntry("note", s("kept in the table"));
        var projected =
                ddb.query(
                        b ->
                                b.tableName(t)
                                        .indexName("byAmount")
                                        .keyConditionExpression("PK = :p")
                                        .expressionAttributeValues(Map.of(":p", s("x"))));
        assertThat(projected.items().get(0)).doesNotContainKey("note");
        assertValidation(
                        () ->
                                ddb.createTable(
                                        b ->
                                                b.tableName(Tables.unique("LsiNoRange"))
                                                        .billingMode(BillingMode.PAY_PER_REQUEST)
                                                        .attributeDefinitions(
                                                                attr("PK", ScalarAttributeType.S),
                                                                attr("x", ScalarAttributeType.S))
                                                        .keySchema(hash("PK"))
                                                        .localSecondaryIndexes(
                                                                LocalSecondaryIndex.builder()
                                                                        .indexName("lsi")
                                                                        .keySchema(
                                                                                hash("PK"),
                                                                                range("x"))
                                                                        .projection(
                                                                                p ->
                                                                                        p
                                                                                                .projectionType(
                                                                                                        ProjectionType
                                                                                                                .ALL))
                                                                        .build())))
                .hasMessageContaining("Table KeySchema does not have a range key");
        assertValidation(
                        () ->
                                ddb.createTable(
                                        b ->
                                                b.tableName(Tables.unique("LsiOtherHash"))
                                                        .billingMode(BillingMode.PAY_PER_REQUEST)
                                                        .attributeDefinitions(
                                                                attr("PK", ScalarAttributeType.S),
                                                                attr("SK", ScalarAttributeType.S),
                                                                attr("x", ScalarAttributeType.S))
                                                        .keySchema(hash("PK"), range("SK"))
                                                        .localSecondaryIndexes(
                                                                LocalSecondaryIndex.builder()
                                                                        .indexName("lsi")
                                                                        .keySchema(
                                                                                hash("x"),
                                                                                range("SK"))
                                                                        .projection(
                                                                                p ->
                                                                                        p
                                                                                                .projectionType(
                                                                                                        ProjectionType
                                                                                                                .ALL))
                                                                        .build())))
                .hasMessageContaining(
                        "Index KeySchema does not have the same leading hash key as table KeySchema");
        assertValidation(
                        () ->
                                ddb.query(
                                        b ->
                                                b.tableName(t)
                                                        .indexName("nope")
                                                        .keyConditionExpression("PK = :p")
                                                        .expressionAttributeValues(
                                                                Map.of(":p", s("x")))))
                .hasMessageContaining("The table does not have the specified index: nope");
    }
}
