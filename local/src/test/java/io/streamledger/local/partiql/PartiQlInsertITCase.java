package io.streamledger.local.partiql;

import static io.streamledger.local.it.Errors.assertError;
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
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.DuplicateItemException;
import software.amazon.awssdk.services.dynamodb.model.ExecuteStatementResponse;
import software.amazon.awssdk.services.dynamodb.model.ReturnConsumedCapacity;

/**
 * PartiQL INSERT through the real SDK v2: a PutItem that must not find the key (AP08 admission of a
 * new order) — the same item, capacity (with GSI maintenance) and stream records as PutItem with
 * {@code attribute_not_exists}, DuplicateItemException on an existing key, DynamoDB's errors for
 * malformed items.
 */
class PartiQlInsertITCase {
    @RegisterExtension static final PartiQlFixture FIXTURE = new PartiQlFixture();

    private static DynamoDbClient ddb;

    @BeforeAll
    static void clients() {
        ddb = FIXTURE.ddb();
    }

    @Test
    void insertIsAPutItemOfANewKey() {
        String partiql = FIXTURE.table("InsA");
        String items = FIXTURE.table("InsB");
        ExecuteStatementResponse r =
                FIXTURE.execute(
                        "INSERT INTO \""
                                + partiql
                                + "\" VALUE {'PK': ?, 'SK': 'o#1', 'status': 'open', 'qty': 1.50,"
                                + " 'neg': -2, 'ok': true, 'none': null, 'm': {'a': [1, 'two']},"
                                + " 'ss': <<'b', 'a'>>, 'ns': <<1, 2.5>>, 'bin': ?}",
                        AttributeValue.fromS("c1"),
                        AttributeValue.fromB(SdkBytes.fromByteArray(new byte[] {0, (byte) 0xff})));
        assertThat(r.items()).isEmpty();

        Map<String, AttributeValue> expected =
                item(
                        "c1",
                        "o#1",
                        "status",
                        "open",
                        "qty",
                        AttributeValue.fromN("1.5"),
                        "neg",
                        AttributeValue.fromN("-2"),
                        "ok",
                        AttributeValue.fromBool(true),
                        "none",
                        AttributeValue.fromNul(true),
                        "m",
                        AttributeValue.fromM(
                                Map.of(
                                        "a",
                                        AttributeValue.fromL(
                                                List.of(
                                                        AttributeValue.fromN("1"),
                                                        AttributeValue.fromS("two"))))),
                        "ss",
                        AttributeValue.fromSs(List.of("b", "a")),
                        "ns",
                        AttributeValue.fromNs(List.of("1", "2.5")),
                        "bin",
                        AttributeValue.fromB(SdkBytes.fromByteArray(new byte[] {0, (byte) 0xff})));
        var put =
                ddb.putItem(
                        b ->
                                b.tableName(items)
                                        .item(expected)
                                        .conditionExpression("attribute_not_exists(PK)")
                                        .returnConsumedCapacity(ReturnConsumedCapacity.INDEXES));
        assertThat(capacity(r.consumedCapacity())).isEqualTo(capacity(put.consumedCapacity()));
        assertThat(r.consumedCapacity().globalSecondaryIndexes()).containsKey("byStatus");
        var stored =
                ddb.getItem(b -> b.tableName(partiql).key(item("c1", "o#1")).consistentRead(true))
                        .item();
        assertThat(stored).isEqualTo(expected);
        FIXTURE.assertSameChanges(partiql, items);
        FIXTURE.assertSameStreamRecords(partiql, items);
    }

