package io.streamledger.command.api;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.node.ObjectNode;

/** The one JSON shape of every error response: {@code {"error":{"code":..,"message":..}}}. */
public final class ErrorBodies {

    private ErrorBodies() {}

    public static String json(String code, String message) {
        return json(code, message, java.util.Map.of());
    }

    /** The body of a rejection, with its details beside code and message. */
    public static String json(ApiException e) {
        return json(e.code(), e.getMessage(), e.details());
    }

    private static String json(String code, String message, java.util.Map<String, String> details) {
        ObjectNode root = StrictJson.MAPPER.createObjectNode();
        ObjectNode err = root.putObject("error");
        err.put("code", code);
        err.put("message", message);
        details.forEach(err::put);
        try {
            return StrictJson.MAPPER.writeValueAsString(root);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
