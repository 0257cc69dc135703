package io.streamledger.local.it;

import static io.streamledger.local.it.Errors.assertError;
import static io.streamledger.local.it.Errors.assertValidation;
import static io.streamledger.local.it.Tables.key;
import static io.streamledger.local.it.Tables.n;
import static io.streamledger.local.it.Tables.s;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.streamledger.local.LocalDynamoDbExtension;
import java.net.URI;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.ReturnValue;
import software.amazon.awssdk.services.dynamodb.model.ReturnValuesOnConditionCheckFailure;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;

/**
 * ConditionExpression, UpdateExpression, ProjectionExpression, names/values rules and ReturnValues
 * through the SDK (AP08/AP13/AP16/AP17 guarded writes).
 */
@ExtendWith(LocalDynamoDbExtension.class)
class ExpressionsITCase {
    private static DynamoDbClient ddb;
    private static String table;

    @BeforeAll
    static void setUp(URI endpoint) {
        ddb = Clients.dynamo(endpoint);
        table = Tables.pkSk(ddb, "Expr");
    }

    @AfterAll
    static void close() {
        ddb.close();
    }

    private static Map<String, AttributeValue> item(String pk, Object... kv) {
        Map<String, AttributeValue> m = new HashMap<>(key(pk, "S"));
        for (int i = 0; i < kv.length; i += 2) {
            m.put((String) kv[i], (AttributeValue) kv[i + 1]);
        }
        return m;
    }

    private static Map<String, AttributeValue> get(String pk) {
        return ddb.getItem(b -> b.tableName(table).key(key(pk, "S")).consistentRead(true)).item();
    }

    private static void put(Map<String, AttributeValue> item) {
        ddb.putItem(b -> b.tableName(table).item(item));
    }

    private static boolean conditionHolds(
            String pk, String cond, Map<String, AttributeValue> values) {
        try {
            ddb.putItem(
                    b -> {
                        b.tableName(table).item(get(pk)).conditionExpression(cond);
                        if (!values.isEmpty()) {
                            b.expressionAttributeValues(values);
                        }
                    });
            return true;
        } catch (ConditionalCheckFailedException e) {
            return false;
        }
    }

    @Test
    void attributeNotExistsGuardsCreation() {
        put(item("guard", "v", n("1")));
        assertThatThrownBy(
                        () ->
                                ddb.putItem(
                                        b ->
                                                b.tableName(table)
                                                        .item(item("guard", "v", n("2")))
                                                        .conditionExpression(
                                                                "attribute_not_exists(PK)")))
                .isInstanceOf(ConditionalCheckFailedException.class)
                .hasMessageContaining("The conditional request failed");
        assertThat(get("guard")).containsEntry("v", n("1"));
    }

    @Test
    void conditionFailureReturnsOldItemWhenAsked() {
        put(item("allold", "version", n("3")));
        assertThatThrownBy(
                        () ->
                                ddb.putItem(
                                        b ->
                                                b.tableName(table)
                                                        .item(item("allold", "version", n("5")))
                                                        .conditionExpression("version = :v")
                                                        .expressionAttributeValues(
                                                                Map.of(":v", n("4")))
                                                        .returnValuesOnConditionCheckFailure(
                                                                ReturnValuesOnConditionCheckFailure
                                                                        .ALL_OLD)))
                .isInstanceOfSatisfying(
                        ConditionalCheckFailedException.class,
                        e -> assertThat(e.item()).containsEntry("version", n("3")));
    }

    @Test
    void everyConditionFunctionAndOperator() {
        put(
                item(
                        "cond",
                        "status",
                        s("READY"),
                        "amount",
                        n("10.5"),
                        "tags",
                        AttributeValue.fromSs(List.of("a", "b")),
                        "doc",
                        AttributeValue.fromM(
                                Map.of(
                                        "lns",
                                        AttributeValue.fromL(
                                                List.of(
                                                        AttributeValue.fromM(Map.of("qty", n("2"))),
                                                        AttributeValue.fromM(
                                                                Map.of("qty", n("3")))))))));
        Map<String, AttributeValue> none = Map.of();
        assertThat(conditionHolds("cond", "attribute_exists(amount)", none)).isTrue();
        assertThat(conditionHolds("cond", "attribute_not_exists(amount)", none)).isFalse();
        assertThat(conditionHolds("cond", "attribute_type(amount, :t)", Map.of(":t", s("N"))))
                .isTrue();
        assertThat(conditionHolds("cond", "attribute_type(amount, :t)", Map.of(":t", s("S"))))
                .isFalse();
        assertThat(conditionHolds("cond", "begins_with(PK, :p)", Map.of(":p", s("co")))).isTrue();
        assertThat(conditionHolds("cond", "contains(tags, :t)", Map.of(":t", s("b")))).isTrue();
        assertThat(conditionHolds("cond", "contains(tags, :t)", Map.of(":t", s("z")))).isFalse();
        assertThat(conditionHolds("cond", "size(tags) = :two", Map.of(":two", n("2")))).isTrue();
        assertThat(
                        conditionHolds(
                                "cond",
                                "amount BETWEEN :a AND :b",
                                Map.of(":a", n("10"), ":b", n("11"))))
                .isTrue();
        assertThat(
                        conditionHolds(
                                "cond",
                                "amount IN (:a, :b)",
                                Map.of(":a", n("1"), ":b", n("10.50"))))
                .isTrue();
        assertThat(
                        conditionHolds(
                                "cond",
                                "amount > :a AND amount <= :b",
                                Map.of(":a", n("10"), ":b", n("10.5"))))
                .isTrue();
        assertThat(
                        conditionHolds(
                                "cond",
                                "amount < :a OR NOT (amount <> :b)",
                                Map.of(":a", n("1"), ":b", n("10.5"))))
                .isTrue();
        assertThat(conditionHolds("cond", "doc.lns[1].qty = :q", Map.of(":q", n("3")))).isTrue();
        assertThat(conditionHolds("cond", "doc.lns[5].qty = :q", Map.of(":q", n("3")))).isFalse();
        assertThat(conditionHolds("cond", "absent <> :q", Map.of(":q", n("3")))).isTrue();
        assertThat(conditionHolds("cond", "amount = :q", Map.of(":q", s("10.5")))).isFalse();
    }

