package io.streamledger.command.dynamo;

/** The single classification of a DynamoDB failure (STYLE 8): retry, expected outcome, or fatal. */
public enum ErrorClass {
    /** Throttling, 5xx, transport failure, transaction conflict: retry with backoff. */
    RETRYABLE,
    /** A condition failed: an expected business outcome the caller interprets, not an error. */
    CONDITION_FAILED,
    /** A transaction was cancelled; the caller reads the per-action cancellation reasons. */
    TRANSACTION_CANCELLED,
    /** Validation, missing table, access denied: retrying cannot help. */
    FATAL
}
