package io.streamledger.model.deadletter;

/**
 * Lifecycle of a parked-gap record (CS07: gaps visible; a key is released only by its missing
 * version or an audited skip): OPEN and SKIP_REQUESTED records are in the sparse queue of their
 * status (operators list the first, jobs poll the second); ARRIVED and SKIPPED are terminal.
 */
public enum ParkedGapStatus {
    /** The key holds parked versions behind the missing one. */
    OPEN,
    /** An operator asked the job to skip the missing version (audited); the job has not yet. */
    SKIP_REQUESTED,
    /** The missing version arrived and the parked ones were released. */
    ARRIVED,
    /** The job applied the missing version as a no-op on the operator's request. */
    SKIPPED;

    /** Statuses with a queue: OPEN (operators list) and SKIP_REQUESTED (jobs poll). */
    public boolean queued() {
        return this == OPEN || this == SKIP_REQUESTED;
    }
}
