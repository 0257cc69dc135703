package io.streamledger.model.change;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The streaming pass ({@link DynamoDbStreamsRecordParser#parseStreaming}) against the tree parser
 * (DESIGN "Change records"): same record for what it accepts, and it accepts nothing the tree
 * parser refuses — checked over every field of the samples removed or replaced by each JSON type.
 */
class StreamingRecordReaderTest {

    /** Every attribute type, nested L/M, lower-case userIdentity (the adapter's spelling). */
    static final String ALL_TYPES =
            """
            {"eventID":"e-1","eventName":"MODIFY","eventVersion":"1.1","eventSource":"aws:dynamodb",
             "awsRegion":"us-east-1",
             "dynamodb":{"ApproximateCreationDateTime":1764496800.25,
               "Keys":{"PK":{"S":"TEN#t#AUTH"},"SK":{"S":"AUTH#CASH#USD"}},
               "NewImage":{"PK":{"S":"TEN#t#AUTH"},"SK":{"S":"AUTH#CASH#USD"},"n":{"N":"10.50"},
                 "b":{"B":"AAEC"},"t":{"BOOL":true},"f":{"BOOL":false},"z":{"NULL":true},
                 "l":{"L":[{"S":"x"},{"N":"1"},{"M":{"k":{"S":"v"}}}]},
                 "m":{"M":{"inner":{"L":[]}}},"ss":{"SS":["a","b"]},"ns":{"NS":["1","2.5"]},
                 "bs":{"BS":["AA==","AQ=="]}},
               "OldImage":{"PK":{"S":"TEN#t#AUTH"},"SK":{"S":"AUTH#CASH#USD"},"n":{"N":"9"}},
               "SequenceNumber":"300000000000000000001","SizeBytes":300,
               "StreamViewType":"NEW_AND_OLD_IMAGES","Unknown":{"x":[1,2,{"y":null}]}},
             "userIdentity":{"principalId":"dynamodb.amazonaws.com","type":"Service"}}
            """;

    private static final List<JsonNode> REPLACEMENTS =
            List.of(
                    JsonNodeFactory.instance.nullNode(),
                    JsonNodeFactory.instance.numberNode(1),
                    JsonNodeFactory.instance.numberNode(new java.math.BigDecimal("1.5")),
                    JsonNodeFactory.instance.textNode(""),
                    JsonNodeFactory.instance.textNode("x"),
                    JsonNodeFactory.instance.booleanNode(true),
                    JsonNodeFactory.instance.booleanNode(false),
                    JsonNodeFactory.instance.arrayNode(),
                    JsonNodeFactory.instance.objectNode());

    private static ChangeRecord fast(String json, String table, String shard) {
        return DynamoDbStreamsRecordParser.parseStreaming(
                json.getBytes(StandardCharsets.UTF_8), table, shard, false);
    }

    @Test
    void wellFormedRecordsParseInOnePassToTheTreeParsersRecord() {
        for (String sample :
                List.of(
                        ALL_TYPES,
                        DynamoDbStreamsRecordParserTest.MODIFY,
                        DynamoDbStreamsRecordParserTest.TTL_REMOVE)) {
            ChangeRecord streamed = fast(sample, "Ledger", "shardId-1");
            assertThat(streamed).isNotNull();
            assertThat(streamed)
                    .isEqualTo(DynamoDbStreamsRecordParser.parse(sample, "Ledger", "shardId-1"));
        }
        ChangeRecord r = fast(ALL_TYPES, "Ledger", null);
        assertThat(r.userIdentity())
                .isEqualTo(new UserIdentity("dynamodb.amazonaws.com", "Service"));
        assertThat(r.approximateCreationDateTime())
                .isEqualTo(java.time.Instant.parse("2025-11-30T10:00:00.250Z"));
        assertThat(r.sourcePosition()).isNull();
    }

    @Test
    void creationMillisAreReadAsMilliseconds() {
        String millis =
                DynamoDbStreamsRecordParserTest.MODIFY.replace("1764496800", "1764496800123");
        ChangeRecord r =
                DynamoDbStreamsRecordParser.parseStreaming(
                        millis.getBytes(StandardCharsets.UTF_8), "Orders", null, true);
        assertThat(r.approximateCreationDateTime())
                .isEqualTo(java.time.Instant.parse("2025-11-30T10:00:00.123Z"));
        // a fraction is not the adapter's shape: the tree parser decides
        assertThat(
                        DynamoDbStreamsRecordParser.parseStreaming(
                                DynamoDbStreamsRecordParserTest.TTL_REMOVE.getBytes(
                                        StandardCharsets.UTF_8),
                                "Idempotency",
                                null,
                                true))
                .isNull();
    }

    @Test
    void declinesWhatTheTreeParserRefusesOrMustDecide() {
        String m = DynamoDbStreamsRecordParserTest.MODIFY;
        assertThat(
                        fast(
                                m.replace(
                                        "\"SizeBytes\": 212",
                                        "\"SizeBytes\": 212, \"SizeBytes\": 1"),
                                "O",
                                null))
                .isNull(); // duplicate key
        assertThat(fast(m + " {}", "O", null)).isNull(); // trailing tokens
        assertThat(fast(m.replace("\"N\": \"3\"", "\"N\": \"3\", \"S\": \"3\""), "O", null))
                .isNull(); // two type descriptors
        assertThat(fast(m.replace("1764496800", "\"2025-11-30T10:00:00Z\""), "O", null))
                .isNull(); // ISO text: the tree parser reads it
        assertThat(fast(m, "", null)).isNull();
        assertThat(fast("[]", "O", null)).isNull();
        assertThat(fast("{", "O", null)).isNull();
    }

    @Test
    void acceptsNothingTheTreeParserRefusesAndAgreesOnEverythingElse() {
        int accepted = 0;
        int variants = 0;
        for (String sample :
                List.of(
                        ALL_TYPES,
                        DynamoDbStreamsRecordParserTest.MODIFY,
                        DynamoDbStreamsRecordParserTest.TTL_REMOVE)) {
            ObjectNode original = (ObjectNode) JsonFields.parse(sample);
            List<List<String>> paths = new ArrayList<>();
            MalformedInputSweepTest.collect(original, new ArrayList<>(), paths);
            for (List<String> path : paths) {
                for (int r = -1; r < REPLACEMENTS.size(); r++) {
                    ObjectNode copy = original.deepCopy();
                    ObjectNode parent =
                            (ObjectNode)
                                    MalformedInputSweepTest.navigate(
                                            copy, path.subList(0, path.size() - 1));
                    String field = path.get(path.size() - 1);
                    if (r < 0) {
                        parent.remove(field);
                    } else {
                        parent.set(field, REPLACEMENTS.get(r).deepCopy());
                    }
                    variants++;
                    ChangeRecord streamed = fast(copy.toString(), "Ledger", "s-1");
                    ChangeRecord tree;
                    try {
                        tree = DynamoDbStreamsRecordParser.parse(copy, "Ledger", "s-1");
                    } catch (ChangeRecordParseException | IllegalArgumentException e) {
                        assertThat(streamed)
                                .as("accepted %s / %d refused by the tree: %s", path, r, e)
                                .isNull();
                        continue;
                    }
                    if (streamed != null) {
                        accepted++;
                        assertThat(streamed).as("%s / %d", path, r).isEqualTo(tree);
                    }
                }
            }
        }
        assertThat(variants).isGreaterThan(500);
        assertThat(accepted).isGreaterThan(50);
    }
}
