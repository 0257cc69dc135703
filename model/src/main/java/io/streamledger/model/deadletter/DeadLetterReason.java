package io.streamledger.model.deadletter;

/**
 * Why a job set a record aside instead of applying it (seed CS08: dead-letter policy is a transport
 * control of its own); stored on every dead-letter entry and used to list them.
 */
public enum DeadLetterReason {
    /** The transport record is not a change record / outbox event of the expected format. */
    UNPARSEABLE_RECORD,
    /** The record parsed but could not be mapped to the job's business event. */
    UNMAPPABLE_EVENT,
    /** Gate: missing source key or event id, or a version below 1 (AP13). */
    INVALID_EVENT,
    /** Gate: the key already holds the maximum of parked events (AP13 bounded parking). */
    PARK_OVERFLOW,
    /** Gate: a different event already holds this version in the parking lot. */
    VERSION_CONFLICT,
    /** Posting: the fill cannot be posted for a business reason (AP09/AP10), nothing written. */
    REJECTED_FILL,
    /**
     * A record still failing transiently after its retry budget (CS06): set aside with its error
     * and attempts so the job goes on; replay re-applies it once the cause is gone.
     */
    QUARANTINED,
    /** Reconciliation: the record arrived after its window's allowed lateness (AP14). */
    LATE_RECORD;

    /**
     * Why an entry of this reason is never re-injected (a replay request is refused with it), or
     * null when its job replays it: a late reconciliation record is already carried into the next
     * batch revision of its window (its LATE marker), so re-injecting it would count it twice.
     */
    public String replayRefusal() {
        return this == LATE_RECORD
                ? "reconciled in the next batch revision of its window (LATE marker): late records"
                        + " are not re-injected"
                : null;
    }

    /** The reason named {@code name}, e.g. a gate or source reason spelled the same way. */
    public static DeadLetterReason of(String name) {
        return valueOf(name);
    }
}
