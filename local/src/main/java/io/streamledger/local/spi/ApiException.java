package io.streamledger.local.spi;

import com.fasterxml.jackson.databind.node.ObjectNode;
import javax.annotation.Nullable;

/**
 * An error in DynamoDB's wire shape: {@code __type}, {@code message}, HTTP status, plus optional
 * extra body fields (e.g. {@code CancellationReasons}, {@code Item}).
 */
public class ApiException extends RuntimeException {
    private static final String PREFIX = "com.amazonaws.dynamodb.v20120810#";

    private final String type;
    private final int httpStatus;
    private final @Nullable ObjectNode extra;

    public ApiException(String type, int httpStatus, String message, @Nullable ObjectNode extra) {
        super(message, null, false, false);
        this.type = type;
        this.httpStatus = httpStatus;
        this.extra = extra;
    }

    public ApiException(String type, int httpStatus, String message) {
        this(type, httpStatus, message, null);
    }

    public static ApiException validation(String message) {
        return new ApiException("ValidationException", 400, message);
    }

    public static ApiException resourceNotFound(String message) {
        return new ApiException("ResourceNotFoundException", 400, message);
    }

    /** Short type name, e.g. {@code ValidationException}. */
    public String type() {
        return type;
    }

    /** Fully qualified {@code __type} as DynamoDB sends it. */
    public String wireType() {
        return switch (type) {
            // errors of the service framework, not of the DynamoDB model
            case "UnknownOperationException",
                    "SerializationException",
                    "MissingAuthenticationTokenException",
                    "IncompleteSignatureException",
                    "UnrecognizedClientException",
                    "RequestEntityTooLarge" ->
                    "com.amazon.coral.service#" + type;
            case "ValidationException" -> "com.amazon.coral.validate#" + type;
            default -> PREFIX + type;
        };
    }

    public int httpStatus() {
        return httpStatus;
    }

    public @Nullable ObjectNode extra() {
        return extra;
    }
}
