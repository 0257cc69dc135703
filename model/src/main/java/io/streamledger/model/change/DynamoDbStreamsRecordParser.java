package io.streamledger.model.change;

import com.fasterxml.jackson.databind.JsonNode;
import io.streamledger.model.table.StreamViewType;
import java.math.BigDecimal;
import java.time.DateTimeException;
import java.time.Instant;
import java.util.regex.Pattern;
import javax.annotation.Nullable;

/**
 * Parses one record of a DynamoDB Streams {@code GetRecords} response into a {@link ChangeRecord}
 * (DESIGN "Change records"). Shape per the DynamoDB Streams API reference, <a
 * href="https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_streams_Record.html">Record</a>
 * and <a
 * href="https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_streams_StreamRecord.html">StreamRecord</a>:
 *
 * <pre>{@code
 * {"eventID":"…","eventName":"INSERT|MODIFY|REMOVE","eventVersion":"1.1",
 *  "eventSource":"aws:dynamodb","awsRegion":"us-east-1",
 *  "dynamodb":{"ApproximateCreationDateTime":1764496800,"Keys":{…},"NewImage":{…},
 *              "OldImage":{…},"SequenceNumber":"…","SizeBytes":123,
 *              "StreamViewType":"NEW_AND_OLD_IMAGES"},
 *  "userIdentity":{"PrincipalId":"dynamodb.amazonaws.com","Type":"Service"}}
 * }</pre>
 *
 * <p>{@code ApproximateCreationDateTime} is UNIX epoch seconds on the wire (the API reference:
 * "rounded down to the closest second"; a fraction is accepted); an ISO-8601 string, as some tools
 * print it, is accepted too. {@code userIdentity} is present only for TTL deletes. The record does
 * not name its table, so the caller passes the table of the stream it read.
 */
public final class DynamoDbStreamsRecordParser {
    private static final Pattern SEQUENCE = Pattern.compile("\\d{1,40}");

    private DynamoDbStreamsRecordParser() {}

    /** Parses a record given as JSON text. */
    public static ChangeRecord parse(String json, String tableName, @Nullable String shardId) {
        return parse(JsonFields.parse(json), tableName, shardId);
    }

    /**
     * Parses a record given as UTF-8 JSON bytes in one streaming pass, without a JSON tree: the
     * fast path for well-formed records. It accepts exactly what {@link #parse(JsonNode, String,
     * String)} accepts and yields the same record; for anything it does not accept it returns null,
     * and the caller parses the tree, whose exception names the error.
     *
     * @param creationMillis {@code ApproximateCreationDateTime} is whole epoch milliseconds (an SDK
     *     v1 {@code Record} as the DynamoDB Streams Kinesis adapter serializes it) instead of the
     *     API's epoch seconds
     * @return the record, or null when the tree parser must decide
     */
    public static @Nullable ChangeRecord parseStreaming(
            byte[] json, String tableName, @Nullable String shardId, boolean creationMillis) {
        return StreamingRecordReader.read(json, tableName, shardId, creationMillis);
    }

    /**
     * Parses a record given as a JSON tree.
     *
     * @param tableName the table whose stream was read
     * @param shardId the stream shard it was read from, or null when unknown
     * @throws ChangeRecordParseException naming the missing or mistyped field
     */
    public static ChangeRecord parse(JsonNode root, String tableName, @Nullable String shardId) {
        if (tableName == null || tableName.isEmpty()) {
            throw new IllegalArgumentException("tableName is required for a Streams record");
        }
        JsonFields.requireObject(root, "$");
        String eventId = JsonFields.requireText(root, "eventID", "$");
        Operation op = RecordFields.operation(root);
        RecordFields.eventSource(root);
        JsonFields.optionalText(root, "eventVersion", "$");
        JsonFields.optionalText(root, "awsRegion", "$");
        JsonNode dynamodb = JsonFields.requireObject(root.get("dynamodb"), "$.dynamodb");
        Instant created = creationTime(dynamodb);
        String sequence = JsonFields.requireText(dynamodb, "SequenceNumber", "$.dynamodb");
        if (!isSequenceNumber(sequence)) {
            throw new ChangeRecordParseException(
                    "$.dynamodb.SequenceNumber",
                    "expected 1..40 decimal digits, got '" + sequence + "'");
        }
        streamViewType(dynamodb);
        RecordFields.sizeBytes(dynamodb);
        return new ChangeRecord(
                eventId,
                op,
                tableName,
                RecordFields.keys(dynamodb),
                RecordFields.image(dynamodb, "OldImage", op),
                RecordFields.image(dynamodb, "NewImage", op),
                sequence,
                created,
                shardId == null ? null : new SourcePosition(shardId, sequence),
                RecordFields.userIdentity(root),
                Transport.DYNAMODB_STREAMS);
    }

    private static Instant creationTime(JsonNode dynamodb) {
        String path = "$.dynamodb.ApproximateCreationDateTime";
        JsonNode node =
                JsonFields.requireField(dynamodb, "ApproximateCreationDateTime", "$.dynamodb");
        if (node.isTextual()) {
            try {
                return Instant.parse(node.textValue());
            } catch (DateTimeException e) {
                throw new ChangeRecordParseException(
                        path, "'" + node.textValue() + "' is neither epoch seconds nor ISO-8601");
            }
        }
        BigDecimal seconds =
                JsonFields.requireNumber(dynamodb, "ApproximateCreationDateTime", "$.dynamodb");
        return epochSeconds(seconds, path);
    }

    static boolean isSequenceNumber(String sequence) {
        return SEQUENCE.matcher(sequence).matches();
    }

    /** Epoch seconds, a fraction allowed, as an instant (floor to the nanosecond). */
    static Instant epochSeconds(BigDecimal seconds, String path) {
        try {
            long whole = seconds.setScale(0, java.math.RoundingMode.FLOOR).longValueExact();
            long nanos =
                    seconds.subtract(BigDecimal.valueOf(whole))
                            .movePointRight(9)
                            .setScale(0, java.math.RoundingMode.FLOOR)
                            .longValueExact();
            return Instant.ofEpochSecond(whole, nanos);
        } catch (ArithmeticException | DateTimeException e) {
            throw new ChangeRecordParseException(
                    path, "epoch seconds " + seconds.toPlainString() + " out of range");
        }
    }

    private static void streamViewType(JsonNode dynamodb) {
        String view = JsonFields.optionalText(dynamodb, "StreamViewType", "$.dynamodb");
        if (view != null) {
            try {
                StreamViewType.valueOf(view);
            } catch (IllegalArgumentException e) {
                throw new ChangeRecordParseException(
                        "$.dynamodb.StreamViewType", "unknown view type '" + view + "'");
            }
        }
    }
}