    @Test
    void anExistingKeyIsADuplicateItemAndChangesNothing() {
        String t = FIXTURE.table("InsDup");
        String insert = "INSERT INTO \"" + t + "\" VALUE {'PK': 'c1', 'SK': 'o#1', 'v': ?}";
        FIXTURE.execute(insert, AttributeValue.fromN("1"));
        assertThatThrownBy(() -> FIXTURE.execute(insert, AttributeValue.fromN("2")))
                .isInstanceOf(DuplicateItemException.class)
                .hasMessageContaining("Duplicate primary key exists in table");
        assertThatThrownBy(
                        () ->
                                ddb.executeStatement(
                                        b ->
                                                b.statement(insert)
                                                        .parameters(AttributeValue.fromN("3"))
                                                        .returnValuesOnConditionCheckFailure(
                                                                "ALL_OLD")))
                .isInstanceOf(DuplicateItemException.class);
        assertThat(
                        ddb.getItem(b -> b.tableName(t).key(item("c1", "o#1")).consistentRead(true))
                                .item()
                                .get("v"))
                .isEqualTo(AttributeValue.fromN("1"));
        assertThat(FIXTURE.changes(t)).hasSize(1);
    }

    @Test
    void malformedItemsGetDynamoDbsMessages() {
        String t = FIXTURE.table("InsBad");
        String q = "\"" + t + "\"";
        assertValidation(() -> FIXTURE.execute("INSERT INTO " + q + " VALUE {'PK': 'c1', 'x': 1}"))
                .hasMessageContaining("Key attribute should be present in the item: Key SK");
        assertValidation(() -> FIXTURE.execute("INSERT INTO " + q + " VALUE {'PK': 1, 'SK': 'a'}"))
                .hasMessageContaining(
                        "Key attribute's data type should match its data type in table's schema:"
                                + " Key PK");
        assertValidation(
                        () ->
                                FIXTURE.execute(
                                        "INSERT INTO "
                                                + q
                                                + " VALUES {'PK': 'a', 'SK': 'a'}, {'PK': 'b', 'SK': 'b'}"))
                .hasMessageContaining(
                        "Inserting multiple items in a single statement is not supported");
        assertValidation(
                        () ->
                                FIXTURE.execute(
                                        "INSERT INTO "
                                                + q
                                                + " VALUE {'PK': 'a', 'SK': 'a'} RETURNING ALL OLD *"))
                .hasMessageContaining("RETURNING is not supported in INSERT");
        assertValidation(
                        () ->
                                FIXTURE.execute(
                                        "INSERT INTO " + q + " VALUE ?", AttributeValue.fromS("x")))
                .hasMessageContaining("Please use struct format {...}");
        assertValidation(
                        () ->
                                FIXTURE.execute(
                                        "INSERT INTO "
                                                + q
                                                + " VALUE {'PK': 'a', 'SK': 'a', 's': <<>>}"))
                .hasMessageContaining("Empty bags are not supported");
        assertValidation(
                        () ->
                                FIXTURE.execute(
                                        "INSERT INTO "
                                                + q
                                                + " VALUE {'PK': 'a', 'SK': 'a', 's': <<1, 'x'>>}"))
                .hasMessageContaining("DynamoDB only supports either numbers or strings in bags");
        assertValidation(
                        () ->
                                FIXTURE.execute(
                                        "INSERT INTO "
                                                + q
                                                + " VALUE {'PK': 'a', 'SK': 'a', 'PK': 'b'}"))
                .hasMessageContaining("Duplicate keys in tuple. Key: PK");
        assertValidation(
                        () ->
                                FIXTURE.execute(
                                        "INSERT INTO "
                                                + q
                                                + " VALUE {'PK': 'a', 'SK': 'a', 'n': 1E126}"))
                .hasMessageContaining("Number overflow");
        assertValidation(
                        () -> FIXTURE.execute("UPSERT INTO " + q + " VALUE {'PK': 'a', 'SK': 'a'}"))
                .hasMessageContaining("Statement wasn't well formed");
        assertError(
                () -> FIXTURE.execute("INSERT INTO \"NoSuchTable\" VALUE {'PK': 'a', 'SK': 'a'}"),
                "ResourceNotFoundException");
        assertThat(FIXTURE.changes(t)).isEmpty();
    }
}
