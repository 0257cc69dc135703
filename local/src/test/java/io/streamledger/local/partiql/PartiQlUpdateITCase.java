package io.streamledger.local.partiql;

import static io.streamledger.local.it.Errors.assertValidation;
import static io.streamledger.local.partiql.PartiQlFixture.capacity;
import static io.streamledger.local.partiql.PartiQlFixture.item;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.ExecuteStatementResponse;
import software.amazon.awssdk.services.dynamodb.model.ReturnConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.ReturnValue;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemResponse;

/**
 * PartiQL UPDATE through the real SDK v2: an UpdateItem of an existing item guarded by the WHERE
 * clause's condition — the AP13/AP16 version-guarded state move of the sinks — with SET (values,
 * {@code a = a + ?}, list_append, set_add, set_delete, nested paths) and REMOVE; same item,
 * capacity and stream records as the equivalent UpdateItem; ConditionalCheckFailedException (with
 * the item under ALL_OLD) when the guard fails or the item does not exist.
 */
class PartiQlUpdateITCase {
    @RegisterExtension static final PartiQlFixture FIXTURE = new PartiQlFixture();

    private static DynamoDbClient ddb;

    @BeforeAll
    static void clients() {
        ddb = FIXTURE.ddb();
    }

    private static Map<String, AttributeValue> seed() {
        return item(
                "c1",
                "o#1",
                "status",
                "open",
                "version",
                1,
                "qty",
                10,
                "l",
                AttributeValue.fromL(List.of(AttributeValue.fromN("1"))),
                "tags",
                AttributeValue.fromSs(List.of("a", "b")),
                "m",
                AttributeValue.fromM(Map.of("x", AttributeValue.fromS("y"))),
                "gone",
                "soon");
    }

    private static Map<String, AttributeValue> get(String table) {
        return ddb.getItem(b -> b.tableName(table).key(item("c1", "o#1")).consistentRead(true))
                .item();
    }

    @Test
    void updateIsAnUpdateItemOfAnExistingItem() {
        String partiql = FIXTURE.table("UpdA");
        String items = FIXTURE.table("UpdB");
        ddb.putItem(b -> b.tableName(partiql).item(seed()));
        ddb.putItem(b -> b.tableName(items).item(seed()));

        ExecuteStatementResponse r =
                FIXTURE.execute(
                        "UPDATE \""
                                + partiql
                                + "\" SET status = 'done', version = version + ?, qty = qty - 1"
                                + " SET l = list_append(l, [2, 'three']) SET m.x = ?"
                                + " SET tags = set_add(tags, <<'c'>>) REMOVE gone"
                                + " WHERE PK = 'c1' AND SK = 'o#1' AND version = ?",
                        AttributeValue.fromN("1"),
                        AttributeValue.fromS("z"),
                        AttributeValue.fromN("1"));
        assertThat(r.items()).isEmpty();
        UpdateItemResponse u =
                ddb.updateItem(
                        b ->
                                b.tableName(items)
                                        .key(item("c1", "o#1"))
                                        .updateExpression(
                                                "SET #s = :done, version = version + :one, qty ="
                                                        + " qty - :one, l = list_append(l, :more),"
                                                        + " m.x = :z REMOVE gone ADD tags :c")
                                        .conditionExpression(
                                                "attribute_exists(PK) AND version = :one")
                                        .expressionAttributeNames(Map.of("#s", "status"))
                                        .expressionAttributeValues(
                                                Map.of(
                                                        ":done",
                                                        AttributeValue.fromS("done"),
                                                        ":one",
                                                        AttributeValue.fromN("1"),
                                                        ":more",
                                                        AttributeValue.fromL(
                                                                List.of(
                                                                        AttributeValue.fromN("2"),
                                                                        AttributeValue.fromS(
                                                                                "three"))),
                                                        ":z",
                                                        AttributeValue.fromS("z"),
                                                        ":c",
                                                        AttributeValue.fromSs(List.of("c"))))
                                        .returnConsumedCapacity(ReturnConsumedCapacity.INDEXES));
        assertThat(capacity(r.consumedCapacity())).isEqualTo(capacity(u.consumedCapacity()));
        assertThat(r.consumedCapacity().globalSecondaryIndexes()).containsKey("byStatus");
        assertThat(get(partiql)).isEqualTo(get(items));
        assertThat(get(partiql).get("version")).isEqualTo(AttributeValue.fromN("2"));

        FIXTURE.execute(
                "UPDATE \""
                        + partiql
                        + "\" SET tags = set_delete(tags, <<'a'>>) REMOVE l[0], \"m\".x"
                        + " WHERE PK = 'c1' AND SK = 'o#1'");
        ddb.updateItem(
                b ->
                        b.tableName(items)
                                .key(item("c1", "o#1"))
                                .updateExpression("DELETE tags :a REMOVE l[0], m.x")
                                .conditionExpression("attribute_exists(PK)")
                                .expressionAttributeValues(
                                        Map.of(":a", AttributeValue.fromSs(List.of("a")))));
        assertThat(get(partiql)).isEqualTo(get(items));
        FIXTURE.assertSameChanges(partiql, items);
        FIXTURE.assertSameStreamRecords(partiql, items);
    }

