package io.streamledger.local.spi;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import javax.annotation.Nullable;

/**
 * Reads top-level string members of an extension's JSON request (the Streams API of CS01/CS07 and
 * the export of CS09) and rejects a missing required one with DynamoDB's own "Value null"
 * validation message.
 */
public final class RequestFields {

    private RequestFields() {}

    /** The member as text, or null when it is absent or JSON null. */
    public static @Nullable String text(ObjectNode request, String field) {
        JsonNode n = request.get(field);
        return n == null || n.isNull() ? null : n.asText();
    }

    /** The member as non-empty text; otherwise a ValidationException naming it in camelCase. */
    public static String required(ObjectNode request, String field) {
        String v = text(request, field);
        if (v == null || v.isEmpty()) {
            throw ApiException.validation(
                    "1 validation error detected: Value null at '"
                            + Character.toLowerCase(field.charAt(0))
                            + field.substring(1)
                            + "' failed to satisfy constraint: Member must not be null");
        }
        return v;
    }
}
