package io.streamledger.command.api;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.streamledger.model.json.StrictMapper;
import java.io.IOException;

/**
 * Parses a request body into a JSON object strictly: duplicate keys, trailing tokens and
 * non-objects are 400 with the parser's position; numbers stay exact BigDecimals (CS10).
 */
public final class StrictJson {

    /** Maximum accepted request body (bytes); larger bodies are 413 before any parsing. */
    public static final int MAX_BODY_BYTES = 64 * 1024;

    /** The model's strict mapper with request-sized read limits. */
    public static final ObjectMapper MAPPER =
            StrictMapper.builder(
                            JsonFactory.builder()
                                    .streamReadConstraints(
                                            StreamReadConstraints.builder()
                                                    .maxNestingDepth(16)
                                                    .maxNumberLength(64)
                                                    .maxStringLength(MAX_BODY_BYTES)
                                                    .build())
                                    .build())
                    .build();

    private StrictJson() {}

    /** Serialises a response body built in memory; failing here is a bug, not bad input. */
    public static String write(ObjectNode node) {
        try {
            return MAPPER.writeValueAsString(node);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    public static ObjectNode parseObject(byte[] body) {
        if (body == null || body.length == 0) {
            throw ApiException.badRequest("MALFORMED_JSON", "request body is empty");
        }
        if (body.length > MAX_BODY_BYTES) {
            throw tooLarge(body.length);
        }
        JsonNode node;
        try {
            node = MAPPER.readTree(body);
        } catch (JsonParseException e) {
            throw ApiException.badRequest(
                    "MALFORMED_JSON",
                    "malformed JSON at line "
                            + e.getLocation().getLineNr()
                            + " column "
                            + e.getLocation().getColumnNr()
                            + ": "
                            + e.getOriginalMessage());
        } catch (IOException e) {
            throw ApiException.badRequest("MALFORMED_JSON", "malformed JSON: " + e.getMessage());
        }
        if (node == null || !node.isObject()) {
            throw ApiException.badRequest("MALFORMED_JSON", "request body must be a JSON object");
        }
        return (ObjectNode) node;
    }

    public static ApiException tooLarge(long size) {
        return new ApiException(
                413,
                "BODY_TOO_LARGE",
                "request body of " + size + " bytes exceeds the limit of " + MAX_BODY_BYTES);
    }
}
