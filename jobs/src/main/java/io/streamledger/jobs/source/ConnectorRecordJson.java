package io.streamledger.jobs.source;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.streamledger.model.change.ChangeRecord;
import io.streamledger.model.change.DynamoDbStreamsRecordParser;
import io.streamledger.model.change.JsonFields;
import java.io.IOException;
import java.math.BigDecimal;

/**
 * Turns the JSON that {@code FlinkDynamoDBStreamsConsumer} hands to its deserialization schema back
 * into the DynamoDB Streams wire shape the model parser reads (DESIGN "Change records").
 *
 * <p>What the connector really sends (read from flink-connector-kinesis 4.3.0-1.19): the
 * dynamodb-streams-kinesis-adapter's {@code RecordAdapter} serializes the SDK v1 {@code Record}
 * with its {@code RecordObjectMapper}. Names follow the wire ({@code eventID}, {@code dynamodb},
 * {@code Keys}, {@code NewImage}, {@code SequenceNumber}, attribute types {@code S}/{@code N}/…),
 * nulls are omitted, but two fields differ:
 *
 * <ul>
 *   <li>{@code ApproximateCreationDateTime} is a {@code java.util.Date} written by Jackson's
 *       DateSerializer: epoch <em>milliseconds</em>, while the API sends epoch seconds. Read as
 *       seconds it would land in the year 57,000; here it is divided by 1000.
 *   <li>{@code userIdentity} has no mix-in, so its bean names are lower camel case ({@code
 *       principalId}, {@code type}); they are renamed to the wire's {@code PrincipalId}/{@code
 *       Type}.
 * </ul>
 */
public final class ConnectorRecordJson {

    /** The strict mapper: numbers as BigDecimal, duplicate keys and trailing tokens rejected. */
    private static final ObjectMapper MAPPER = JsonFields.MAPPER;

    private ConnectorRecordJson() {}

    /**
     * The model's record of the connector's JSON: one streaming pass for a well-formed record (no
     * tree, milliseconds read as such); anything else through {@link #normalize} and the tree
     * parser, whose exception names the error.
     *
     * @param tableName the table whose stream was read
     * @param shardId the stream shard it was read from, or null
     */
    public static ChangeRecord parse(byte[] connectorJson, String tableName, String shardId)
            throws IOException {
        ChangeRecord fast =
                DynamoDbStreamsRecordParser.parseStreaming(connectorJson, tableName, shardId, true);
        return fast != null
                ? fast
                : DynamoDbStreamsRecordParser.parse(normalize(connectorJson), tableName, shardId);
    }

    /** The record in DynamoDB Streams wire shape. */
    public static JsonNode normalize(byte[] connectorJson) throws IOException {
        JsonNode root = MAPPER.readTree(connectorJson);
        if (root instanceof ObjectNode obj) {
            if (obj.get("dynamodb") instanceof ObjectNode ddb) {
                JsonNode created = ddb.get("ApproximateCreationDateTime");
                if (created != null && created.isIntegralNumber()) {
                    ddb.put(
                            "ApproximateCreationDateTime",
                            new BigDecimal(created.bigIntegerValue()).movePointLeft(3));
                }
            }
            if (obj.get("userIdentity") instanceof ObjectNode id) {
                rename(id, "principalId", "PrincipalId");
                rename(id, "type", "Type");
            }
        }
        return root;
    }

    private static void rename(ObjectNode node, String from, String to) {
        JsonNode v = node.remove(from);
        if (v != null && !node.has(to)) {
            node.set(to, v);
        }
    }
}
