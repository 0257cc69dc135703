package io.streamledger.local.fault;

/** What an injected fault does to a matching request (CS03/CS05 retry/backoff paths). */
public enum FaultKind {
    /** 400 ProvisionedThroughputExceededException (per item in BatchWriteItem/BatchGetItem). */
    THROTTLE,
    /** 400 ThrottlingException. */
    THROTTLING,
    /** 500 InternalServerError. */
    INTERNAL_ERROR,
    /** Adds latency, then serves the request normally. */
    LATENCY,
    /**
     * TransactWriteItems is cancelled with a TransactionConflict reason on its first action (as
     * when another transaction holds the item); other operations are unaffected.
     */
    TRANSACTION_CONFLICT
}
