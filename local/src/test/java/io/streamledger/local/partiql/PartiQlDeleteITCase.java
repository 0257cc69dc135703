package io.streamledger.local.partiql;

import static io.streamledger.local.it.Errors.assertValidation;
import static io.streamledger.local.partiql.PartiQlFixture.capacity;
import static io.streamledger.local.partiql.PartiQlFixture.item;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.ExecuteStatementResponse;
import software.amazon.awssdk.services.dynamodb.model.ReturnConsumedCapacity;

/**
 * PartiQL DELETE through the real SDK v2: a DeleteItem by whole key whose WHERE conditions guard an
 * existing item (AP16 outbox clean-up) — same capacity and stream REMOVE record as DeleteItem,
 * success without a record when the item is absent, ConditionalCheckFailedException when the guard
 * fails on an existing item.
 */
class PartiQlDeleteITCase {
    @RegisterExtension static final PartiQlFixture FIXTURE = new PartiQlFixture();

    private static DynamoDbClient ddb;

    @BeforeAll
    static void clients() {
        ddb = FIXTURE.ddb();
    }

    private static Map<String, AttributeValue> seed(String sk) {
        return item("c1", sk, "status", "open", "version", 3);
    }

    @Test
    void deleteIsADeleteItemByKey() {
        String partiql = FIXTURE.table("DelA");
        String items = FIXTURE.table("DelB");
        ddb.putItem(b -> b.tableName(partiql).item(seed("o#1")));
        ddb.putItem(b -> b.tableName(items).item(seed("o#1")));
        ExecuteStatementResponse r =
                FIXTURE.execute(
                        "DELETE FROM \"" + partiql + "\" WHERE PK = ? AND SK = ? AND version = 3",
                        AttributeValue.fromS("c1"),
                        AttributeValue.fromS("o#1"));
        assertThat(r.items()).isEmpty();
        var d =
                ddb.deleteItem(
                        b ->
                                b.tableName(items)
                                        .key(item("c1", "o#1"))
                                        .conditionExpression(
                                                "attribute_not_exists(PK) OR version = :v")
                                        .expressionAttributeValues(
                                                Map.of(":v", AttributeValue.fromN("3")))
                                        .returnConsumedCapacity(ReturnConsumedCapacity.INDEXES));
        assertThat(capacity(r.consumedCapacity())).isEqualTo(capacity(d.consumedCapacity()));
        assertThat(r.consumedCapacity().globalSecondaryIndexes()).containsKey("byStatus");
        assertThat(ddb.scan(b -> b.tableName(partiql)).items()).isEmpty();
        FIXTURE.assertSameChanges(partiql, items);
        FIXTURE.assertSameStreamRecords(partiql, items);
    }

    @Test
    void deletingAMissingItemSucceedsWithoutARecord() {
        String t = FIXTURE.table("DelMissing");
        ExecuteStatementResponse r =
                FIXTURE.execute("DELETE FROM \"" + t + "\" WHERE PK = 'c9' AND SK = 'x'");
        assertThat(r.items()).isEmpty();
        // a guard on a missing item does not stop the delete of nothing
        FIXTURE.execute("DELETE FROM \"" + t + "\" WHERE PK = 'c9' AND SK = 'x' AND version = 7");
        var d =
                ddb.deleteItem(
                        b ->
                                b.tableName(t)
                                        .key(item("c9", "x"))
                                        .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL));
        assertThat(r.consumedCapacity().capacityUnits())
                .isEqualTo(d.consumedCapacity().capacityUnits());
        assertThat(FIXTURE.changes(t)).isEmpty();
    }

    @Test
    void aFailedGuardOnAnExistingItemIsAConditionalCheckFailed() {
        String t = FIXTURE.table("DelGuard");
        ddb.putItem(b -> b.tableName(t).item(seed("o#1")));
        String stale = "DELETE FROM \"" + t + "\" WHERE PK = 'c1' AND SK = 'o#1' AND version < 3";
        assertThatThrownBy(() -> FIXTURE.execute(stale))
                .isInstanceOfSatisfying(
                        ConditionalCheckFailedException.class,
                        e -> assertThat(e.hasItem()).isFalse());
        assertThatThrownBy(
                        () ->
                                ddb.executeStatement(
                                        b ->
                                                b.statement(stale)
                                                        .returnValuesOnConditionCheckFailure(
                                                                "ALL_OLD")))
                .isInstanceOfSatisfying(
                        ConditionalCheckFailedException.class,
                        e -> assertThat(e.item()).isEqualTo(seed("o#1")));
        assertThat(ddb.scan(b -> b.tableName(t)).items()).containsExactly(seed("o#1"));
    }

    @Test
    void returningAllOldGivesTheDeletedItem() {
        String t = FIXTURE.table("DelRet");
        ddb.putItem(b -> b.tableName(t).item(seed("o#1")));
        ExecuteStatementResponse r =
                FIXTURE.execute(
                        "DELETE FROM \""
                                + t
                                + "\" WHERE PK = 'c1' AND SK = 'o#1' RETURNING ALL OLD *");
        assertThat(r.items()).containsExactly(seed("o#1"));
        assertThat(
                        FIXTURE.execute(
                                        "DELETE FROM \""
                                                + t
                                                + "\" WHERE PK = 'c1' AND SK = 'o#1' RETURNING ALL"
                                                + " OLD *")
                                .items())
                .isEmpty();
    }

    @Test
    void refusedDeletesGetDynamoDbsMessages() {
        String t = FIXTURE.table("DelBad");
        ddb.putItem(b -> b.tableName(t).item(seed("o#1")));
        String q = "\"" + t + "\"";
        assertValidation(() -> FIXTURE.execute("DELETE FROM " + q + " WHERE PK = 'c1'"))
                .hasMessageContaining(
                        "Where clause does not contain a mandatory equality on all key attributes");
        assertValidation(
                        () ->
                                FIXTURE.execute(
                                        "DELETE FROM " + q + " WHERE PK = 'c1' OR SK = 'o#1'"))
                .hasMessageContaining(
                        "Where clause does not contain a mandatory equality on all key attributes");
        assertValidation(() -> FIXTURE.execute("DELETE FROM " + q))
                .hasMessageContaining(
                        "Where clause does not contain a mandatory equality on all key attributes");
        assertValidation(
                        () ->
                                FIXTURE.execute(
                                        "DELETE FROM "
                                                + q
                                                + " WHERE PK = 'c1' AND SK = 'o#1' RETURNING ALL NEW"
                                                + " *"))
                .hasMessageContaining(
                        "Invalid returning clause: RETURNING ALL NEW *. Only RETURNING ALL OLD * is"
                                + " allowed in DELETE statements.");
        assertValidation(
                        () ->
                                FIXTURE.execute(
                                        "DELETE FROM " + q + " WHERE PK = 'c1' AND SK = ?",
                                        AttributeValue.fromN("1")))
                .hasMessageContaining(
                        "Key attribute's data type should match its data type in table's schema:"
                                + " Key SK");
        assertThat(ddb.scan(b -> b.tableName(t)).items()).containsExactly(seed("o#1"));
    }
}
