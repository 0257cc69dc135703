package io.streamledger.local.it;

import static io.streamledger.local.it.Errors.assertValidation;
import static io.streamledger.local.it.Tables.attr;
import static io.streamledger.local.it.Tables.key;
import static io.streamledger.local.it.Tables.n;
import static io.streamledger.local.it.Tables.s;

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
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;

/**
 * Requests DynamoDB refuses and the endpoint must refuse the same way (ValidationException with
 * DynamoDB's message): expression syntax and operand types, names/values bookkeeping, reserved
 * words, attribute and key size limits, numbers, empty sets, table definitions (AP08 guards, IDX01
 * keys).
 */
@ExtendWith(LocalDynamoDbExtension.class)
class ValidationITCase {
    private static DynamoDbClient ddb;
    private static String table;

    @BeforeAll
    static void setUp(URI endpoint) {
        ddb = Clients.dynamo(endpoint);
        table = Tables.pkSk(ddb, "Valid");
        ddb.putItem(b -> b.tableName(table).item(Map.of("PK", s("p"), "SK", s("1"), "a", n("1"))));
    }

    @AfterAll
    static void close() {
        ddb.close();
    }

    private static void condition(String expression, Map<String, AttributeValue> values) {
        ddb.deleteItem(
                b -> {
                    b.tableName(table).key(key("none", "1")).conditionExpression(expression);
                    if (!values.isEmpty()) {
                        b.expressionAttributeValues(values);
                    }
                });
    }

    private static void put(Map<String, AttributeValue> extra) {
        Map<String, AttributeValue> item = new HashMap<>(key("p", "2"));
        item.putAll(extra);
        ddb.putItem(b -> b.tableName(table).item(item));
    }

    @Test
    void expressionParenthesesAndOperandTypes() {
        assertValidation(() -> condition("((attribute_not_exists(a)))", Map.of()))
                .hasMessageContaining(
                        "Invalid ConditionExpression: The expression has redundant parentheses;");
        assertValidation(() -> condition("(a = :v) AND ((a = :v))", Map.of(":v", n("1"))))
                .hasMessageContaining("redundant parentheses");
        assertValidation(() -> condition("(a = :v", Map.of(":v", n("1"))))
                .hasMessageContaining(
                        "Invalid ConditionExpression: Syntax error; token: \"<EOF>\"");
        assertValidation(() -> condition("a = :v)", Map.of(":v", n("1"))))
                .hasMessageContaining("Syntax error; token: \")\"");
        assertValidation(() -> condition("attribute_exists(:v)", Map.of(":v", n("1"))))
                .hasMessageContaining(
                        "Operator or function requires a document path; operator or function: attribute_exists");
        assertValidation(() -> condition("begins_with(a, :v)", Map.of(":v", n("1"))))
                .hasMessageContaining(
                        "Incorrect operand type for operator or function; operator or function: begins_with, operand type: N");
        assertValidation(
                        () ->
                                condition(
                                        "a < :v",
                                        Map.of(":v", AttributeValue.fromSs(List.of("x")))))
                .hasMessageContaining("operator or function: <, operand type: SS");
        assertValidation(
                        () ->
                                condition(
                                        "a BETWEEN :lo AND :hi",
                                        Map.of(
                                                ":lo",
                                                n("1"),
                                                ":hi",
                                                AttributeValue.fromBool(true))))
                .hasMessageContaining("operator or function: BETWEEN, operand type: BOOL");
        assertValidation(
                        () ->
                                condition(
                                        "a BETWEEN :hi AND :lo",
                                        Map.of(":lo", n("1"), ":hi", n("2"))))
                .hasMessageContaining(
                        "BETWEEN operator requires upper bound to be greater than or equal to lower bound");
        assertValidation(() -> condition("nope(a)", Map.of()))
                .hasMessageContaining("Invalid function name; function: nope");
        // a single pair of parentheses is fine
        condition("(attribute_not_exists(a))", Map.of());
    }

    @Test
    void namesAndValuesMustBeDefinedAndUsed() {
        assertValidation(() -> condition("a = :v", Map.of(":v", n("1"), ":x", n("2"))))
                .hasMessageContaining(
                        "Value provided in ExpressionAttributeValues unused in expressions: keys: {:x}");
        assertValidation(() -> condition("a = :missing", Map.of(":v", n("1"))))
                .hasMessageContaining(
                        "An expression attribute value used in expression is not defined; attribute value: :missing");
        assertValidation(
                        () ->
                                ddb.deleteItem(
                                        b ->
                                                b.tableName(table)
                                                        .key(key("none", "1"))
                                                        .conditionExpression(
                                                                "attribute_not_exists(#a)")
                                                        .expressionAttributeNames(
                                                                Map.of("#a", "a", "#b", "b"))))
                .hasMessageContaining(
                        "Value provided in ExpressionAttributeNames unused in expressions: keys: {#b}");
        assertValidation(() -> condition("attribute_not_exists(#nope)", Map.of()))
                .hasMessageContaining(
                        "An expression attribute name used in the document path is not defined; attribute name: #nope");
        assertValidation(
                        () ->
                                ddb.getItem(
                                        b ->
                                                b.tableName(table)
                                                        .key(key("p", "1"))
                                                        .expressionAttributeNames(
                                                                Map.of("#a", "a"))))
                .hasMessageContaining(
                        "ExpressionAttributeNames can only be specified when using expressions");
        assertValidation(() -> condition("attribute_not_exists(status)", Map.of()))
                .hasMessageContaining(
                        "Attribute name is a reserved keyword; reserved keyword: status");
    }

