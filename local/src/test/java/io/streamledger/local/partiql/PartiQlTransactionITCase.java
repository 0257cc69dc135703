package io.streamledger.local.partiql;

import static io.streamledger.local.it.Errors.assertError;
import static io.streamledger.local.it.Errors.assertValidation;
import static io.streamledger.local.partiql.PartiQlFixture.capacities;
import static io.streamledger.local.partiql.PartiQlFixture.item;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.streamledger.local.spi.ItemChange;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.CancellationReason;
import software.amazon.awssdk.services.dynamodb.model.ExecuteTransactionResponse;
import software.amazon.awssdk.services.dynamodb.model.IdempotentParameterMismatchException;
import software.amazon.awssdk.services.dynamodb.model.ParameterizedStatement;
import software.amazon.awssdk.services.dynamodb.model.ReturnConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;
import software.amazon.awssdk.services.dynamodb.model.TransactionCanceledException;

/**
 * ExecuteTransaction through the real SDK v2 — the AP08/AP16/AP17 admission transaction written in
 * PartiQL: INSERT, guarded UPDATE, DELETE and EXISTS conditions commit all or nothing at 2× units,
 * with one cancellation reason per statement ({@code DuplicateItem} for an INSERT of an existing
 * key), ClientRequestToken idempotency and the same capacity and stream records as
 * TransactWriteItems; SELECTs by whole key read as TransactGetItems.
 */
class PartiQlTransactionITCase {
    @RegisterExtension static final PartiQlFixture FIXTURE = new PartiQlFixture();

    private static DynamoDbClient ddb;

    @BeforeAll
    static void clients() {
        ddb = FIXTURE.ddb();
    }

    private static ParameterizedStatement st(String text, AttributeValue... params) {
        ParameterizedStatement.Builder b = ParameterizedStatement.builder().statement(text);
        if (params.length > 0) {
            b.parameters(params);
        }
        return b.build();
    }

    private static ExecuteTransactionResponse tx(String token, ParameterizedStatement... s) {
        return ddb.executeTransaction(
                b ->
                        b.transactStatements(s)
                                .clientRequestToken(token)
                                .returnConsumedCapacity(ReturnConsumedCapacity.INDEXES));
    }

    /** A new table holding the seed items. */
    private static String seeded(String prefix) {
        String t = FIXTURE.table(prefix);
        seed(t);
        return t;
    }

    private static void seed(String t) {
        ddb.putItem(b -> b.tableName(t).item(item("acct", "A", "status", "open", "version", 1)));
        ddb.putItem(b -> b.tableName(t).item(item("outbox", "1", "status", "ready")));
        ddb.putItem(b -> b.tableName(t).item(item("limits", "L", "cap", 100)));
    }

    @Test
    void writesCommitTogetherAsTransactWriteItems() {
        String partiql = FIXTURE.table("TxA");
        String items = FIXTURE.table("TxB");
        seed(partiql);
        seed(items);
        String q = "\"" + partiql + "\"";
        ExecuteTransactionResponse r =
                tx(
                        null,
                        st(
                                "INSERT INTO "
                                        + q
                                        + " VALUE {'PK': ?, 'SK': 'o#1', 'status': 'new'}",
                                AttributeValue.fromS("order")),
                        st(
                                "UPDATE "
                                        + q
                                        + " SET version = version + 1 WHERE PK = 'acct' AND SK = 'A'"
                                        + " AND version = ?",
                                AttributeValue.fromN("1")),
                        st("DELETE FROM " + q + " WHERE PK = 'outbox' AND SK = '1'"),
                        st(
                                "EXISTS(SELECT * FROM "
                                        + q
                                        + " WHERE PK = 'limits' AND SK = 'L' AND cap >= ?)",
                                AttributeValue.fromN("50")));
        assertThat(r.hasResponses()).isFalse();
        var w =
                ddb.transactWriteItems(
                        b ->
                                b.transactItems(
                                                TransactWriteItem.builder()
                                                        .put(
                                                                p ->
                                                                        p.tableName(items)
                                                                                .item(
                                                                                        item(
                                                                                                "order",
                                                                                                "o#1",
                                                                                                "status",
                                                                                                "new"))
                                                                                .conditionExpression(
                                                                                        "attribute_not_exists(PK)"))
                                                        .build(),
                                                TransactWriteItem.builder()
                                                        .update(
                                                                u ->
                                                                        u.tableName(items)
                                                                                .key(
                                                                                        item(
                                                                                                "acct",
                                                                                                "A"))
                                                                                .updateExpression(
                                                                                        "SET version = version + :one")
                                                                                .conditionExpression(
                                                                                        "attribute_exists(PK) AND version = :one")
                                                                                .expressionAttributeValues(
                                                                                        Map.of(
                                                                                                ":one",
                                                                                                AttributeValue
                                                                                                        .fromN(
                                                                                                                "1"))))
                                                        .build(),
                                                TransactWriteItem.builder()
                                                        .delete(
                                                                d ->
                                                                        d.tableName(items)
                                                                                .key(
                                                                                        item(
                                                                                                "outbox",
                                                                                                "1")))
                                                        .build(),
                                                TransactWriteItem.builder()
                                                        .conditionCheck(
                                                                c ->
                                                                        c.tableName(items)
                                                                                .key(
                                                                                        item(
                                                                                                "limits",
                                                                                                "L"))
                                                                                .conditionExpression(
                                                                                        "attribute_exists(PK) AND cap >= :c")
                                                                                .expressionAttributeValues(
                                                                                        Map.of(
                                                                                                ":c",
                                                                                                AttributeValue
                                                                                                        .fromN(
                                                                                                                "50"))))
                                                        .build())
                                        .returnConsumedCapacity(ReturnConsumedCapacity.INDEXES));
        assertThat(capacities(r.consumedCapacity())).isEqualTo(capacities(w.consumedCapacity()));
        assertThat(ddb.scan(b -> b.tableName(partiql)).items())
                .containsExactlyInAnyOrderElementsOf(ddb.scan(b -> b.tableName(items)).items());
        FIXTURE.assertSameChanges(partiql, items);
        FIXTURE.assertSameStreamRecords(partiql, items);
        Set<String> txIds =
                FIXTURE.changes(partiql).stream()
                        .map(ItemChange::transactionId)
                        .filter(id -> id != null)
                        .collect(Collectors.toSet());
        assertThat(txIds).hasSize(1); // the three writes are one transaction's records
    }

