package io.streamledger.command.repair;

/** What the AP18 repair worker did with one queued request record. */
public enum RepairOutcome {
    /** Not due, already COMPLETED, or gone: nothing to do. */
    SKIPPED,
    /** Another worker or a client retry holds the record's lease. */
    LEASE_LOST,
    /** COMPLETED from evidence or by re-attempting the deterministic effect. */
    COMPLETED,
    /** Still ambiguous (e.g. the store is failing): re-queued for a later attempt. */
    RETRY_LATER,
    /** Evidence contradicts itself or no safe re-attempt exists: left for an operator. */
    ESCALATED
}