    @Test
    void attributeAndKeySizeLimits() {
        assertValidation(() -> put(Map.of("n".repeat(65_536), s("x"))))
                .hasMessageContaining(
                        "An attribute name exceeds the maximum length of 65535 bytes");
        put(Map.of("n".repeat(65_535), s("x"))); // at the limit
        // 400 KB counts names too: a value that fits alone is too large with a long name
        String value = "v".repeat(400 * 1024 - 100);
        put(Map.of("v", s(value)));
        assertValidation(() -> put(Map.of("n".repeat(200), s(value))))
                .hasMessageContaining("Item size has exceeded the maximum allowed size");
        assertValidation(
                        () ->
                                ddb.putItem(
                                        b ->
                                                b.tableName(table)
                                                        .item(
                                                                Map.of(
                                                                        "PK",
                                                                        s("h".repeat(2049)),
                                                                        "SK",
                                                                        s("1")))))
                .hasMessageContaining(
                        "Size of hashkey has exceeded the maximum size limit of2048 bytes");
        assertValidation(
                        () ->
                                ddb.putItem(
                                        b ->
                                                b.tableName(table)
                                                        .item(
                                                                Map.of(
                                                                        "PK",
                                                                        s("h"),
                                                                        "SK",
                                                                        s("r".repeat(1025))))))
                .hasMessageContaining(
                        "Size of rangekey has exceeded the maximum size limit of1024 bytes");
        ddb.putItem(
                b ->
                        b.tableName(table)
                                .item(
                                        Map.of(
                                                "PK",
                                                s("h".repeat(2048)),
                                                "SK",
                                                s("r".repeat(1024)))));
        assertValidation(
                        () ->
                                ddb.putItem(
                                        b ->
                                                b.tableName(table)
                                                        .item(Map.of("PK", s(""), "SK", s("1")))))
                .hasMessageContaining("empty string");
    }

    @Test
    void numbersAndSets() {
        assertValidation(() -> put(Map.of("x", n("1234567890123456789012345678901234567890"))))
                .hasMessageContaining(
                        "Attempting to store more than 38 significant digits in a Number");
        assertValidation(() -> put(Map.of("x", n("1E+126"))))
                .hasMessageContaining("Number overflow");
        assertValidation(() -> put(Map.of("x", n("1E-131"))))
                .hasMessageContaining("Number underflow");
        assertValidation(() -> put(Map.of("x", n("0x10"))))
                .hasMessageContaining("A value provided cannot be converted into a number");
        assertValidation(() -> put(Map.of("x", n("NaN"))))
                .hasMessageContaining("cannot be converted into a number");
        put(Map.of("x", n("9.9999999999999999999999999999999999999E+125"), "y", n("-1E-130")));
        assertValidation(() -> put(Map.of("x", AttributeValue.fromSs(List.of()))))
                .hasMessageContaining(
                        "One or more parameter values were invalid: An string set  may not be empty");
        assertValidation(() -> put(Map.of("x", AttributeValue.fromNs(List.of("1", "1.0")))))
                .hasMessageContaining("contains duplicates");
    }

    @Test
    void tableDefinitions() {
        assertValidation(
                        () ->
                                ddb.createTable(
                                        b ->
                                                b.tableName(Tables.unique("Dup"))
                                                        .billingMode(BillingMode.PAY_PER_REQUEST)
                                                        .attributeDefinitions(
                                                                attr("PK", ScalarAttributeType.S),
                                                                attr("PK", ScalarAttributeType.N))
                                                        .keySchema(Tables.key("PK", KeyType.HASH))))
                .hasMessageContaining(
                        "Cannot have two attributes with the same name. Attribute name: PK");
        assertValidation(
                        () ->
                                ddb.createTable(
                                        b ->
                                                b.tableName(Tables.unique("Undef"))
                                                        .billingMode(BillingMode.PAY_PER_REQUEST)
                                                        .attributeDefinitions(
                                                                attr("PK", ScalarAttributeType.S))
                                                        .keySchema(
                                                                Tables.key("PK", KeyType.HASH),
                                                                Tables.key("SK", KeyType.RANGE))))
                .hasMessageContaining(
                        "Some index key attributes are not defined in AttributeDefinitions");
        assertValidation(
                        () ->
                                ddb.createTable(
                                        b ->
                                                b.tableName(Tables.unique("Unused"))
                                                        .billingMode(BillingMode.PAY_PER_REQUEST)
                                                        .attributeDefinitions(
                                                                attr("PK", ScalarAttributeType.S),
                                                                attr("X", ScalarAttributeType.S))
                                                        .keySchema(Tables.key("PK", KeyType.HASH))))
                .hasMessageContaining("Some AttributeDefinitions are not used");
        assertValidation(
                        () ->
                                ddb.createTable(
                                        b ->
                                                b.tableName(Tables.unique("RangeFirst"))
                                                        .billingMode(BillingMode.PAY_PER_REQUEST)
                                                        .attributeDefinitions(
                                                                attr("PK", ScalarAttributeType.S),
                                                                attr("SK", ScalarAttributeType.S))
                                                        .keySchema(
                                                                Tables.key("SK", KeyType.RANGE),
                                                                Tables.key("PK", KeyType.HASH))))
                .hasMessageContaining("The first KeySchemaElement is not a HASH key type");
    }
}
