package io.streamledger.model.change;

import com.fasterxml.jackson.databind.JsonNode;
import java.math.BigDecimal;
import java.time.DateTimeException;
import java.time.Instant;
import javax.annotation.Nullable;

/**
 * Parses the data blob of a Kinesis record written by "Kinesis Data Streams for DynamoDB" into a
 * {@link ChangeRecord} (DESIGN "Change records"). Shape per the DynamoDB developer guide, <a
 * href="https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/kds.html">Using Kinesis
 * Data Streams to capture changes to DynamoDB</a>, and the precision setting of <a
 * href="https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_EnableKinesisStreamingConfiguration.html">EnableKinesisStreamingConfiguration</a>:
 *
 * <pre>{@code
 * {"awsRegion":"us-east-1","eventID":"…","eventName":"INSERT|MODIFY|REMOVE",
 *  "userIdentity":null,"recordFormat":"application/json","tableName":"Orders",
 *  "dynamodb":{"ApproximateCreationDateTime":1764496800123,"Keys":{…},"NewImage":{…},
 *              "OldImage":{…},"SizeBytes":123,
 *              "ApproximateCreationDateTimePrecision":"MILLISECOND"},
 *  "eventSource":"aws:dynamodb"}
 * }</pre>
 *
 * <p>{@code ApproximateCreationDateTime} is epoch milliseconds, or epoch microseconds when {@code
 * ApproximateCreationDateTimePrecision} is {@code MICROSECOND}. There is no stream sequence number
 * in the blob: the caller passes the Kinesis record's shard and sequence number, which become
 * {@link ChangeRecord#sourcePosition()} and {@link ChangeRecord#sequenceNumber()}. Kinesis may
 * duplicate and reorder records; consumers rely on inbox ids and versions, never on this order.
 */
public final class KinesisDynamoDbRecordParser {
    /** The only {@code recordFormat} this parser reads. */
    public static final String RECORD_FORMAT = "application/json";

    private KinesisDynamoDbRecordParser() {}

    /** Parses a record given as JSON text. */
    public static ChangeRecord parse(String json, @Nullable SourcePosition kinesisPosition) {
        return parse(JsonFields.parse(json), kinesisPosition);
    }

    /**
     * Parses a record given as a JSON tree.
     *
     * @param kinesisPosition Kinesis shard id and sequence number of the carrying record, or null
     * @throws ChangeRecordParseException naming the missing or mistyped field
     */
    public static ChangeRecord parse(JsonNode root, @Nullable SourcePosition kinesisPosition) {
        JsonFields.requireObject(root, "$");
        String eventId = JsonFields.requireText(root, "eventID", "$");
        Operation op = RecordFields.operation(root);
        RecordFields.eventSource(root);
        String format = JsonFields.requireText(root, "recordFormat", "$");
        if (!RECORD_FORMAT.equals(format)) {
            throw new ChangeRecordParseException(
                    "$.recordFormat", "expected '" + RECORD_FORMAT + "', got '" + format + "'");
        }
        String tableName = JsonFields.requireText(root, "tableName", "$");
        JsonFields.optionalText(root, "awsRegion", "$");
        JsonNode dynamodb = JsonFields.requireObject(root.get("dynamodb"), "$.dynamodb");
        Instant created = creationTime(dynamodb);
        RecordFields.sizeBytes(dynamodb);
        return new ChangeRecord(
                eventId,
                op,
                tableName,
                RecordFields.keys(dynamodb),
                RecordFields.image(dynamodb, "OldImage", op),
                RecordFields.image(dynamodb, "NewImage", op),
                kinesisPosition == null ? null : kinesisPosition.sequenceNumber(),
                created,
                kinesisPosition,
                RecordFields.userIdentity(root),
                Transport.KINESIS);
    }

    private static Instant creationTime(JsonNode dynamodb) {
        String precision =
                JsonFields.optionalText(
                        dynamodb, "ApproximateCreationDateTimePrecision", "$.dynamodb");
        if (precision != null
                && !precision.equals("MILLISECOND")
                && !precision.equals("MICROSECOND")) {
            throw new ChangeRecordParseException(
                    "$.dynamodb.ApproximateCreationDateTimePrecision",
                    "expected MILLISECOND or MICROSECOND, got '" + precision + "'");
        }
        BigDecimal value =
                JsonFields.requireNumber(dynamodb, "ApproximateCreationDateTime", "$.dynamodb");
        String path = "$.dynamodb.ApproximateCreationDateTime";
        try {
            long whole = value.longValueExact();
            return "MICROSECOND".equals(precision)
                    ? Instant.ofEpochSecond(
                            Math.floorDiv(whole, 1_000_000L),
                            Math.floorMod(whole, 1_000_000L) * 1_000L)
                    : Instant.ofEpochMilli(whole);
        } catch (ArithmeticException | DateTimeException e) {
            throw new ChangeRecordParseException(
                    path,
                    "expected whole epoch "
                            + ("MICROSECOND".equals(precision) ? "microseconds" : "milliseconds")
                            + ", got "
                            + value.toPlainString());
        }
    }
}
