package io.streamledger.local.it;

import static io.streamledger.local.it.Errors.assertValidation;
import static io.streamledger.local.it.Tables.key;
import static io.streamledger.local.it.Tables.n;
import static io.streamledger.local.it.Tables.s;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.streamledger.local.LocalDynamoDbExtension;
import java.net.URI;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeAction;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.AttributeValueUpdate;
import software.amazon.awssdk.services.dynamodb.model.ComparisonOperator;
import software.amazon.awssdk.services.dynamodb.model.Condition;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.ConditionalOperator;
import software.amazon.awssdk.services.dynamodb.model.ExpectedAttributeValue;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;
import software.amazon.awssdk.services.dynamodb.model.ReturnValue;
import software.amazon.awssdk.services.dynamodb.model.Select;

/**
 * Legacy (non-expression) parameters through the SDK v2 low-level API: KeyConditions, QueryFilter,
 * ScanFilter, Expected, AttributeUpdates, AttributesToGet and ConditionalOperator with every
 * ComparisonOperator, operand validation and the mixing error (AP02–AP06 reads, AP08/AP16 guards).
 */
@ExtendWith(LocalDynamoDbExtension.class)
class LegacyParametersITCase {
    private static DynamoDbClient ddb;
    private static String table;

    @BeforeAll
    static void setUp(URI endpoint) {
        ddb = Clients.dynamo(endpoint);
        table = Tables.pkSk(ddb, "Legacy");
        // one partition "P" with sort keys a..e and assorted attributes
        put("P", "a", "n", n("1"), "s", s("apple"), "ss", AttributeValue.fromSs(List.of("x", "y")));
        put("P", "b", "n", n("2"), "s", s("banana"), "l", AttributeValue.fromL(List.of(s("x"))));
        put("P", "c", "n", n("3"), "s", s("cherry"));
        put("P", "d", "n", n("4"));
        put("P", "e", "s", s("date"), "flag", AttributeValue.fromBool(true));
    }

    @AfterAll
    static void close() {
        ddb.close();
    }

    private static void put(String pk, String sk, Object... kv) {
        Map<String, AttributeValue> m = new HashMap<>(key(pk, sk));
        for (int i = 0; i < kv.length; i += 2) {
            m.put((String) kv[i], (AttributeValue) kv[i + 1]);
        }
        ddb.putItem(b -> b.tableName(table).item(m));
    }

    private static Condition cond(ComparisonOperator op, AttributeValue... values) {
        return Condition.builder().comparisonOperator(op).attributeValueList(values).build();
    }

    private static Map<String, Condition> partition(String pk) {
        Map<String, Condition> kc = new LinkedHashMap<>();
        kc.put("PK", cond(ComparisonOperator.EQ, s(pk)));
        return kc;
    }

    private static List<String> sortKeys(QueryResponse r) {
        return r.items().stream().map(i -> i.get("SK").s()).collect(Collectors.toList());
    }

    private static List<String> filtered(String attr, Condition c) {
        return sortKeys(
                ddb.query(
                        b ->
                                b.tableName(table)
                                        .keyConditions(partition("P"))
                                        .queryFilter(Map.of(attr, c))));
    }

    @Test
    void keyConditionsSelectTheSortKeyRange() {
        Map<String, Condition> kc = partition("P");
        kc.put("SK", cond(ComparisonOperator.BETWEEN, s("b"), s("d")));
        assertThat(sortKeys(ddb.query(b -> b.tableName(table).keyConditions(kc))))
                .containsExactly("b", "c", "d");
        kc.put("SK", cond(ComparisonOperator.GT, s("c")));
        assertThat(
                        sortKeys(
                                ddb.query(
                                        b ->
                                                b.tableName(table)
                                                        .keyConditions(kc)
                                                        .scanIndexForward(false))))
                .containsExactly("e", "d");
        kc.put("SK", cond(ComparisonOperator.LE, s("b")));
        assertThat(sortKeys(ddb.query(b -> b.tableName(table).keyConditions(kc))))
                .containsExactly("a", "b");
        kc.put("SK", cond(ComparisonOperator.BEGINS_WITH, s("c")));
        assertThat(sortKeys(ddb.query(b -> b.tableName(table).keyConditions(kc))))
                .containsExactly("c");
        assertThat(sortKeys(ddb.query(b -> b.tableName(table).keyConditions(partition("P")))))
                .containsExactly("a", "b", "c", "d", "e");
    }

