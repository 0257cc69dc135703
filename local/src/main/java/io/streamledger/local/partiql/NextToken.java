package io.streamledger.local.partiql;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.streamledger.local.dynamodb.AttributeValues;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import javax.annotation.Nullable;

/**
 * The opaque {@code NextToken} of a SELECT page (AP11 paging): which of the statement's reads to
 * continue ({@code lookup}, e.g. the n-th partition key of an IN) and where ({@code startKey}, the
 * read's LastEvaluatedKey), bound to the statement and parameters it came from.
 */
record NextToken(int lookup, @Nullable ObjectNode startKey) {
    private static final ObjectMapper MAPPER = AttributeValues.newMapper();

    /** A short fingerprint of the statement and its parameters. */
    static String fingerprint(String statement, @Nullable JsonNode parameters) {
        int h =
                statement.hashCode() * 31
                        + (parameters == null ? 0 : parameters.toString().hashCode());
        return Integer.toHexString(h);
    }

    String encode(String fingerprint) {
        ObjectNode o = AttributeValues.JSON.objectNode();
        o.put("f", fingerprint);
        o.put("i", lookup);
        if (startKey != null) {
            o.set("k", startKey);
        }
        return Base64.getUrlEncoder()
                .withoutPadding()
                .encodeToString(o.toString().getBytes(StandardCharsets.UTF_8));
    }

    /** Decodes a client's token; ValidationException if it is not one or not of this request. */
    static NextToken decode(String token, String fingerprint) {
        JsonNode o;
        try {
            byte[] bytes = Base64.getUrlDecoder().decode(token);
            o = MAPPER.readTree(bytes);
        } catch (IllegalArgumentException | IOException e) {
            throw Messages.validation(Messages.INVALID_NEXT_TOKEN);
        }
        if (o == null
                || !o.isObject()
                || !o.path("f").isTextual()
                || !o.path("i").isInt()
                || o.path("i").asInt() < 0
                || (o.has("k") && !o.get("k").isObject())) {
            throw Messages.validation(Messages.INVALID_NEXT_TOKEN);
        }
        if (!o.get("f").asText().equals(fingerprint)) {
            throw Messages.validation(Messages.NEXT_TOKEN_MISMATCH);
        }
        return new NextToken(o.get("i").asInt(), o.has("k") ? (ObjectNode) o.get("k") : null);
    }
}
