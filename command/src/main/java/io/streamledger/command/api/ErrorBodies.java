package io.streamledger.command.api;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.node.ObjectNode;

/** The one JSON shape of every error response: {@code {"error":{"code":..,"message":..}}}. */
public final class ErrorBodies {

    private ErrorBodies() {}

    public static String json(String code, String message) {
        ObjectNode root = StrictJson.MAPPER.createObjectNode();
        ObjectNode err = root.putObject("error");
        err.put("code", code);
        err.put("message", message);
        try {
            return StrictJson.MAPPER.writeValueAsString(root);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
