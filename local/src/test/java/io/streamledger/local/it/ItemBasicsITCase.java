package io.streamledger.local.it;

import static io.streamledger.local.it.Errors.assertValidation;
import static io.streamledger.local.it.Tables.key;
import static io.streamledger.local.it.Tables.n;
import static io.streamledger.local.it.Tables.s;
import static org.assertj.core.api.Assertions.assertThat;

import io.streamledger.local.LocalDynamoDbExtension;
import java.net.URI;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ReturnValue;

/** PutItem / GetItem / DeleteItem basics, value types, number normalization, limits. */
@ExtendWith(LocalDynamoDbExtension.class)
class ItemBasicsITCase {
    private static DynamoDbClient ddb;
    private static String table;

    @BeforeAll
    static void setUp(URI endpoint) {
        ddb = Clients.dynamo(endpoint);
        table = Tables.pkSk(ddb, "Items");
    }

    @AfterAll
    static void close() {
        ddb.close();
    }

    @Test
    void putGetRoundTripsEveryType() {
        Map<String, AttributeValue> item =
                Map.ofEntries(
                        Map.entry("PK", s("order#1")),
                        Map.entry("SK", s("v1")),
                        Map.entry("str", s("héllo")),
                        Map.entry("empty", s("")),
                        Map.entry("num", n("12.5")),
                        Map.entry("bin", AttributeValue.fromB(SdkBytes.fromUtf8String("abc"))),
                        Map.entry("bool", AttributeValue.fromBool(true)),
                        Map.entry("nul", AttributeValue.fromNul(true)),
                        Map.entry("ss", AttributeValue.fromSs(List.of("a", "b"))),
                        Map.entry("ns", AttributeValue.fromNs(List.of("1", "2"))),
                        Map.entry("list", AttributeValue.fromL(List.of(s("x"), n("1")))),
                        Map.entry("map", AttributeValue.fromM(Map.of("k", s("v")))));
        ddb.putItem(b -> b.tableName(table).item(item));
        Map<String, AttributeValue> got =
                ddb.getItem(b -> b.tableName(table).key(key("order#1", "v1")).consistentRead(true))
                        .item();
        assertThat(got).isEqualTo(item);
    }

    @Test
    void numbersAreNormalizedAndExact() {
        ddb.putItem(
                b ->
                        b.tableName(table)
                                .item(
                                        Map.of(
                                                "PK", s("num"),
                                                "SK", s("1"),
                                                "a", n("1.50"),
                                                "b", n("0001E+2"),
                                                "c", n("12345678901234567890123456789012345678"))));
        Map<String, AttributeValue> got =
                ddb.getItem(b -> b.tableName(table).key(key("num", "1"))).item();
        assertThat(got.get("a").n()).isEqualTo("1.5");
        assertThat(got.get("b").n()).isEqualTo("100");
        assertThat(got.get("c").n()).isEqualTo("12345678901234567890123456789012345678");
        assertValidation(
                        () ->
                                ddb.putItem(
                                        b ->
                                                b.tableName(table)
                                                        .item(
                                                                Map.of(
                                                                        "PK", s("num"),
                                                                        "SK", s("2"),
                                                                        "a",
                                                                                n(
                                                                                        "123456789012345678901234567890123456789")))))
                .hasMessageContaining("38");
    }

    @Test
    void missingItemHasNoItemField() {
        assertThat(ddb.getItem(b -> b.tableName(table).key(key("none", "none"))).hasItem())
                .isFalse();
    }

    @Test
    void keyRules() {
        assertValidation(() -> ddb.putItem(b -> b.tableName(table).item(Map.of("PK", s("x")))))
                .hasMessageContaining("Missing the key SK");
        assertValidation(
                        () ->
                                ddb.putItem(
                                        b ->
                                                b.tableName(table)
                                                        .item(Map.of("PK", s(""), "SK", s("a")))))
                .hasMessageContaining("empty string");
        assertValidation(
                        () ->
                                ddb.putItem(
                                        b ->
                                                b.tableName(table)
                                                        .item(Map.of("PK", n("1"), "SK", s("a")))))
                .hasMessageContaining("Type mismatch");
        assertValidation(() -> ddb.getItem(b -> b.tableName(table).key(Map.of("PK", s("x")))))
                .hasMessageContaining("The provided key element does not match the schema");
        String longKey = "k".repeat(2049);
        assertValidation(
                        () ->
                                ddb.putItem(
                                        b ->
                                                b.tableName(table)
                                                        .item(
                                                                Map.of(
                                                                        "PK",
                                                                        s(longKey),
                                                                        "SK",
                                                                        s("a")))))
                .hasMessageContaining("2048");
    }

    @Test
    void itemSizeLimit() {
        String big = "x".repeat(400 * 1024);
        assertValidation(
                        () ->
                                ddb.putItem(
                                        b ->
                                                b.tableName(table)
                                                        .item(
                                                                Map.of(
                                                                        "PK", s("big"), "SK",
                                                                        s("1"), "d", s(big)))))
                .hasMessageContaining("Item size has exceeded the maximum allowed size");
        String fits = "x".repeat(400 * 1024 - 20);
        ddb.putItem(
                b -> b.tableName(table).item(Map.of("PK", s("big"), "SK", s("2"), "d", s(fits))));
    }

    @Test
    void deleteReturnsOldAndIsIdempotent() {
        ddb.putItem(
                b -> b.tableName(table).item(Map.of("PK", s("del"), "SK", s("1"), "v", n("7"))));
        var out =
                ddb.deleteItem(
                        b ->
                                b.tableName(table)
                                        .key(key("del", "1"))
                                        .returnValues(ReturnValue.ALL_OLD));
        assertThat(out.attributes()).containsEntry("v", n("7"));
        var again =
                ddb.deleteItem(
                        b ->
                                b.tableName(table)
                                        .key(key("del", "1"))
                                        .returnValues(ReturnValue.ALL_OLD));
        assertThat(again.hasAttributes()).isFalse();
    }

    @Test
    void emptySetsAndDuplicatesRejected() {
        assertValidation(
                        () ->
                                ddb.putItem(
                                        b ->
                                                b.tableName(table)
                                                        .item(
                                                                Map.of(
                                                                        "PK", s("set"),
                                                                        "SK", s("1"),
                                                                        "ss",
                                                                                AttributeValue
                                                                                        .fromSs(
                                                                                                List
                                                                                                        .of(
                                                                                                                "a",
                                                                                                                "a"))))))
                .hasMessageContaining("duplicates");
    }
}
