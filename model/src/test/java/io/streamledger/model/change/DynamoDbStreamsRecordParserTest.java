package io.streamledger.model.change;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Instant;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/** DynamoDB Streams GetRecords record JSON → ChangeRecord (DESIGN "Change records"). */
class DynamoDbStreamsRecordParserTest {

    /** A MODIFY of an order as GetRecords returns it (NEW_AND_OLD_IMAGES). */
    static final String MODIFY =
            """
            {
              "eventID": "c81e728d9d4c2f636f067f89cc14862c",
              "eventName": "MODIFY",
              "eventVersion": "1.1",
              "eventSource": "aws:dynamodb",
              "awsRegion": "us-east-1",
              "dynamodb": {
                "ApproximateCreationDateTime": 1764496800,
                "Keys": {"PK": {"S": "TEN#t1#ORDER#o-1"}, "SK": {"S": "META"}},
                "NewImage": {"PK": {"S": "TEN#t1#ORDER#o-1"}, "SK": {"S": "META"},
                             "status": {"S": "FILLED"}, "version": {"N": "3"},
                             "filledQuantity": {"N": "100.000000"}},
                "OldImage": {"PK": {"S": "TEN#t1#ORDER#o-1"}, "SK": {"S": "META"},
                             "status": {"S": "OPEN"}, "version": {"N": "2"},
                             "filledQuantity": {"N": "40.5"}},
                "SequenceNumber": "111100000000012345678901",
                "SizeBytes": 212,
                "StreamViewType": "NEW_AND_OLD_IMAGES"
              }
            }
            """;

    /** A TTL delete of an idempotency record. */
    static final String TTL_REMOVE =
            """
            {"eventID":"9","eventName":"REMOVE","eventVersion":"1.1","eventSource":"aws:dynamodb",
             "awsRegion":"eu-west-1",
             "dynamodb":{"ApproximateCreationDateTime":1764496801.5,
                         "Keys":{"PK":{"S":"TEN#t1#REQ#k"},"SK":{"S":"REQUEST"}},
                         "OldImage":{"PK":{"S":"TEN#t1#REQ#k"},"SK":{"S":"REQUEST"},
                                     "expiresAt":{"N":"1764400000"}},
                         "SequenceNumber":"222200000000000000000001","SizeBytes":80,
                         "StreamViewType":"OLD_IMAGE"},
             "userIdentity":{"PrincipalId":"dynamodb.amazonaws.com","Type":"Service"}}
            """;

    @Test
    void parsesAModifyWithBothImages() {
        ChangeRecord r = DynamoDbStreamsRecordParser.parse(MODIFY, "Orders", "shardId-0001");
        assertThat(r.eventId()).isEqualTo("c81e728d9d4c2f636f067f89cc14862c");
        assertThat(r.operation()).isEqualTo(Operation.MODIFY);
        assertThat(r.tableName()).isEqualTo("Orders");
        assertThat(r.stringKey("PK")).isEqualTo("TEN#t1#ORDER#o-1");
        assertThat(r.newImage()).containsEntry("status", AttributeValue.s("FILLED"));
        assertThat(((AttributeValue.N) r.newImage().get("filledQuantity")).text())
                .isEqualTo("100.000000");
        assertThat(r.oldImage()).containsEntry("version", AttributeValue.n("2"));
        assertThat(r.sequenceNumber()).isEqualTo("111100000000012345678901");
        assertThat(r.approximateCreationDateTime())
                .isEqualTo(Instant.parse("2025-11-30T10:00:00Z"));
        assertThat(r.sourcePosition())
                .isEqualTo(new SourcePosition("shardId-0001", "111100000000012345678901"));
        assertThat(r.userIdentity()).isNull();
        assertThat(r.transport()).isEqualTo(Transport.DYNAMODB_STREAMS);
        assertThat(r.isTtlDelete()).isFalse();
    }

    @Test
    void parsesATtlRemove() {
        ChangeRecord r = DynamoDbStreamsRecordParser.parse(TTL_REMOVE, "Idempotency", null);
        assertThat(r.operation()).isEqualTo(Operation.REMOVE);
        assertThat(r.newImage()).isNull();
        assertThat(r.oldImage()).containsKey("expiresAt");
        assertThat(r.userIdentity())
                .isEqualTo(new UserIdentity("dynamodb.amazonaws.com", "Service"));
        assertThat(r.isTtlDelete()).isTrue();
        assertThat(r.sourcePosition()).isNull();
        assertThat(r.approximateCreationDateTime())
                .isEqualTo(Instant.parse("2025-11-30T10:00:01.500Z"));
    }

    @Test
    void acceptsIsoCreationTimeAsToolsPrintIt() {
        ChangeRecord r =
                DynamoDbStreamsRecordParser.parse(
                        mutate(
                                MODIFY,
                                root ->
                                        dynamodb(root)
                                                .put(
                                                        "ApproximateCreationDateTime",
                                                        "2025-11-30T10:00:00Z")),
                        "Orders",
                        null);
        assertThat(r.approximateCreationDateTime())
                .isEqualTo(Instant.parse("2025-11-30T10:00:00Z"));
    }

