package io.streamledger.local.dynamodb.expr;

import com.fasterxml.jackson.databind.JsonNode;
import io.streamledger.local.dynamodb.AttributeValues;
import io.streamledger.local.spi.ApiException;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import javax.annotation.Nullable;

/**
 * ExpressionAttributeNames/Values of one request, recording which were used so that unused ones are
 * rejected as DynamoDB does (AP08/AP16/AP17 guarded writes).
 */
public final class ExpressionContext {
    private final Map<String, String> names = new LinkedHashMap<>();
    private final Map<String, JsonNode> values = new LinkedHashMap<>();
    private final Set<String> usedNames = new TreeSet<>();
    private final Set<String> usedValues = new TreeSet<>();

    public ExpressionContext(@Nullable JsonNode eans, @Nullable JsonNode eavs) {
        if (eans != null && !eans.isNull()) {
            if (eans.isEmpty()) {
                throw ApiException.validation("ExpressionAttributeNames must not be empty");
            }
            Iterator<Map.Entry<String, JsonNode>> it = eans.fields();
            while (it.hasNext()) {
                Map.Entry<String, JsonNode> e = it.next();
                names.put(e.getKey(), e.getValue().asText());
            }
        }
        if (eavs != null && !eavs.isNull()) {
            if (eavs.isEmpty()) {
                throw ApiException.validation("ExpressionAttributeValues must not be empty");
            }
            Iterator<Map.Entry<String, JsonNode>> it = eavs.fields();
            while (it.hasNext()) {
                Map.Entry<String, JsonNode> e = it.next();
                try {
                    AttributeValues.validateValue(e.getValue());
                } catch (ApiException ex) {
                    throw ApiException.validation(
                            "ExpressionAttributeValues contains invalid value: "
                                    + ex.getMessage()
                                    + " for key "
                                    + e.getKey());
                }
                values.put(e.getKey(), e.getValue());
            }
        }
    }

    public boolean isEmpty() {
        return names.isEmpty() && values.isEmpty();
    }

    String name(String placeholder) {
        String n = names.get(placeholder);
        if (n == null) {
            throw new ExpressionException(
                    "An expression attribute name used in the document path is not defined;"
                            + " attribute name: "
                            + placeholder);
        }
        usedNames.add(placeholder);
        return n;
    }

    JsonNode value(String placeholder) {
        JsonNode v = values.get(placeholder);
        if (v == null) {
            throw new ExpressionException(
                    "An expression attribute value used in expression is not defined; attribute"
                            + " value: "
                            + placeholder);
        }
        usedValues.add(placeholder);
        return v;
    }

    /** Throws ValidationException for names or values that no expression used. */
    public void checkAllUsed() {
        Set<String> unusedNames = new TreeSet<>(names.keySet());
        unusedNames.removeAll(usedNames);
        if (!unusedNames.isEmpty()) {
            throw ApiException.validation(
                    "Value provided in ExpressionAttributeNames unused in expressions: keys: {"
                            + String.join(", ", unusedNames)
                            + "}");
        }
        Set<String> unusedValues = new TreeSet<>(values.keySet());
        unusedValues.removeAll(usedValues);
        if (!unusedValues.isEmpty()) {
            throw ApiException.validation(
                    "Value provided in ExpressionAttributeValues unused in expressions: keys: {"
                            + String.join(", ", unusedValues)
                            + "}");
        }
    }

    /** Parse-time error that the caller prefixes with "Invalid XExpression: ". */
    public static final class ExpressionException extends RuntimeException {
        public ExpressionException(String message) {
            super(message, null, false, false);
        }
    }
}