    @Test
    void keyConditionsRefuseNonIndexableOperatorsAndMissingPartitionKey() {
        Map<String, Condition> kc = partition("P");
        kc.put("SK", cond(ComparisonOperator.NE, s("b")));
        assertValidation(() -> ddb.query(b -> b.tableName(table).keyConditions(kc)))
                .hasMessageContaining(
                        "Attempted conditional constraint is not an indexable operation");
        assertValidation(
                        () ->
                                ddb.query(
                                        b ->
                                                b.tableName(table)
                                                        .keyConditions(
                                                                Map.of(
                                                                        "SK",
                                                                        cond(
                                                                                ComparisonOperator
                                                                                        .EQ,
                                                                                s("a"))))))
                .hasMessageContaining("Query condition missed key schema element: PK");
        assertValidation(
                        () ->
                                ddb.query(
                                        b ->
                                                b.tableName(table)
                                                        .keyConditions(
                                                                Map.of(
                                                                        "PK",
                                                                        cond(
                                                                                ComparisonOperator
                                                                                        .BEGINS_WITH,
                                                                                s("P"))))))
                .hasMessageContaining("Query key condition not supported");
    }

    @Test
    void queryFilterSupportsEveryComparisonOperator() {
        assertThat(filtered("n", cond(ComparisonOperator.EQ, n("2")))).containsExactly("b");
        assertThat(filtered("n", cond(ComparisonOperator.NE, n("2"))))
                .containsExactly("a", "c", "d", "e");
        assertThat(filtered("n", cond(ComparisonOperator.LE, n("2")))).containsExactly("a", "b");
        assertThat(filtered("n", cond(ComparisonOperator.LT, n("2")))).containsExactly("a");
        assertThat(filtered("n", cond(ComparisonOperator.GE, n("3")))).containsExactly("c", "d");
        assertThat(filtered("n", cond(ComparisonOperator.GT, n("3")))).containsExactly("d");
        assertThat(filtered("s", cond(ComparisonOperator.NOT_NULL)))
                .containsExactly("a", "b", "c", "e");
        assertThat(filtered("s", cond(ComparisonOperator.NULL))).containsExactly("d");
        assertThat(filtered("s", cond(ComparisonOperator.CONTAINS, s("an")))).containsExactly("b");
        assertThat(filtered("ss", cond(ComparisonOperator.CONTAINS, s("y")))).containsExactly("a");
        assertThat(filtered("l", cond(ComparisonOperator.CONTAINS, s("x")))).containsExactly("b");
        // NOT_CONTAINS is true only where the attribute exists
        assertThat(filtered("s", cond(ComparisonOperator.NOT_CONTAINS, s("an"))))
                .containsExactly("a", "c", "e");
        assertThat(filtered("s", cond(ComparisonOperator.BEGINS_WITH, s("ch"))))
                .containsExactly("c");
        assertThat(filtered("n", cond(ComparisonOperator.IN, n("1"), n("4"), n("9"))))
                .containsExactly("a", "d");
        assertThat(filtered("n", cond(ComparisonOperator.BETWEEN, n("2"), n("3"))))
                .containsExactly("b", "c");
        assertThat(filtered("flag", cond(ComparisonOperator.EQ, AttributeValue.fromBool(true))))
                .containsExactly("e");
        // a value of another type never matches an ordering operator
        assertThat(filtered("n", cond(ComparisonOperator.GT, s("0")))).isEmpty();
    }

