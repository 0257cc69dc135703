package io.streamledger.local.partiql;

import static io.streamledger.local.it.Errors.assertError;
import static io.streamledger.local.it.Errors.assertValidation;
import static io.streamledger.local.partiql.PartiQlFixture.BY_STATUS;
import static io.streamledger.local.partiql.PartiQlFixture.capacity;
import static io.streamledger.local.partiql.PartiQlFixture.item;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ExecuteStatementRequest;
import software.amazon.awssdk.services.dynamodb.model.ExecuteStatementResponse;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;
import software.amazon.awssdk.services.dynamodb.model.ReturnConsumedCapacity;

/**
 * PartiQL SELECT through the real SDK v2 (AP01–AP07 access paths, AP11 pages): whole key = GetItem,
 * partition key (=, IN, OR) = Query with sort-key conditions and filters, index reads as {@code
 * "Table"."Index"}, anything else a Scan — each answering the items and the ConsumedCapacity of the
 * equivalent item operation — and DynamoDB's errors for what PartiQL refuses.
 */
class PartiQlSelectITCase {
    @RegisterExtension static final PartiQlFixture FIXTURE = new PartiQlFixture();

    private static DynamoDbClient ddb;
    private static String table;

    @BeforeAll
    static void data() {
        ddb = FIXTURE.ddb();
        table = FIXTURE.table("Sel");
        for (int i = 1; i <= 10; i++) {
            String sk = String.format("o#%03d", i);
            ddb.putItem(
                    b ->
                            b.tableName(table)
                                    .item(
                                            item(
                                                    "c1",
                                                    sk,
                                                    "status",
                                                    sk.endsWith("1") ? "done" : "open",
                                                    "amount",
                                                    100 * Integer.parseInt(sk.substring(2)),
                                                    "pad",
                                                    "x".repeat(3000))));
        }
        ddb.putItem(
                b ->
                        b.tableName(table)
                                .item(
                                        item(
                                                "c2",
                                                "o#001",
                                                "status",
                                                "open",
                                                "amount",
                                                5,
                                                "m",
                                                AttributeValue.fromM(
                                                        Map.of(
                                                                "k",
                                                                AttributeValue.fromL(
                                                                        List.of(
                                                                                AttributeValue
                                                                                        .fromN("1"),
                                                                                AttributeValue
                                                                                        .fromS(
                                                                                                "two"))),
                                                                "z",
                                                                AttributeValue.fromS("last"))),
                                                "l",
                                                AttributeValue.fromL(
                                                        List.of(AttributeValue.fromN("7"))))));
        ddb.putItem(b -> b.tableName(table).item(item("c3", "o#001", "amount", 1)));
    }

    private static ExecuteStatementResponse select(String statement, AttributeValue... params) {
        return FIXTURE.execute(statement, params);
    }

    private static List<String> sks(ExecuteStatementResponse r) {
        List<String> out = new ArrayList<>();
        r.items().forEach(i -> out.add(i.get("PK").s() + "/" + i.get("SK").s()));
        return out;
    }

    @Test
    void wholeKeyIsAGetItemWithItsCapacity() {
        ExecuteStatementResponse r =
                select(
                        "SELECT * FROM \"" + table + "\" WHERE PK = ? AND SK = ?",
                        AttributeValue.fromS("c1"),
                        AttributeValue.fromS("o#002"));
        assertThat(sks(r)).containsExactly("c1/o#002");
        var get =
                ddb.getItem(
                        b ->
                                b.tableName(table)
                                        .key(item("c1", "o#002"))
                                        .returnConsumedCapacity(ReturnConsumedCapacity.INDEXES));
        assertThat(r.items().get(0)).isEqualTo(get.item());
        assertThat(capacity(r.consumedCapacity())).isEqualTo(capacity(get.consumedCapacity()));

        ExecuteStatementResponse strong =
                ddb.executeStatement(
                        b ->
                                b.statement(
                                                "SELECT * FROM \""
                                                        + table
                                                        + "\" WHERE PK = 'c1' AND SK = 'o#002'")
                                        .consistentRead(true)
                                        .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL));
        assertThat(strong.consumedCapacity().capacityUnits())
                .isEqualTo(2 * r.consumedCapacity().capacityUnits());