    @Test
    void reservedWordsNeedNamePlaceholders() {
        put(item("reserved", "status", s("NEW")));
        assertValidation(
                        () ->
                                ddb.putItem(
                                        b ->
                                                b.tableName(table)
                                                        .item(get("reserved"))
                                                        .conditionExpression("status = :s")
                                                        .expressionAttributeValues(
                                                                Map.of(":s", s("NEW")))))
                .hasMessageContaining("reserved keyword: status");
        ddb.putItem(
                b ->
                        b.tableName(table)
                                .item(get("reserved"))
                                .conditionExpression("#st = :s")
                                .expressionAttributeNames(Map.of("#st", "status"))
                                .expressionAttributeValues(Map.of(":s", s("NEW"))));
    }

    @Test
    void unusedAndUndefinedPlaceholdersAreRejected() {
        put(item("unused"));
        assertValidation(
                        () ->
                                ddb.putItem(
                                        b ->
                                                b.tableName(table)
                                                        .item(get("unused"))
                                                        .conditionExpression("attribute_exists(PK)")
                                                        .expressionAttributeValues(
                                                                Map.of(":x", s("1")))))
                .hasMessageContaining("unused in expressions: keys: {:x}");
        assertValidation(
                        () ->
                                ddb.putItem(
                                        b ->
                                                b.tableName(table)
                                                        .item(get("unused"))
                                                        .conditionExpression("attribute_exists(#a)")
                                                        .expressionAttributeNames(
                                                                Map.of("#a", "PK", "#b", "x"))))
                .hasMessageContaining("unused in expressions: keys: {#b}");
        assertValidation(
                        () ->
                                ddb.putItem(
                                        b ->
                                                b.tableName(table)
                                                        .item(get("unused"))
                                                        .conditionExpression("PK = :nope")))
                .hasMessageContaining("not defined; attribute value: :nope");
        assertValidation(
                        () ->
                                ddb.putItem(
                                        b ->
                                                b.tableName(table)
                                                        .item(get("unused"))
                                                        .conditionExpression("PK = = :nope")
                                                        .expressionAttributeValues(
                                                                Map.of(":nope", s("1")))))
                .hasMessageContaining("Syntax error");
    }

    private static Map<String, AttributeValue> update(
            String pk, String expr, Map<String, AttributeValue> values, ReturnValue rv) {
        UpdateItemRequest.Builder b =
                UpdateItemRequest.builder()
                        .tableName(table)
                        .key(key(pk, "S"))
                        .updateExpression(expr)
                        .returnValues(rv);
        if (!values.isEmpty()) {
            b.expressionAttributeValues(values);
        }
        return ddb.updateItem(b.build()).attributes();
    }

    @Test
    void updateExpressionActions() {
        put(
                item(
                        "upd",
                        "balance",
                        n("100.10"),
                        "lst",
                        AttributeValue.fromL(List.of(s("a"), s("b"), s("c"))),
                        "tags",
                        AttributeValue.fromSs(List.of("x", "y")),
                        "extra",
                        AttributeValue.fromSs(List.of("m", "n")),
                        "gone",
                        s("bye")));
        Map<String, AttributeValue> out =
                update(
                        "upd",
                        "SET balance = balance - :d, created = if_not_exists(created, :now),"
                                + " lst = list_append(lst, :more) REMOVE gone ADD cnt :one,"
                                + " tags :z DELETE extra :x",
                        Map.of(
                                ":d", n("0.15"),
                                ":now", s("t0"),
                                ":more", AttributeValue.fromL(List.of(s("d"))),
                                ":one", n("1"),
                                ":z", AttributeValue.fromSs(List.of("z")),
                                ":x", AttributeValue.fromSs(List.of("m"))),
                        ReturnValue.ALL_NEW);
        assertThat(out.get("balance").n()).isEqualTo("99.95");
        assertThat(out.get("created").s()).isEqualTo("t0");
        assertThat(out.get("lst").l()).containsExactly(s("a"), s("b"), s("c"), s("d"));
        assertThat(out).doesNotContainKey("gone");
        assertThat(out.get("cnt").n()).isEqualTo("1");
        assertThat(out.get("tags").ss()).containsExactlyInAnyOrder("x", "y", "z");
        assertThat(out.get("extra").ss()).containsExactly("n");

        Map<String, AttributeValue> again =
                update(
                        "upd",
                        "SET created = if_not_exists(created, :later) REMOVE lst[0], lst[2]",
                        Map.of(":later", s("t1")),
                        ReturnValue.UPDATED_NEW);
        assertThat(again.get("created").s()).isEqualTo("t0");
        assertThat(get("upd").get("lst").l()).containsExactly(s("b"), s("d"));
    }

