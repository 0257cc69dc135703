package io.streamledger.operators.gate;

/**
 * What happened to an open gap, as the gate reports it for the durable parked-gap record (CS07).
 */
public enum ParkedGapChange {
    /** The key became blocked on this missing version (or moved onto it while still blocked). */
    OPENED,
    /** One more version parked behind the open gap (the sink coalesces these per checkpoint). */
    PARKED,
    /** The gap outlived its SLA: the record is refreshed with the parked count and versions. */
    OVERDUE,
    /** The missing version arrived; the parked versions behind it were released. */
    ARRIVED,
    /** An operator's skip applied the missing version as a no-op and released the parked ones. */
    SKIPPED,
    /** A skip named a version at or below the applied one: it arrived first; counted no-op. */
    SKIP_NOOP,
    /** A skip named a version the key does not wait for; nothing changed, the request reopens. */
    SKIP_REFUSED
}