    @Test
    void aFailedGuardIsAConditionalCheckFailedWithTheItemUnderAllOld() {
        String t = FIXTURE.table("UpdGuard");
        ddb.putItem(b -> b.tableName(t).item(seed()));
        String stale =
                "UPDATE \"" + t + "\" SET version = ? WHERE PK = ? AND SK = ? AND version = ?";
        AttributeValue[] params = {
            AttributeValue.fromN("3"),
            AttributeValue.fromS("c1"),
            AttributeValue.fromS("o#1"),
            AttributeValue.fromN("2")
        };
        assertThatThrownBy(() -> FIXTURE.execute(stale, params))
                .isInstanceOfSatisfying(
                        ConditionalCheckFailedException.class,
                        e -> assertThat(e.hasItem()).isFalse());
        assertThatThrownBy(
                        () ->
                                ddb.executeStatement(
                                        b ->
                                                b.statement(stale)
                                                        .parameters(params)
                                                        .returnValuesOnConditionCheckFailure(
                                                                "ALL_OLD")))
                .isInstanceOfSatisfying(
                        ConditionalCheckFailedException.class,
                        e -> assertThat(e.item()).isEqualTo(seed()));
        assertThat(get(t)).isEqualTo(seed());
        assertThat(FIXTURE.changes(t)).hasSize(1); // only the seed's put
    }

    @Test
    void anUpdateNeverCreatesAnItem() {
        String t = FIXTURE.table("UpdMissing");
        assertThatThrownBy(
                        () ->
                                FIXTURE.execute(
                                        "UPDATE \""
                                                + t
                                                + "\" SET v = 1 WHERE PK = 'c9' AND SK = 'x'"))
                .isInstanceOf(ConditionalCheckFailedException.class);
        assertThat(ddb.scan(b -> b.tableName(t)).items()).isEmpty();
        assertThat(FIXTURE.changes(t)).isEmpty();
    }

    @Test
    void returningGivesTheItemAsUpdateItemsReturnValues() {
        String t = FIXTURE.table("UpdRet");
        ddb.putItem(b -> b.tableName(t).item(seed()));
        String where = " WHERE PK = 'c1' AND SK = 'o#1'";
        ExecuteStatementResponse allOld =
                FIXTURE.execute(
                        "UPDATE \"" + t + "\" SET qty = 11" + where + " RETURNING ALL OLD *");
        assertThat(allOld.items()).containsExactly(seed());
        ExecuteStatementResponse modifiedNew =
                FIXTURE.execute(
                        "UPDATE \"" + t + "\" SET qty = 12" + where + " RETURNING MODIFIED NEW *");
        assertThat(modifiedNew.items()).containsExactly(Map.of("qty", AttributeValue.fromN("12")));
        ExecuteStatementResponse modifiedOld =
                FIXTURE.execute(
                        "UPDATE \"" + t + "\" SET qty = 13" + where + " RETURNING MODIFIED OLD *");
        assertThat(modifiedOld.items()).containsExactly(Map.of("qty", AttributeValue.fromN("12")));
        ExecuteStatementResponse allNew =
                FIXTURE.execute(
                        "UPDATE \"" + t + "\" SET qty = 14" + where + " RETURNING ALL NEW *");
        UpdateItemResponse same =
                ddb.updateItem(
                        b ->
                                b.tableName(t)
                                        .key(item("c1", "o#1"))
                                        .updateExpression("SET qty = :q")
                                        .expressionAttributeValues(
                                                Map.of(":q", AttributeValue.fromN("14")))
                                        .returnValues(ReturnValue.ALL_NEW));
        assertThat(allNew.items()).containsExactly(same.attributes());
    }

    @Test
    void refusedUpdatesGetDynamoDbsMessages() {
        String t = FIXTURE.table("UpdBad");
        ddb.putItem(b -> b.tableName(t).item(seed()));
        String q = "\"" + t + "\"";
        assertValidation(() -> FIXTURE.execute("UPDATE " + q + " SET v = 1 WHERE PK = 'c1'"))
                .hasMessageContaining(
                        "Where clause does not contain a mandatory equality on all key attributes");
        assertValidation(() -> FIXTURE.execute("UPDATE " + q + " SET v = 1"))
                .hasMessageContaining(
                        "Where clause does not contain a mandatory equality on all key attributes");
        assertValidation(
                        () ->
                                FIXTURE.execute(
                                        "UPDATE " + q + " ADD v 1 WHERE PK = 'c1' AND SK = 'o#1'"))
                .hasMessageContaining(
                        "Only SET and REMOVE are supported in update expressions at this time");
        assertValidation(
                        () ->
                                FIXTURE.execute(
                                        "UPDATE "
                                                + q
                                                + " SET v = if_not_exists(v, 0) WHERE PK = 'c1' AND"
                                                + " SK = 'o#1'"))
                .hasMessageContaining("Unrecognized function: if_not_exists");
        assertValidation(
                        () ->
                                FIXTURE.execute(
                                        "UPDATE "
                                                + q
                                                + " SET tags = set_add(other, <<'x'>>) WHERE PK ="
                                                + " 'c1' AND SK = 'o#1'"))
                .hasMessageContaining(
                        "The first argument to SET_ADD must equal the assignment value");
        assertValidation(
                        () ->
                                FIXTURE.execute(
                                        "UPDATE "
                                                + q
                                                + " SET SK = 'b' WHERE PK = 'c1' AND SK = 'o#1'"))
                .hasMessageContaining(
                        "Cannot update attribute SK. This attribute is part of the key");
        assertValidation(
                        () ->
                                FIXTURE.execute(
                                        "UPDATE "
                                                + q
                                                + " SET nope = nope + 1 WHERE PK = 'c1' AND SK ="
                                                + " 'o#1'"))
                .hasMessageContaining(
                        "The provided expression refers to an attribute that does not exist in the"
                                + " item");
        assertValidation(
                        () ->
                                FIXTURE.execute(
                                        "UPDATE \""
                                                + t
                                                + "\".\"byStatus\" SET v = 1 WHERE PK = 'c1' AND SK"
                                                + " = 'o#1'"))
                .hasMessageContaining("This operation is not supported on an index");
        assertThat(get(t)).isEqualTo(seed());
    }
}
