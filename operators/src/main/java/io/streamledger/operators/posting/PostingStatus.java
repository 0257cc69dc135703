package io.streamledger.operators.posting;

/** What happened to one fill in the posting job (AP09). */
public enum PostingStatus {
    /** The transaction committed. */
    APPLIED,
    /** The inbox receipt already existed: a replay, counted no-op. */
    DUPLICATE,
    /** Bad input with a named reason; nothing written. */
    REJECTED,
    /** Still failing transiently after the retry budget; set aside durably, nothing written. */
    QUARANTINED
}
