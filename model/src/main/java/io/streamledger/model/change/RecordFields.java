package io.streamledger.model.change;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Map;
import javax.annotation.Nullable;

/** Fields common to both change-record formats, parsed with JSON paths in every error. */
final class RecordFields {
    static final String EVENT_SOURCE = "aws:dynamodb";

    private RecordFields() {}

    static Operation operation(JsonNode root) {
        String name = JsonFields.requireText(root, "eventName", "$");
        try {
            return Operation.valueOf(name);
        } catch (IllegalArgumentException e) {
            throw new ChangeRecordParseException(
                    "$.eventName", "'" + name + "' is not INSERT, MODIFY or REMOVE");
        }
    }

    static void eventSource(JsonNode root) {
        String source = JsonFields.requireText(root, "eventSource", "$");
        if (!EVENT_SOURCE.equals(source)) {
            throw new ChangeRecordParseException(
                    "$.eventSource", "expected '" + EVENT_SOURCE + "', got '" + source + "'");
        }
    }

    static Map<String, AttributeValue> keys(JsonNode dynamodb) {
        JsonNode keys = JsonFields.requireField(dynamodb, "Keys", "$.dynamodb");
        Map<String, AttributeValue> parsed = AttributeValueJson.readItem(keys, "$.dynamodb.Keys");
        if (parsed.isEmpty()) {
            throw new ChangeRecordParseException("$.dynamodb.Keys", "is empty");
        }
        return parsed;
    }

    static @Nullable Map<String, AttributeValue> image(
            JsonNode dynamodb, String field, Operation op) {
        JsonNode node = JsonFields.optionalObject(dynamodb, field, "$.dynamodb");
        if (node == null) {
            return null;
        }
        String path = "$.dynamodb." + field;
        if (field.equals("OldImage") && op == Operation.INSERT) {
            throw new ChangeRecordParseException(path, "an INSERT record has no OldImage");
        }
        if (field.equals("NewImage") && op == Operation.REMOVE) {
            throw new ChangeRecordParseException(path, "a REMOVE record has no NewImage");
        }
        return AttributeValueJson.readItem(node, path);
    }

    /** Streams API spells the members PrincipalId/Type; Lambda and Kinesis use lower case. */
    static @Nullable UserIdentity userIdentity(JsonNode root) {
        JsonNode node = JsonFields.optionalObject(root, "userIdentity", "$");
        if (node == null) {
            return null;
        }
        String principal = first(node, "principalId", "PrincipalId");
        String type = first(node, "type", "Type");
        return new UserIdentity(principal, type);
    }

    private static @Nullable String first(JsonNode node, String lower, String upper) {
        String v = JsonFields.optionalText(node, lower, "$.userIdentity");
        return v != null ? v : JsonFields.optionalText(node, upper, "$.userIdentity");
    }

    static void sizeBytes(JsonNode dynamodb) {
        Long size = JsonFields.optionalLong(dynamodb, "SizeBytes", "$.dynamodb");
        if (size != null && size < 1) {
            throw new ChangeRecordParseException("$.dynamodb.SizeBytes", "must be >= 1");
        }
    }
}