    static ObjectNode dynamodb(ObjectNode root) {
        return (ObjectNode) root.get("dynamodb");
    }

    static JsonNode mutate(String json, Consumer<ObjectNode> change) {
        ObjectNode root = (ObjectNode) JsonFields.parse(json);
        change.accept(root);
        return root;
    }

    private static void assertRejected(Consumer<ObjectNode> change, String path, String message) {
        JsonNode bad = mutate(MODIFY, change);
        assertThatThrownBy(() -> DynamoDbStreamsRecordParser.parse(bad, "Orders", null))
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
        assertRejected(r -> r.remove("eventName"), "$.eventName", "is missing");
        assertRejected(r -> r.remove("eventSource"), "$.eventSource", "is missing");
        assertRejected(r -> r.remove("dynamodb"), "$.dynamodb", "is missing");
        assertRejected(r -> dynamodb(r).remove("Keys"), "$.dynamodb.Keys", "is missing");
        assertRejected(
                r -> dynamodb(r).remove("SequenceNumber"),
                "$.dynamodb.SequenceNumber",
                "is missing");
        assertRejected(
                r -> dynamodb(r).remove("ApproximateCreationDateTime"),
                "$.dynamodb.ApproximateCreationDateTime",
                "is missing");
        assertRejected(r -> r.putNull("eventID"), "$.eventID", "is missing");
    }

    @Test
    void mistypedFieldsAreNamed() {
        assertRejected(r -> r.put("eventID", 7), "$.eventID", "expected a string");
        assertRejected(r -> r.put("eventID", ""), "$.eventID", "is empty");
        assertRejected(r -> r.put("eventName", "UPSERT"), "$.eventName", "'UPSERT'");
        assertRejected(r -> r.put("eventSource", "aws:kinesis"), "$.eventSource", "aws:dynamodb");
        assertRejected(r -> r.put("eventVersion", 1), "$.eventVersion", "expected a string");
        assertRejected(r -> r.put("dynamodb", "x"), "$.dynamodb", "expected an object");
        assertRejected(r -> dynamodb(r).put("Keys", "x"), "$.dynamodb.Keys", "expected an object");
        assertRejected(r -> dynamodb(r).putObject("Keys"), "$.dynamodb.Keys", "is empty");
        assertRejected(
                r -> dynamodb(r).put("SequenceNumber", "abc"),
                "$.dynamodb.SequenceNumber",
                "decimal digits");
        assertRejected(
                r -> dynamodb(r).put("ApproximateCreationDateTime", "yesterday"),
                "$.dynamodb.ApproximateCreationDateTime",
                "neither epoch seconds nor ISO-8601");
        assertRejected(
                r -> dynamodb(r).put("ApproximateCreationDateTime", true),
                "$.dynamodb.ApproximateCreationDateTime",
                "expected a number");
        assertRejected(
                r -> dynamodb(r).put("StreamViewType", "ALL"),
                "$.dynamodb.StreamViewType",
                "unknown view type");
        assertRejected(r -> dynamodb(r).put("SizeBytes", 0), "$.dynamodb.SizeBytes", ">= 1");
        assertRejected(
                r -> dynamodb(r).put("SizeBytes", "big"),
                "$.dynamodb.SizeBytes",
                "expected a number");
        assertRejected(
                r -> dynamodb(r).put("NewImage", 3), "$.dynamodb.NewImage", "expected an object");
        assertRejected(
                r -> ((ObjectNode) dynamodb(r).get("NewImage")).putObject("version").put("N", "x"),
                "$.dynamodb.NewImage.version.N",
                "MALFORMED");
        assertRejected(r -> r.put("userIdentity", "ttl"), "$.userIdentity", "expected an object");
    }

    @Test
    void imagesMustFitTheOperation() {
        assertRejected(r -> r.put("eventName", "INSERT"), "$.dynamodb.OldImage", "INSERT");
        assertRejected(r -> r.put("eventName", "REMOVE"), "$.dynamodb.NewImage", "REMOVE");
    }

    @Test
    void malformedDocumentsAndNonObjects() {
        assertThatThrownBy(() -> DynamoDbStreamsRecordParser.parse("[1]", "Orders", null))
                .isInstanceOfSatisfying(
                        ChangeRecordParseException.class, e -> assertThat(e.path()).isEqualTo("$"));
        assertThatThrownBy(() -> DynamoDbStreamsRecordParser.parse("{not json", "Orders", null))
                .isInstanceOf(ChangeRecordParseException.class)
                .hasMessageContaining("not valid JSON");
        assertThatThrownBy(() -> DynamoDbStreamsRecordParser.parse((String) null, "Orders", null))
                .isInstanceOf(ChangeRecordParseException.class);
    }
}