    @Test
    void updateReturnValuesAndUpsert() {
        Map<String, AttributeValue> created =
                update("upsert", "SET v = :v", Map.of(":v", n("1")), ReturnValue.UPDATED_OLD);
        assertThat(created).isEmpty();
        Map<String, AttributeValue> old =
                update("upsert", "SET v = :v", Map.of(":v", n("2")), ReturnValue.UPDATED_OLD);
        assertThat(old).isEqualTo(Map.of("v", n("1")));
        Map<String, AttributeValue> allOld =
                update("upsert", "SET w = :v", Map.of(":v", n("3")), ReturnValue.ALL_OLD);
        assertThat(allOld).isEqualTo(item("upsert", "v", n("2")));
    }

    @Test
    void exactDecimalArithmetic() {
        put(item("money", "amt", n("0.1")));
        for (int i = 0; i < 10; i++) {
            update("money", "SET amt = amt + :c", Map.of(":c", n("0.1")), ReturnValue.NONE);
        }
        assertThat(get("money").get("amt").n()).isEqualTo("1.1");
        update(
                "money",
                "ADD amt :big",
                Map.of(":big", n("99999999999999999999999999999999999")),
                ReturnValue.NONE);
        assertThat(get("money").get("amt").n()).isEqualTo("100000000000000000000000000000000000.1");
    }

    @Test
    void updateRejectsKeysOverlapsAndBadTypes() {
        put(item("bad", "s", s("text"), "m", AttributeValue.fromM(Map.of("a", n("1")))));
        assertValidation(() -> update("bad", "SET SK = :v", Map.of(":v", s("x")), ReturnValue.NONE))
                .hasMessageContaining("part of the key");
        assertValidation(
                        () ->
                                update(
                                        "bad",
                                        "SET m = :v, m.a = :v",
                                        Map.of(":v", n("1")),
                                        ReturnValue.NONE))
                .hasMessageContaining("overlap");
        assertValidation(
                        () ->
                                update(
                                        "bad",
                                        "SET s = s + :v",
                                        Map.of(":v", n("1")),
                                        ReturnValue.NONE))
                .hasMessageContaining("operand");
        assertValidation(
                        () -> update("bad", "SET x.y = :v", Map.of(":v", n("1")), ReturnValue.NONE))
                .hasMessageContaining("document path provided in the update expression is invalid");
        assertValidation(
                        () ->
                                update(
                                        "bad",
                                        "SET z = nope + :v",
                                        Map.of(":v", n("1")),
                                        ReturnValue.NONE))
                .hasMessageContaining("does not exist");
    }

    @Test
    void projectionExpressionOnNestedPaths() {
        put(
                item(
                        "proj",
                        "a",
                        n("1"),
                        "b",
                        n("2"),
                        "doc",
                        AttributeValue.fromM(
                                Map.of(
                                        "x", s("keep"),
                                        "y", s("drop"),
                                        "l",
                                                AttributeValue.fromL(
                                                        List.of(n("0"), n("1"), n("2")))))));
        Map<String, AttributeValue> got =
                ddb.getItem(
                                b ->
                                        b.tableName(table)
                                                .key(key("proj", "S"))
                                                .projectionExpression("a, doc.x, doc.l[2], #n")
                                                .expressionAttributeNames(Map.of("#n", "nothere")))
                        .item();
        assertThat(got)
                .isEqualTo(
                        Map.of(
                                "a",
                                n("1"),
                                "doc",
                                AttributeValue.fromM(
                                        Map.of(
                                                "x",
                                                s("keep"),
                                                "l",
                                                AttributeValue.fromL(List.of(n("2")))))));
    }

    @Test
    void deleteWithCondition() {
        put(item("delc", "state", s("OPEN")));
        assertError(
                () ->
                        ddb.deleteItem(
                                b ->
                                        b.tableName(table)
                                                .key(key("delc", "S"))
                                                .conditionExpression("#s = :closed")
                                                .expressionAttributeNames(Map.of("#s", "state"))
                                                .expressionAttributeValues(
                                                        Map.of(":closed", s("CLOSED")))),
                "ConditionalCheckFailedException");
        assertThat(get("delc")).isNotEmpty();
    }
}
