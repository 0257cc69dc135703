package io.streamledger.model.deadletter;

/**
 * Lifecycle of a dead-letter entry: OPEN and REPLAY_REQUESTED entries are in the sparse status
 * queue of their status (operators list the first, jobs poll the second).
 */
public enum DeadLetterStatus {
    /** Set aside, waiting for an operator (listed by the status queue). */
    OPEN,
    /**
     * An operator asked for a replay; the entry leaves the open queue until the job re-fails it.
     */
    REPLAY_REQUESTED,
    /**
     * Re-injected, and held by the job's gate behind a gap of its key (the history's last note
     * names the gap and the missing version); settles like a requested replay once the gap closes
     * (arrival or audited skip) and the event applies. Only the job moves it on.
     */
    REPLAY_PARKED,
    /** Re-injected through the job's own input path. */
    REPLAYED,
    /** Dropped by an operator with a reason; the entry stays as the audit record. */
    DISCARDED
}
