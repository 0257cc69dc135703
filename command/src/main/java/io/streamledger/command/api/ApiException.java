package io.streamledger.command.api;

import java.util.Map;

/** A request outcome that is not a success: HTTP status, stable error code, precise message. */
public class ApiException extends RuntimeException {

    private final int status;
    private final String code;
    private final Map<String, String> headers;
    private final Map<String, String> details;

    public ApiException(int status, String code, String message) {
        this(status, code, message, Map.of());
    }

    public ApiException(int status, String code, String message, Map<String, String> headers) {
        this(status, code, message, headers, Map.of());
    }

    private ApiException(
            int status,
            String code,
            String message,
            Map<String, String> headers,
            Map<String, String> details) {
        super(message);
        this.status = status;
        this.code = code;
        this.headers = Map.copyOf(headers);
        this.details = new java.util.TreeMap<>(details);
    }

    /** A 422 whose error body also carries the given fields (e.g. available and required). */
    public static ApiException unprocessable(
            String code, String message, Map<String, String> details) {
        return new ApiException(422, code, message, Map.of(), details);
    }

    public static ApiException badRequest(String code, String message) {
        return new ApiException(400, code, message);
    }

    public static ApiException unprocessable(String code, String message) {
        return new ApiException(422, code, message);
    }

    public static ApiException conflict(String code, String message) {
        return new ApiException(409, code, message);
    }

    /** 503 with Retry-After: 1, for items that kept moving under optimistic rounds. */
    public static ApiException busy(String code, String message) {
        return new ApiException(503, code, message, Map.of("Retry-After", "1"));
    }

    /** 503 ORDER_BUSY: the order kept moving for every optimistic round. */
    public static ApiException orderBusy(String orderId) {
        return busy("ORDER_BUSY", "order '" + orderId + "' is being updated concurrently; retry");
    }

    public static ApiException notFound(String message) {
        return new ApiException(404, "NOT_FOUND", message);
    }

    public int status() {
        return status;
    }

    public String code() {
        return code;
    }

    public Map<String, String> headers() {
        return headers;
    }

    /** Extra fields of the error body, in name order. */
    public Map<String, String> details() {
        return java.util.Collections.unmodifiableMap(details);
    }
}
