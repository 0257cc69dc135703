package io.streamledger.aws.error;

/** What a failed DynamoDB call means for its caller (seed CS06: a failed guard is an outcome). */
public enum ErrorClass {
    /**
     * A condition failed (a conditional write, or a transaction cancelled by a condition): an
     * expected outcome the caller interprets and counts, not an error.
     */
    CONDITION_FAILED,
    /** Throttling, 5xx, I/O, attempt timeouts, transaction conflicts: repeat after backoff. */
    RETRYABLE,
    /** Validation, missing table, access denied, misconfiguration: repeating cannot help. */
    FATAL
}
