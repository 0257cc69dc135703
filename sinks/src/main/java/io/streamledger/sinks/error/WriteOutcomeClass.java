package io.streamledger.sinks.error;

/** What a failed DynamoDB write means for the sink (STYLE habit 8; seed CS06 expected outcomes). */
public enum WriteOutcomeClass {
    /** The guard rejected the write: a counted stale/duplicate no-op, not an error. */
    CONDITION_FAILED,
    /** Transient (throttling, 5xx, I/O, timeouts): send again after backoff. */
    RETRYABLE,
    /** Will not succeed by repeating (validation, missing table, auth, misconfiguration). */
    FATAL
}
