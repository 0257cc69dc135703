package io.streamledger.model.change;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.streamledger.model.money.DecimalText;
import io.streamledger.model.table.StreamViewType;
import java.io.IOException;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.annotation.Nullable;

/**
 * One streaming pass over a DynamoDB Streams record's UTF-8 JSON straight into a {@link
 * ChangeRecord} (DESIGN "Change records"), without the JSON tree {@link
 * DynamoDbStreamsRecordParser} builds. It accepts only what the tree parser accepts, and declines
 * (null) anything else — a missing, null, mistyped or invalid field, an unusual shape — so the
 * caller parses the tree, which names the error: one set of error messages, two speeds.
 */
final class StreamingRecordReader {

    /** Thrown inside the pass to decline; no stack trace (declining is a normal outcome). */
    private static final class Decline extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Decline() {
            super(null, null, false, false);
        }
    }

    private static final Decline DECLINE = new Decline();

    private StreamingRecordReader() {}

    /** The fields of one record, collected in any order, checked after the pass. */
    private static final class Fields {
        String eventId;
        String eventName;
        String eventSource;
        BigDecimal createdSeconds;
        String sequence;
        String viewType;
        Long sizeBytes;
        Map<String, AttributeValue> keys;
        Map<String, AttributeValue> oldImage;
        Map<String, AttributeValue> newImage;
        boolean identity;
        String principalId;
        String type;
    }

    /**
     * @param creationMillis {@code ApproximateCreationDateTime} is whole epoch milliseconds (an SDK
     *     v1 {@code Record} as the streams adapter serializes it), not the API's epoch seconds
     * @return the record, or null when the tree parser must decide
     */
    static @Nullable ChangeRecord read(
            byte[] json, String tableName, @Nullable String shardId, boolean creationMillis) {
        if (json == null || tableName == null || tableName.isEmpty()) {
            return null;
        }
        try (JsonParser p = JsonFields.MAPPER.createParser(json)) {
            Fields f = new Fields();
            if (p.nextToken() != JsonToken.START_OBJECT) {
                return null;
            }
            root(p, f, creationMillis);
            if (p.nextToken() != null) {
                return null; // trailing tokens: the tree parser refuses them
            }
            return build(f, tableName, shardId);
        } catch (IOException | RuntimeException e) {
            return null; // syntax, duplicate keys, limits, any invalid value: the tree decides
        }
    }

    private static void root(JsonParser p, Fields f, boolean creationMillis) throws IOException {
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String name = p.currentName();
            JsonToken t = p.nextToken();
            switch (name) {
                case "eventID" -> f.eventId = text(p, t);
                case "eventName" -> f.eventName = text(p, t);
                case "eventSource" -> f.eventSource = text(p, t);
                case "eventVersion", "awsRegion" -> text(p, t);
                case "dynamodb" -> {
                    require(t == JsonToken.START_OBJECT);
                    dynamodb(p, f, creationMillis);
                }
                case "userIdentity" -> {
                    require(t == JsonToken.START_OBJECT);
                    userIdentity(p, f);
                }
                default -> p.skipChildren();
            }
        }
    }

    private static void dynamodb(JsonParser p, Fields f, boolean creationMillis)
            throws IOException {
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String name = p.currentName();
            JsonToken t = p.nextToken();
            switch (name) {
                case "ApproximateCreationDateTime" ->
                        f.createdSeconds = created(p, t, creationMillis);
                case "SequenceNumber" -> f.sequence = text(p, t);
                case "StreamViewType" -> f.viewType = text(p, t);
                case "SizeBytes" -> {
                    require(t == JsonToken.VALUE_NUMBER_INT);
                    f.sizeBytes = p.getLongValue();
                }
                case "Keys" -> f.keys = item(p, t, 0);
                case "NewImage" -> f.newImage = item(p, t, 0);
                case "OldImage" -> f.oldImage = item(p, t, 0);
                default -> p.skipChildren();
            }
        }
    }

    private static BigDecimal created(JsonParser p, JsonToken t, boolean creationMillis)
            throws IOException {
        if (creationMillis) {
            require(t == JsonToken.VALUE_NUMBER_INT);
            return DecimalText.requireExact(
                    new BigDecimal(p.getBigIntegerValue()).movePointLeft(3));
        }
        require(t == JsonToken.VALUE_NUMBER_INT || t == JsonToken.VALUE_NUMBER_FLOAT);
        return DecimalText.requireExact(p.getDecimalValue());
    }

    /** Lower-case (Lambda, Kinesis, the adapter) or API names; both spellings at once: decline. */
    private static void userIdentity(JsonParser p, Fields f) throws IOException {
        f.identity = true;
        boolean lowerPrincipal = false;
        boolean upperPrincipal = false;
        boolean lowerType = false;
        boolean upperType = false;
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String name = p.currentName();
            JsonToken t = p.nextToken();
            switch (name) {
                case "principalId", "PrincipalId" -> {
                    lowerPrincipal |= name.equals("principalId");
                    upperPrincipal |= name.equals("PrincipalId");
                    f.principalId = text(p, t);
                }
                case "type", "Type" -> {
                    lowerType |= name.equals("type");
                    upperType |= name.equals("Type");
                    f.type = text(p, t);
                }
                default -> p.skipChildren();
            }
        }
        require(!(lowerPrincipal && upperPrincipal) && !(lowerType && upperType));
    }

    /** An item / image: attribute name → one typed value ({@link AttributeValueJson#readItem}). */
    private static Map<String, AttributeValue> item(JsonParser p, JsonToken t, int depth)
            throws IOException {
        require(t == JsonToken.START_OBJECT);
        Map<String, AttributeValue> item = new LinkedHashMap<>();
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String name = p.currentName();
            require(!name.isEmpty());
            item.put(name, value(p, p.nextToken(), depth));
        }
        return item; // ChangeRecord and M make their own unmodifiable copy
    }

    /** One typed value: an object with exactly one type descriptor ({@link AttributeValueJson}). */
    private static AttributeValue value(JsonParser p, JsonToken t, int depth) throws IOException {
        require(depth <= AttributeValueJson.MAX_DEPTH && t == JsonToken.START_OBJECT);
        require(p.nextToken() == JsonToken.FIELD_NAME);
        String type = p.currentName();
        JsonToken v = p.nextToken();
        AttributeValue out =
                switch (type) {
                    case "S" -> AttributeValue.s(text(p, v));
                    case "N" -> AttributeValue.n(text(p, v));
                    case "B" -> AttributeValue.B.base64(text(p, v));
                    case "BOOL" -> {
                        require(v == JsonToken.VALUE_TRUE || v == JsonToken.VALUE_FALSE);
                        yield AttributeValue.bool(v == JsonToken.VALUE_TRUE);
                    }
                    case "NULL" -> {
                        require(v == JsonToken.VALUE_TRUE);
                        yield AttributeValue.nul();
                    }
                    case "L" -> {
                        require(v == JsonToken.START_ARRAY);
                        List<AttributeValue> list = new ArrayList<>();
                        JsonToken e;
                        while ((e = p.nextToken()) != JsonToken.END_ARRAY) {
                            list.add(value(p, e, depth + 1));
                        }
                        yield AttributeValue.l(list);
                    }
                    case "M" -> AttributeValue.m(item(p, v, depth + 1));
                    case "SS" -> new AttributeValue.SS(texts(p, v));
                    case "NS" -> new AttributeValue.NS(texts(p, v));
                    case "BS" -> {
                        List<AttributeValue.B> list = new ArrayList<>();
                        for (String s : texts(p, v)) {
                            list.add(AttributeValue.B.base64(s));
                        }
                        yield new AttributeValue.BS(list);
                    }
                    default -> throw DECLINE;
                };
        require(p.nextToken() == JsonToken.END_OBJECT); // exactly one descriptor
        return out;
    }

    private static List<String> texts(JsonParser p, JsonToken t) throws IOException {
        require(t == JsonToken.START_ARRAY);
        List<String> out = new ArrayList<>();
        JsonToken e;
        while ((e = p.nextToken()) != JsonToken.END_ARRAY) {
            out.add(text(p, e));
        }
        return out;
    }

    /** The checks of the tree parser ({@link DynamoDbStreamsRecordParser}), in its order. */
    private static ChangeRecord build(Fields f, String tableName, @Nullable String shardId) {
        require(f.eventId != null && !f.eventId.isEmpty());
        require(f.eventName != null && !f.eventName.isEmpty());
        Operation op = Operation.valueOf(f.eventName);
        require(RecordFields.EVENT_SOURCE.equals(f.eventSource));
        require(f.createdSeconds != null && f.sequence != null && !f.sequence.isEmpty());
        require(DynamoDbStreamsRecordParser.isSequenceNumber(f.sequence));
        if (f.viewType != null) {
            StreamViewType.valueOf(f.viewType);
        }
        require(f.sizeBytes == null || f.sizeBytes >= 1);
        require(f.keys != null && !f.keys.isEmpty());
        require(!(op == Operation.INSERT && f.oldImage != null));
        require(!(op == Operation.REMOVE && f.newImage != null));
        Instant created =
                DynamoDbStreamsRecordParser.epochSeconds(
                        f.createdSeconds, "$.dynamodb.ApproximateCreationDateTime");
        return new ChangeRecord(
                f.eventId,
                op,
                tableName,
                f.keys,
                f.oldImage,
                f.newImage,
                f.sequence,
                created,
                shardId == null ? null : new SourcePosition(shardId, f.sequence),
                f.identity ? new UserIdentity(f.principalId, f.type) : null,
                Transport.DYNAMODB_STREAMS);
    }

    /** A string token (null or any other type: decline). */
    private static String text(JsonParser p, JsonToken t) throws IOException {
        require(t == JsonToken.VALUE_STRING);
        return p.getText();
    }

    private static void require(boolean ok) {
        if (!ok) {
            throw DECLINE;
        }
    }
}