    @Test
    void conditionalOperatorOrCombinesFilterEntries() {
        Map<String, Condition> filter = new LinkedHashMap<>();
        filter.put("n", cond(ComparisonOperator.EQ, n("1")));
        filter.put("s", cond(ComparisonOperator.EQ, s("date")));
        QueryResponse or =
                ddb.query(
                        b ->
                                b.tableName(table)
                                        .keyConditions(partition("P"))
                                        .queryFilter(filter)
                                        .conditionalOperator(ConditionalOperator.OR));
        assertThat(sortKeys(or)).containsExactly("a", "e");
        assertThat(or.scannedCount()).isEqualTo(5);
        QueryResponse and =
                ddb.query(
                        b -> b.tableName(table).keyConditions(partition("P")).queryFilter(filter));
        assertThat(and.items()).isEmpty();
    }

    @Test
    void operandCountAndTypeAreValidated() {
        assertValidation(() -> filtered("n", cond(ComparisonOperator.EQ)))
                .hasMessageContaining(
                        "Invalid number of argument(s) for the EQ ComparisonOperator");
        assertValidation(() -> filtered("n", cond(ComparisonOperator.NULL, n("1"))))
                .hasMessageContaining(
                        "Invalid number of argument(s) for the NULL ComparisonOperator");
        assertValidation(() -> filtered("n", cond(ComparisonOperator.BETWEEN, n("1"))))
                .hasMessageContaining(
                        "Invalid number of argument(s) for the BETWEEN ComparisonOperator");
        assertValidation(() -> filtered("n", cond(ComparisonOperator.IN)))
                .hasMessageContaining(
                        "Invalid number of argument(s) for the IN ComparisonOperator");
        assertValidation(
                        () ->
                                filtered(
                                        "ss",
                                        cond(
                                                ComparisonOperator.CONTAINS,
                                                AttributeValue.fromSs(List.of("x")))))
                .hasMessageContaining(
                        "ComparisonOperator CONTAINS is not valid for SS AttributeValue type");
        assertValidation(
                        () ->
                                filtered(
                                        "n",
                                        cond(ComparisonOperator.LT, AttributeValue.fromBool(true))))
                .hasMessageContaining(
                        "ComparisonOperator LT is not valid for BOOL AttributeValue type");
        assertValidation(() -> filtered("n", cond(ComparisonOperator.BEGINS_WITH, n("1"))))
                .hasMessageContaining(
                        "ComparisonOperator BEGINS_WITH is not valid for N AttributeValue type");
        assertValidation(() -> filtered("n", cond(ComparisonOperator.BETWEEN, n("1"), s("2"))))
                .hasMessageContaining(
                        "AttributeValues inside AttributeValueList must be of same type");
        assertValidation(() -> filtered("SK", cond(ComparisonOperator.EQ, s("a"))))
                .hasMessageContaining(
                        "QueryFilter can only contain non-primary key attributes: Primary key attribute: SK");
    }

    @Test
    void scanFilterAndAttributesToGet() {
        var r =
                ddb.scan(
                        b ->
                                b.tableName(table)
                                        .scanFilter(
                                                Map.of("n", cond(ComparisonOperator.GE, n("3"))))
                                        .attributesToGet("SK", "n"));
        assertThat(r.items())
                .containsExactlyInAnyOrder(
                        Map.of("SK", s("c"), "n", n("3")), Map.of("SK", s("d"), "n", n("4")));
        var count =
                ddb.scan(
                        b ->
                                b.tableName(table)
                                        .scanFilter(Map.of("s", cond(ComparisonOperator.NOT_NULL)))
                                        .select(Select.COUNT));
        assertThat(count.count()).isEqualTo(4);
        assertThat(count.items()).isEmpty();
        var got =
                ddb.getItem(
                        b -> b.tableName(table).key(key("P", "a")).attributesToGet("s", "missing"));
        assertThat(got.item()).isEqualTo(Map.of("s", s("apple")));
    }

