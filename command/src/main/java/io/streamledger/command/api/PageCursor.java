package io.streamledger.command.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.Set;
import javax.annotation.Nullable;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * Opaque pagination cursor (AP02/AP03/AP05/AP06: "continue LEK"): base64url of the
 * LastEvaluatedKey's string attributes. On the way in it is validated: exactly the expected key
 * attributes, all strings, and the index partition value equal to the current query's, so a cursor
 * can never move a query into another partition (another tenant or account).
 */
public final class PageCursor {

    private PageCursor() {}

    @Nullable
    public static String encode(@Nullable Map<String, AttributeValue> lastEvaluatedKey) {
        if (lastEvaluatedKey == null || lastEvaluatedKey.isEmpty()) {
            return null;
        }
        ObjectNode o = StrictJson.MAPPER.createObjectNode();
        lastEvaluatedKey.forEach((k, v) -> o.put(k, v.s()));
        return token(o);
    }

    /** The opaque form of a cursor document: unpadded base64url of its JSON. */
    public static String token(ObjectNode cursor) {
        try {
            return Base64.getUrlEncoder()
                    .withoutPadding()
                    .encodeToString(StrictJson.MAPPER.writeValueAsBytes(cursor));
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * The cursor document of a token, or 400 {@code INVALID_CURSOR} when it is longer than {@code
     * maxLength} or not base64url JSON.
     */
    public static JsonNode document(String cursor, int maxLength) {
        if (cursor.length() > maxLength) {
            throw invalid("is too long");
        }
        try {
            byte[] raw = Base64.getUrlDecoder().decode(cursor);
            return StrictJson.MAPPER.readTree(new String(raw, StandardCharsets.UTF_8));
        } catch (IllegalArgumentException | java.io.IOException e) {
            throw invalid("is not a cursor issued by this service");
        }
    }

    /**
     * @param expectedAttributes the key attributes of table + index
     * @param partitionAttribute the index's partition attribute
     * @param partitionValue the value the current query uses for it
     */
    @Nullable
    public static Map<String, AttributeValue> decode(
            @Nullable String cursor,
            Set<String> expectedAttributes,
            String partitionAttribute,
            String partitionValue) {
        if (cursor == null || cursor.isEmpty()) {
            return null;
        }
        JsonNode node = document(cursor, 2048);
        if (node == null || !node.isObject() || node.size() != expectedAttributes.size()) {
            throw invalid("does not have this query's key shape");
        }
        Map<String, AttributeValue> key = new HashMap<>();
        Iterator<Map.Entry<String, JsonNode>> it = node.fields();
        while (it.hasNext()) {
            Map.Entry<String, JsonNode> e = it.next();
            if (!expectedAttributes.contains(e.getKey()) || !e.getValue().isTextual()) {
                throw invalid("does not have this query's key shape");
            }
            key.put(e.getKey(), AttributeValue.fromS(e.getValue().textValue()));
        }
        if (!partitionValue.equals(key.get(partitionAttribute).s())) {
            throw invalid("belongs to a different query");
        }
        return key;
    }

    /** 400 {@code INVALID_CURSOR}: "cursor " + why. */
    public static ApiException invalid(String why) {
        return ApiException.badRequest("INVALID_CURSOR", "cursor " + why);
    }
}