        ExecuteStatementResponse none =
                select("SELECT * FROM \"" + table + "\" WHERE PK = 'nobody' AND SK = 'x'");
        assertThat(none.items()).isEmpty();
        assertThat(none.nextToken()).isNull();
    }

    @Test
    void partitionKeyIsAQueryPagedByLimitAndNextToken() {
        String statement =
                "SELECT PK, SK, amount FROM \"" + table + "\" WHERE PK = ? AND amount > ?";
        List<String> all = new ArrayList<>();
        String token = null;
        int pages = 0;
        do {
            String t = token;
            ExecuteStatementResponse page =
                    ddb.executeStatement(
                            ExecuteStatementRequest.builder()
                                    .statement(statement)
                                    .parameters(
                                            AttributeValue.fromS("c1"), AttributeValue.fromN("250"))
                                    .limit(4)
                                    .nextToken(t)
                                    .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)
                                    .build());
            all.addAll(sks(page));
            page.items().forEach(i -> assertThat(i.keySet()).containsExactly("PK", "SK", "amount"));
            token = page.nextToken();
            pages++;
        } while (token != null);
        assertThat(all)
                .containsExactly(
                        "c1/o#003",
                        "c1/o#004",
                        "c1/o#005",
                        "c1/o#006",
                        "c1/o#007",
                        "c1/o#008",
                        "c1/o#009",
                        "c1/o#010");
        assertThat(pages).isEqualTo(3); // 10 items read 4 at a time: Limit counts items read

        ExecuteStatementResponse first =
                ddb.executeStatement(
                        b ->
                                b.statement(statement)
                                        .parameters(
                                                AttributeValue.fromS("c1"),
                                                AttributeValue.fromN("250"))
                                        .limit(4)
                                        .returnConsumedCapacity(ReturnConsumedCapacity.INDEXES));
        QueryResponse query =
                ddb.query(
                        b ->
                                b.tableName(table)
                                        .keyConditionExpression("PK = :p")
                                        .filterExpression("amount > :a")
                                        .expressionAttributeValues(
                                                Map.of(
                                                        ":p",
                                                        AttributeValue.fromS("c1"),
                                                        ":a",
                                                        AttributeValue.fromN("250")))
                                        .limit(4)
                                        .returnConsumedCapacity(ReturnConsumedCapacity.INDEXES));
        assertThat(capacity(first.consumedCapacity()))
                .isEqualTo(capacity(query.consumedCapacity()));
        assertThat(first.items()).hasSize(query.count());
        assertThat(first.lastEvaluatedKey()).isEqualTo(query.lastEvaluatedKey());
    }

    @Test
    void sortKeyConditionsBeginsWithOrderByAndNestedProjection() {
        assertThat(
                        sks(
                                select(
                                        "SELECT * FROM \""
                                                + table
                                                + "\" WHERE PK = 'c1' AND begins_with(SK, 'o#00')"
                                                + " ORDER BY SK DESC")))
                .containsExactly(
                        "c1/o#009",
                        "c1/o#008",
                        "c1/o#007",
                        "c1/o#006",
                        "c1/o#005",
                        "c1/o#004",
                        "c1/o#003",
                        "c1/o#002",
                        "c1/o#001");
        assertThat(
                        sks(
                                select(
                                        "SELECT * FROM \""
                                                + table
                                                + "\" WHERE PK = 'c1' AND SK BETWEEN 'o#004' AND"
                                                + " 'o#006'")))
                .containsExactly("c1/o#004", "c1/o#005", "c1/o#006");
        assertThat(sks(select("SELECT * FROM \"" + table + "\" WHERE 'o#009' < SK AND PK = 'c1'")))
                .containsExactly("c1/o#010");

        ExecuteStatementResponse nested =
                select(
                        "SELECT m.k[1], l[0], m.z, \"missing\" FROM \""
                                + table
                                + "\" WHERE PK = 'c2' AND SK = 'o#001'");
        assertThat(nested.items())
                .containsExactly(
                        Map.of(
                                "k[1]",
                                AttributeValue.fromS("two"),
                                "l[0]",
                                AttributeValue.fromN("7"),
                                "z",
                                AttributeValue.fromS("last")));
    }

    @Test
    void inAndOrOnThePartitionKeyReadEachKey() {
        ExecuteStatementResponse in =
                select(
                        "SELECT PK, SK FROM \""
                                + table
                                + "\" WHERE PK IN [?, 'c3'] AND SK = 'o#001'",
                        AttributeValue.fromS("c2"));
        assertThat(sks(in)).containsExactly("c2/o#001", "c3/o#001");
        // two GetItems of small items: 0.5 units each
        assertThat(in.consumedCapacity().capacityUnits()).isEqualTo(1.0);

        ExecuteStatementResponse or =
                select(
                        "SELECT PK, SK FROM \""
                                + table
                                + "\" WHERE (PK = 'c3' OR PK = 'c2') AND amount < 10 ORDER BY PK DESC");
        assertThat(sks(or)).containsExactly("c3/o#001", "c2/o#001");
    }

    @Test
    void indexReadsQueryTheIndex() {
        ExecuteStatementResponse r =
                select(
                        "SELECT PK, SK FROM \""
                                + table
                                + "\".\""
                                + BY_STATUS
                                + "\" WHERE status = 'open' AND amount >= 900");
        assertThat(sks(r)).containsExactly("c1/o#009", "c1/o#010");
        QueryResponse query =
                ddb.query(
                        b ->
                                b.tableName(table)
                                        .indexName(BY_STATUS)
                                        .keyConditionExpression("#s = :s")
                                        .filterExpression("amount >= :a")
                                        .expressionAttributeNames(Map.of("#s", "status"))
                                        .expressionAttributeValues(
                                                Map.of(
                                                        ":s",
                                                        AttributeValue.fromS("open"),
                                                        ":a",
                                                        AttributeValue.fromN("900")))
                                        .returnConsumedCapacity(ReturnConsumedCapacity.INDEXES));
        assertThat(capacity(r.consumedCapacity())).isEqualTo(capacity(query.consumedCapacity()));
        assertThat(r.consumedCapacity().globalSecondaryIndexes()).containsKey(BY_STATUS);

        assertValidation(
                        () ->
                                ddb.executeStatement(
                                        b ->
                                                b.statement(
                                                                "SELECT * FROM \""
                                                                        + table
                                                                        + "\".\""
                                                                        + BY_STATUS
                                                                        + "\" WHERE status = 'done'")
                                                        .consistentRead(true)))
                .hasMessageContaining(
                        "Strongly consistent read is not supported on Global Secondary Indexes");
    }

    @Test
    void noPartitionKeyIsAScanFilteredByTheWhereClause() {
        ExecuteStatementResponse r =
                select("SELECT PK, SK FROM \"" + table + "\" WHERE amount < 10 OR SK = 'o#010'");
        assertThat(sks(r)).containsExactlyInAnyOrder("c1/o#010", "c2/o#001", "c3/o#001");
        var scan =
                ddb.scan(
                        b ->
                                b.tableName(table)
                                        .filterExpression("amount < :a OR SK = :s")
                                        .expressionAttributeValues(
                                                Map.of(
                                                        ":a",
                                                        AttributeValue.fromN("10"),
                                                        ":s",
                                                        AttributeValue.fromS("o#010")))
                                        .returnConsumedCapacity(ReturnConsumedCapacity.INDEXES));
        assertThat(capacity(r.consumedCapacity())).isEqualTo(capacity(scan.consumedCapacity()));
        assertThat(select("SELECT * FROM \"" + table + "\"").items()).hasSize(12);
        assertThat(select("SELECT * FROM \"" + table + "\" WHERE m IS NOT MISSING").items())
                .hasSize(1);
    }

    @Test
    void refusedStatementsGetDynamoDbsMessages() {
        String q = "\"" + table + "\"";
        assertValidation(() -> select("SELEC * FROM " + q))
                .hasMessageContaining(
                        "Statement wasn't well formed, can't be processed: SELEC * FROM " + q);
        assertError(() -> select("SELECT * FROM \"NoSuchTable\""), "ResourceNotFoundException");
        assertValidation(() -> select("SELECT * FROM " + q + " WHERE PK = ?"))
                .hasMessageContaining("Number of parameters in request and statement don't match.");
        assertValidation(
                        () ->
                                select(
                                        "SELECT * FROM " + q + " WHERE PK = ?",
                                        AttributeValue.fromN("1")))
                .hasMessageContaining(
                        "Key attribute's data type should match its data type in table's schema:"
                                + " Key PK");
        assertValidation(() -> select("SELECT PK FROM " + q + " LIMIT 5"))
                .hasMessageContaining("Unsupported clause: LIMIT at 1:");
        assertValidation(() -> select("SELECT PK AS x FROM " + q + " WHERE PK = 'c1'"))
                .hasMessageContaining("Aliasing is not supported");
        assertValidation(() -> select("SELECT m.z, z FROM " + q + " WHERE PK = 'c1'"))
                .hasMessageContaining("Duplicate identifiers in select clause: z");
        assertValidation(() -> select("SELECT * FROM " + q + " ORDER BY SK"))
                .hasMessageContaining(
                        "Must have WHERE clause in the statement when using ORDER BY clause.");
        assertValidation(() -> select("SELECT * FROM " + q + " WHERE PK = 'c1' ORDER BY amount"))
                .hasMessageContaining(
                        "Variable reference amount in ORDER BY clause must be part of the primary"
                                + " key");
        assertValidation(
                        () ->
                                select(
                                        "EXISTS(SELECT * FROM "
                                                + q
                                                + " WHERE PK = 'c1' AND SK = 'x')"))
                .hasMessageContaining(
                        "EXISTS can only be used in ExecuteTransaction write requests.");
        assertValidation(
                        () ->
                                ddb.executeStatement(
                                        b ->
                                                b.statement("SELECT * FROM " + q)
                                                        .nextToken("garbage!")))
                .hasMessageContaining("Invalid NextToken");
        String token =
                ddb.executeStatement(b -> b.statement("SELECT * FROM " + q).limit(1)).nextToken();
        assertValidation(
                        () ->
                                ddb.executeStatement(
                                        b -> b.statement("SELECT PK FROM " + q).nextToken(token)))
                .hasMessageContaining("NextToken does not match request");
        assertValidation(
                        () -> ddb.executeStatement(b -> b.statement("SELECT * FROM " + q).limit(0)))
                .hasMessageContaining("Member must have value greater than or equal to 1");
    }
}