    @Test
    void aFailingStatementCancelsAllWithOneReasonEach() {
        String t = seeded("TxCancel");
        String q = "\"" + t + "\"";
        assertThatThrownBy(
                        () ->
                                ddb.executeTransaction(
                                        b ->
                                                b.transactStatements(
                                                        st(
                                                                "INSERT INTO "
                                                                        + q
                                                                        + " VALUE {'PK': 'acct', 'SK': 'A'}"),
                                                        st(
                                                                "UPDATE "
                                                                        + q
                                                                        + " SET version = 5 WHERE PK = 'acct2'"
                                                                        + " AND SK = 'A'"),
                                                        ParameterizedStatement.builder()
                                                                .statement(
                                                                        "EXISTS(SELECT * FROM "
                                                                                + q
                                                                                + " WHERE PK = 'outbox' AND SK = '1'"
                                                                                + " AND status = 'sent')")
                                                                .returnValuesOnConditionCheckFailure(
                                                                        "ALL_OLD")
                                                                .build(),
                                                        st(
                                                                "DELETE FROM "
                                                                        + q
                                                                        + " WHERE PK = 'limits' AND SK = 'L'"))))
                .isInstanceOfSatisfying(
                        TransactionCanceledException.class,
                        e -> {
                            List<String> codes = new ArrayList<>();
                            e.cancellationReasons().forEach(x -> codes.add(x.code()));
                            assertThat(codes)
                                    .containsExactly(
                                            "DuplicateItem",
                                            "ConditionalCheckFailed",
                                            "ConditionalCheckFailed",
                                            "None");
                            CancellationReason duplicate = e.cancellationReasons().get(0);
                            assertThat(duplicate.message())
                                    .isEqualTo("Duplicate primary key exists in table");
                            assertThat(e.cancellationReasons().get(2).item())
                                    .isEqualTo(item("outbox", "1", "status", "ready"));
                            assertThat(e.getMessage())
                                    .contains(
                                            "[DuplicateItem, ConditionalCheckFailed,"
                                                    + " ConditionalCheckFailed, None]");
                        });
        assertThat(FIXTURE.changes(t)).hasSize(3); // the seed puts only
    }

    @Test
    void aClientRequestTokenRunsTheTransactionOnce() {
        String t = seeded("TxToken");
        ParameterizedStatement bump =
                st("UPDATE \"" + t + "\" SET version = version + 1 WHERE PK = 'acct' AND SK = 'A'");
        tx("token-1", bump);
        tx("token-1", bump);
        assertThat(
                        ddb.getItem(b -> b.tableName(t).key(item("acct", "A")).consistentRead(true))
                                .item()
                                .get("version"))
                .isEqualTo(AttributeValue.fromN("2"));
        assertThatThrownBy(
                        () ->
                                tx(
                                        "token-1",
                                        st(
                                                "UPDATE \""
                                                        + t
                                                        + "\" SET version = 9 WHERE PK = 'acct' AND SK"
                                                        + " = 'A'")))
                .isInstanceOf(IdempotentParameterMismatchException.class);
    }