    @Test
    void expectedValueExistsAndComparisonOperator() {
        String pk = "exp";
        ddb.putItem(
                b ->
                        b.tableName(table)
                                .item(Map.of("PK", s(pk), "SK", s("1"), "v", n("1")))
                                .expected(
                                        Map.of(
                                                "PK",
                                                ExpectedAttributeValue.builder()
                                                        .exists(false)
                                                        .build())));
        // a second create-if-absent fails
        assertThatThrownBy(
                        () ->
                                ddb.putItem(
                                        b ->
                                                b.tableName(table)
                                                        .item(Map.of("PK", s(pk), "SK", s("1")))
                                                        .expected(
                                                                Map.of(
                                                                        "PK",
                                                                        ExpectedAttributeValue
                                                                                .builder()
                                                                                .exists(false)
                                                                                .build()))))
                .isInstanceOf(ConditionalCheckFailedException.class);
        // Value alone means "equals"
        ddb.putItem(
                b ->
                        b.tableName(table)
                                .item(Map.of("PK", s(pk), "SK", s("1"), "v", n("2")))
                                .expected(
                                        Map.of(
                                                "v",
                                                ExpectedAttributeValue.builder()
                                                        .value(n("1"))
                                                        .build())));
        // ComparisonOperator form, ORed with a failing entry
        Map<String, ExpectedAttributeValue> either = new LinkedHashMap<>();
        either.put(
                "v",
                ExpectedAttributeValue.builder()
                        .comparisonOperator(ComparisonOperator.GT)
                        .attributeValueList(n("5"))
                        .build());
        either.put(
                "w",
                ExpectedAttributeValue.builder()
                        .comparisonOperator(ComparisonOperator.NULL)
                        .build());
        ddb.deleteItem(
                b ->
                        b.tableName(table)
                                .key(key(pk, "1"))
                                .expected(either)
                                .conditionalOperator(ConditionalOperator.OR));
        assertThat(ddb.getItem(b -> b.tableName(table).key(key(pk, "1"))).hasItem()).isFalse();
        // AND of the same entries fails
        ddb.putItem(b -> b.tableName(table).item(Map.of("PK", s(pk), "SK", s("1"), "v", n("2"))));
        assertThatThrownBy(
                        () ->
                                ddb.deleteItem(
                                        b -> b.tableName(table).key(key(pk, "1")).expected(either)))
                .isInstanceOf(ConditionalCheckFailedException.class);
    }

    @Test
    void expectedCombinationsAreValidated() {
        assertValidation(
                        () ->
                                deleteExpecting(
                                        ExpectedAttributeValue.builder().exists(true).build()))
                .hasMessageContaining("Value must be provided when Exists is true");
        assertValidation(
                        () ->
                                deleteExpecting(
                                        ExpectedAttributeValue.builder()
                                                .exists(false)
                                                .value(n("1"))
                                                .build()))
                .hasMessageContaining("Value cannot be used when Exists is false");
        assertValidation(
                        () ->
                                deleteExpecting(
                                        ExpectedAttributeValue.builder()
                                                .value(n("1"))
                                                .comparisonOperator(ComparisonOperator.EQ)
                                                .build()))
                .hasMessageContaining("Value and ComparisonOperator cannot be used together");
    }

    @Test
    void attributeUpdatesPutAddDelete() {
        String pk = "upd";
        Map<String, AttributeValueUpdate> u = new LinkedHashMap<>();
        u.put("name", AttributeValueUpdate.builder().value(s("first")).build()); // PUT by default
        u.put(
                "count",
                AttributeValueUpdate.builder().action(AttributeAction.ADD).value(n("5")).build());
        u.put(
                "tags",
                AttributeValueUpdate.builder()
                        .action(AttributeAction.ADD)
                        .value(AttributeValue.fromSs(List.of("a", "b", "c")))
                        .build());
        var created =
                ddb.updateItem(
                        b ->
                                b.tableName(table)
                                        .key(key(pk, "1"))
                                        .attributeUpdates(u)
                                        .returnValues(ReturnValue.ALL_NEW));
        assertThat(created.attributes())
                .containsEntry("name", s("first"))
                .containsEntry("count", n("5"))
                .containsEntry("tags", AttributeValue.fromSs(List.of("a", "b", "c")));
        Map<String, AttributeValueUpdate> u2 = new LinkedHashMap<>();
        u2.put("name", AttributeValueUpdate.builder().action(AttributeAction.DELETE).build());
        u2.put(
                "count",
                AttributeValueUpdate.builder().action(AttributeAction.ADD).value(n("-2")).build());
        u2.put(
                "tags",
                AttributeValueUpdate.builder()
                        .action(AttributeAction.DELETE)
                        .value(AttributeValue.fromSs(List.of("b")))
                        .build());
        var updated =
                ddb.updateItem(
                        b ->
                                b.tableName(table)
                                        .key(key(pk, "1"))
                                        .attributeUpdates(u2)
                                        .expected(
                                                Map.of(
                                                        "count",
                                                        ExpectedAttributeValue.builder()
                                                                .value(n("5"))
                                                                .build()))
                                        .returnValues(ReturnValue.UPDATED_NEW));
        assertThat(updated.attributes())
                .isEqualTo(
                        Map.of("count", n("3"), "tags", AttributeValue.fromSs(List.of("a", "c"))));
        assertThat(ddb.getItem(b -> b.tableName(table).key(key(pk, "1"))).item())
                .doesNotContainKey("name");
    }

