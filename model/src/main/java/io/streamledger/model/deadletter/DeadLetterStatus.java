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
    /** Re-injected through the job's own input path. */
    REPLAYED,
    /** Dropped by an operator with a reason; the entry stays as the audit record. */
    DISCARDED
}