    @Test
    void readsAreTransactGetItems() {
        String t = seeded("TxRead");
        String q = "\"" + t + "\"";
        ExecuteTransactionResponse r =
                tx(
                        null,
                        st("SELECT version FROM " + q + " WHERE PK = 'acct' AND SK = 'A'"),
                        st(
                                "SELECT * FROM " + q + " WHERE PK = ? AND SK = '1'",
                                AttributeValue.fromS("nobody")),
                        st("SELECT * FROM " + q + " WHERE PK = 'outbox' AND SK = '1'"));
        assertThat(r.responses()).hasSize(3);
        assertThat(r.responses().get(0).item())
                .isEqualTo(Map.of("version", AttributeValue.fromN("1")));
        assertThat(r.responses().get(1).hasItem()).isFalse();
        assertThat(r.responses().get(2).item()).isEqualTo(item("outbox", "1", "status", "ready"));
        var g =
                ddb.transactGetItems(
                        b ->
                                b.transactItems(
                                                x ->
                                                        x.get(
                                                                y ->
                                                                        y.tableName(t)
                                                                                .key(
                                                                                        item(
                                                                                                "acct",
                                                                                                "A"))),
                                                x ->
                                                        x.get(
                                                                y ->
                                                                        y.tableName(t)
                                                                                .key(
                                                                                        item(
                                                                                                "nobody",
                                                                                                "1"))),
                                                x ->
                                                        x.get(
                                                                y ->
                                                                        y.tableName(t)
                                                                                .key(
                                                                                        item(
                                                                                                "outbox",
                                                                                                "1"))))
                                        .returnConsumedCapacity(ReturnConsumedCapacity.INDEXES));
        assertThat(capacities(r.consumedCapacity())).isEqualTo(capacities(g.consumedCapacity()));
    }

    @Test
    void refusedTransactionsGetDynamoDbsMessages() {
        String t = seeded("TxBad");
        String q = "\"" + t + "\"";
        assertValidation(
                        () ->
                                tx(
                                        null,
                                        st(
                                                "SELECT * FROM "
                                                        + q
                                                        + " WHERE PK = 'acct' AND SK = 'A'"),
                                        st("DELETE FROM " + q + " WHERE PK = 'acct' AND SK = 'A'")))
                .hasMessageContaining(
                        "ExecuteTransaction API does not support both read and write operations in"
                                + " the same request.");
        assertValidation(() -> tx(null, st("SELECT * FROM " + q + " WHERE PK = 'acct'")))
                .hasMessageContaining(
                        "Select statements within ExecuteTransaction must specify the primary key in"
                                + " the where clause.");
        assertValidation(
                        () ->
                                tx(
                                        null,
                                        st(
                                                "SELECT * FROM "
                                                        + q
                                                        + ".\"byStatus\" WHERE status = 'open'")))
                .hasMessageContaining("Reads on indices are not supported within transactions.");
        assertValidation(
                        () ->
                                tx(
                                        null,
                                        st(
                                                "UPDATE "
                                                        + q
                                                        + " SET a = 1 WHERE PK = 'acct' AND SK = 'A'"),
                                        st("DELETE FROM " + q + " WHERE PK = 'acct' AND SK = 'A'")))
                .hasMessageContaining(
                        "Transaction request cannot include multiple operations on one item");
        assertValidation(
                        () ->
                                tx(
                                        null,
                                        st(
                                                "UPDATE "
                                                        + q
                                                        + " SET a = 1 WHERE PK = 'acct' AND SK = 'A'"
                                                        + " RETURNING ALL NEW *")))
                .hasMessageContaining("Unsupported operation in transaction.");
        assertValidation(() -> tx(null, st("EXISTS(SELECT * FROM " + q + " WHERE PK = 'acct')")))
                .hasMessageContaining(
                        "EXISTS() must contain a single item read with additional condition");
        List<ParameterizedStatement> many = new ArrayList<>();
        for (int i = 0; i < 101; i++) {
            many.add(st("DELETE FROM " + q + " WHERE PK = 'p" + i + "' AND SK = 'A'"));
        }
        assertValidation(() -> ddb.executeTransaction(b -> b.transactStatements(many)))
                .hasMessageContaining("Member must have length less than or equal to 100");
        assertError(
                () -> tx(null, st("DELETE FROM \"NoSuchTable\" WHERE PK = 'a' AND SK = 'b'")),
                "ResourceNotFoundException");
        assertThat(FIXTURE.changes(t)).hasSize(3);
    }
}
