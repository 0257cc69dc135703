package io.streamledger.command.idempotency;

/** The states of the AP08 durable request record. */
public enum RequestState {
    /** Claimed by {@code attemptOwner} until {@code leaseUntil}; effect not yet committed. */
    IN_PROGRESS,
    /** Effect committed together with the durable response (one transaction). */
    COMPLETED,
    /** Outcome ambiguous; the AP18 repair worker decides from evidence. */
    REPAIR_REQUIRED
}
