package io.streamledger.model.change;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Instant;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/** Kinesis Data Streams for DynamoDB record JSON → ChangeRecord (DESIGN "Change records"). */
class KinesisDynamoDbRecordParserTest {

    /** An INSERT of a ledger posting as the Kinesis destination writes it. */
    static final String INSERT =
            """
            {
              "awsRegion": "us-east-1",
              "eventID": "6f2b4a3e-1c9d-4f5a-8e7b-2d3c4b5a6f70",
              "eventName": "INSERT",
              "userIdentity": null,
              "recordFormat": "application/json",
              "tableName": "Ledger",
              "dynamodb": {
                "ApproximateCreationDateTime": 1764496800123,
                "Keys": {"PK": {"S": "TEN#t1#ACCT#a-9#MONTH#2025-11#BKT#00"},
                         "SK": {"S": "POST#2025-11-30T10:00:00.123Z#txn-1#0001"}},
                "NewImage": {"PK": {"S": "TEN#t1#ACCT#a-9#MONTH#2025-11#BKT#00"},
                             "SK": {"S": "POST#2025-11-30T10:00:00.123Z#txn-1#0001"},
                             "amount": {"N": "-1250.75"}, "currency": {"S": "USD"}},
                "SizeBytes": 190,
                "ApproximateCreationDateTimePrecision": "MILLISECOND"
              },
              "eventSource": "aws:dynamodb"
            }
            """;

    private static final SourcePosition POSITION =
            new SourcePosition("shardId-000000000003", "49650000000000000000000000000000000001");

    @Test
    void parsesAnInsertWithKinesisPosition() {
        ChangeRecord r = KinesisDynamoDbRecordParser.parse(INSERT, POSITION);
        assertThat(r.operation()).isEqualTo(Operation.INSERT);
        assertThat(r.tableName()).isEqualTo("Ledger");
        assertThat(r.oldImage()).isNull();
        assertThat(((AttributeValue.N) r.newImage().get("amount")).text()).isEqualTo("-1250.75");
        assertThat(r.approximateCreationDateTime())
                .isEqualTo(Instant.parse("2025-11-30T10:00:00.123Z"));
        assertThat(r.sourcePosition()).isEqualTo(POSITION);
        assertThat(r.sequenceNumber()).isEqualTo(POSITION.sequenceNumber());
        assertThat(r.userIdentity()).isNull();
        assertThat(r.transport()).isEqualTo(Transport.KINESIS);
    }

    @Test
    void microsecondPrecisionIsHonoured() {
        JsonNode json =
                mutate(
                        r -> {
                            dynamodb(r).put("ApproximateCreationDateTime", 1764496800123456L);
                            dynamodb(r).put("ApproximateCreationDateTimePrecision", "MICROSECOND");
                        });
        assertThat(KinesisDynamoDbRecordParser.parse(json, null).approximateCreationDateTime())
                .isEqualTo(Instant.parse("2025-11-30T10:00:00.123456Z"));
        JsonNode noPrecision =
                mutate(r -> dynamodb(r).remove("ApproximateCreationDateTimePrecision"));
        assertThat(
                        KinesisDynamoDbRecordParser.parse(noPrecision, null)
                                .approximateCreationDateTime())
                .isEqualTo(Instant.parse("2025-11-30T10:00:00.123Z"));
    }

    @Test
    void ttlRemoveCarriesServiceIdentity() {
        JsonNode json =
                mutate(
                        r -> {
                            r.put("eventName", "REMOVE");
                            ObjectNode d = dynamodb(r);
                            d.set("OldImage", d.remove("NewImage"));
                            r.putObject("userIdentity")
                                    .put("type", "Service")
                                    .put("principalId", "dynamodb.amazonaws.com");
                        });
        ChangeRecord r = KinesisDynamoDbRecordParser.parse(json, null);
        assertThat(r.isTtlDelete()).isTrue();
        assertThat(r.sequenceNumber()).isNull();
    }

    private static ObjectNode dynamodb(ObjectNode root) {
        return (ObjectNode) root.get("dynamodb");
    }

    private static JsonNode mutate(Consumer<ObjectNode> change) {
        ObjectNode root = (ObjectNode) JsonFields.parse(INSERT);
        change.accept(root);
        return root;
    }

    private static void assertRejected(Consumer<ObjectNode> change, String path, String message) {
        JsonNode bad = mutate(change);
        assertThatThrownBy(() -> KinesisDynamoDbRecordParser.parse(bad, POSITION))
                .isInstanceOfSatisfying(
                        ChangeRecordParseException.class,
                        e -> {
                            assertThat(e.path()).isEqualTo(path);
                            assertThat(e.getMessage()).contains(message);
                        });
    }

    @Test
    void missingFieldsAreNamed() {
        assertRejected(r -> r.remove("eventID"), "$.eventID", "is missing");
        assertRejected(r -> r.remove("tableName"), "$.tableName", "is missing");
        assertRejected(r -> r.remove("recordFormat"), "$.recordFormat", "is missing");
        assertRejected(r -> r.remove("eventSource"), "$.eventSource", "is missing");
        assertRejected(r -> r.remove("dynamodb"), "$.dynamodb", "is missing");
        assertRejected(r -> dynamodb(r).remove("Keys"), "$.dynamodb.Keys", "is missing");
        assertRejected(
                r -> dynamodb(r).remove("ApproximateCreationDateTime"),
                "$.dynamodb.ApproximateCreationDateTime",
                "is missing");
    }

    @Test
    void mistypedFieldsAreNamed() {
        assertRejected(r -> r.put("tableName", 5), "$.tableName", "expected a string");
        assertRejected(
                r -> r.put("recordFormat", "application/cbor"),
                "$.recordFormat",
                "application/json");
        assertRejected(r -> r.put("eventName", "insert"), "$.eventName", "'insert'");
        assertRejected(r -> r.put("awsRegion", 1), "$.awsRegion", "expected a string");
        assertRejected(
                r -> dynamodb(r).put("ApproximateCreationDateTime", "1764496800123"),
                "$.dynamodb.ApproximateCreationDateTime",
                "expected a number");
        assertRejected(
                r ->
                        dynamodb(r)
                                .put(
                                        "ApproximateCreationDateTime",
                                        new java.math.BigDecimal("1764496800.5")),
                "$.dynamodb.ApproximateCreationDateTime",
                "whole epoch milliseconds");
        // a tree built with a double (not by our parser) is refused, never read through double
        assertRejected(
                r -> dynamodb(r).put("ApproximateCreationDateTime", 1764496800.5d),
                "$.dynamodb.ApproximateCreationDateTime",
                "BINARY_FLOAT");
        assertRejected(
                r -> dynamodb(r).put("ApproximateCreationDateTimePrecision", "SECOND"),
                "$.dynamodb.ApproximateCreationDateTimePrecision",
                "MILLISECOND or MICROSECOND");
        assertRejected(
                r -> ((ObjectNode) dynamodb(r).get("Keys")).putObject("PK").put("X", "1"),
                "$.dynamodb.Keys.PK",
                "unknown attribute type descriptor 'X'");
        assertRejected(
                r -> dynamodb(r).putObject("OldImage").putObject("a").put("S", "x"),
                "$.dynamodb.OldImage",
                "INSERT");
        assertRejected(
                r -> r.putObject("userIdentity").put("type", 1),
                "$.userIdentity.type",
                "expected a string");
    }
}
