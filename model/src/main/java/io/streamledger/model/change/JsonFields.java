package io.streamledger.model.change;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.streamledger.model.money.AmountException;
import io.streamledger.model.money.DecimalText;
import java.math.BigDecimal;
import javax.annotation.Nullable;

/**
 * Typed, path-naming access to JSON fields for the change-record and outbox parsers: every missing
 * or mistyped field becomes a {@link ChangeRecordParseException}. {@link #MAPPER} is the one strict
 * JSON mapper of change records, wherever they are read.
 */
public final class JsonFields {
    /**
     * Numbers are read as BigDecimal (never double), duplicate keys and trailing tokens rejected.
     */
    public static final ObjectMapper MAPPER =
            JsonMapper.builder()
                    .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
                    .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
                    .enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION)
                    .build();

    /** Upper bound of one JSON document: DynamoDB items are at most 400 KB. */
    static final int MAX_DOCUMENT_CHARS = 4 * 1024 * 1024;

    private JsonFields() {}

    static JsonNode parse(String json) {
        if (json == null) {
            throw new ChangeRecordParseException("$", "document is null");
        }
        if (json.length() > MAX_DOCUMENT_CHARS) {
            throw new ChangeRecordParseException(
                    "$", "document is " + json.length() + " chars; limit " + MAX_DOCUMENT_CHARS);
        }
        try {
            JsonNode node = MAPPER.readTree(json);
            if (node == null || node.isMissingNode()) {
                throw new ChangeRecordParseException("$", "document is empty");
            }
            return node;
        } catch (JsonProcessingException e) {
            throw new ChangeRecordParseException(
                    "$", "not valid JSON: " + e.getOriginalMessage(), e);
        }
    }

    static String path(String parent, String field) {
        return parent + "." + field;
    }

    static JsonNode requireObject(JsonNode node, String path) {
        if (node == null || node.isMissingNode() || node.isNull()) {
            throw new ChangeRecordParseException(path, "is missing, expected an object");
        }
        if (!node.isObject()) {
            throw new ChangeRecordParseException(
                    path, "expected an object, got " + node.getNodeType());
        }
        return node;
    }

    static JsonNode requireField(JsonNode parent, String field, String parentPath) {
        JsonNode value = parent.get(field);
        if (value == null || value.isNull()) {
            throw new ChangeRecordParseException(path(parentPath, field), "is missing");
        }
        return value;
    }

    static String requireText(JsonNode parent, String field, String parentPath) {
        JsonNode value = requireField(parent, field, parentPath);
        if (!value.isTextual()) {
            throw new ChangeRecordParseException(
                    path(parentPath, field), "expected a string, got " + value.getNodeType());
        }
        if (value.textValue().isEmpty()) {
            throw new ChangeRecordParseException(path(parentPath, field), "is empty");
        }
        return value.textValue();
    }

    static @Nullable String optionalText(JsonNode parent, String field, String parentPath) {
        JsonNode value = parent.get(field);
        if (value == null || value.isNull()) {
            return null;
        }
        if (!value.isTextual()) {
            throw new ChangeRecordParseException(
                    path(parentPath, field), "expected a string, got " + value.getNodeType());
        }
        return value.textValue();
    }

    static @Nullable JsonNode optionalObject(JsonNode parent, String field, String parentPath) {
        JsonNode value = parent.get(field);
        if (value == null || value.isNull()) {
            return null;
        }
        return requireObject(value, path(parentPath, field));
    }

    static BigDecimal requireNumber(JsonNode parent, String field, String parentPath) {
        JsonNode value = requireField(parent, field, parentPath);
        if (!value.isNumber()) {
            throw new ChangeRecordParseException(
                    path(parentPath, field), "expected a number, got " + value.getNodeType());
        }
        try {
            // refuses a DoubleNode/FloatNode (a tree built with doubles): never read through double
            return DecimalText.requireExact(value.numberValue());
        } catch (AmountException e) {
            throw new ChangeRecordParseException(path(parentPath, field), e.getMessage(), e);
        }
    }

    static long requireLong(JsonNode parent, String field, String parentPath) {
        BigDecimal n = requireNumber(parent, field, parentPath);
        try {
            return n.longValueExact();
        } catch (ArithmeticException e) {
            throw new ChangeRecordParseException(
                    path(parentPath, field),
                    "expected a whole number within 64 bits, got " + n.toPlainString());
        }
    }

    static @Nullable Long optionalLong(JsonNode parent, String field, String parentPath) {
        JsonNode value = parent.get(field);
        if (value == null || value.isNull()) {
            return null;
        }
        return requireLong(parent, field, parentPath);
    }
}