    private static void update(String attr, AttributeValueUpdate u) {
        ddb.updateItem(
                b -> b.tableName(table).key(key("v", "1")).attributeUpdates(Map.of(attr, u)));
    }

    private static void deleteExpecting(ExpectedAttributeValue e) {
        ddb.deleteItem(b -> b.tableName(table).key(key("x", "1")).expected(Map.of("v", e)));
    }

    @Test
    void attributeUpdatesAreValidated() {
        assertValidation(
                        () ->
                                update(
                                        "x",
                                        AttributeValueUpdate.builder()
                                                .action(AttributeAction.PUT)
                                                .build()))
                .hasMessageContaining(
                        "Only DELETE action is allowed when no attribute value is specified");
        assertValidation(
                        () ->
                                update(
                                        "x",
                                        AttributeValueUpdate.builder()
                                                .action(AttributeAction.ADD)
                                                .value(s("no"))
                                                .build()))
                .hasMessageContaining("ADD action is not supported for the type S");
        assertValidation(() -> update("SK", AttributeValueUpdate.builder().value(s("2")).build()))
                .hasMessageContaining(
                        "Cannot update attribute SK. This attribute is part of the key");
    }

    @Test
    void mixingLegacyAndExpressionParametersIsRefused() {
        Map<String, Condition> kc = partition("P");
        assertValidation(
                        () ->
                                ddb.query(
                                        b ->
                                                b.tableName(table)
                                                        .keyConditions(kc)
                                                        .keyConditionExpression("PK = :p")
                                                        .expressionAttributeValues(
                                                                Map.of(":p", s("P")))))
                .hasMessageContaining(
                        "Can not use both expression and non-expression parameters in the same request:"
                                + " Non-expression parameters: {KeyConditions} Expression parameters:"
                                + " {KeyConditionExpression}");
        assertValidation(
                        () ->
                                ddb.updateItem(
                                        b ->
                                                b.tableName(table)
                                                        .key(key("m", "1"))
                                                        .attributeUpdates(
                                                                Map.of(
                                                                        "a",
                                                                        AttributeValueUpdate
                                                                                .builder()
                                                                                .value(n("1"))
                                                                                .build()))
                                                        .conditionExpression(
                                                                "attribute_not_exists(PK)")))
                .hasMessageContaining(
                        "Non-expression parameters: {AttributeUpdates} Expression parameters: {ConditionExpression}");
        assertValidation(
                        () ->
                                ddb.scan(
                                        b ->
                                                b.tableName(table)
                                                        .attributesToGet("n")
                                                        .scanFilter(
                                                                Map.of(
                                                                        "n",
                                                                        cond(
                                                                                ComparisonOperator
                                                                                        .NOT_NULL)))
                                                        .filterExpression("attribute_exists(n)")))
                .hasMessageContaining(
                        "Non-expression parameters: {AttributesToGet, ScanFilter} Expression parameters:"
                                + " {FilterExpression}");
    }
}
