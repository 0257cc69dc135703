package io.streamledger.operators.gate;

/** Why the gate refused to hold an event (AP13 bounded parking; bad input loses nothing). */
public enum DeadLetterReason {
    /** Missing sourceKey or eventId, or a version below 1: the event cannot be ordered. */
    INVALID_EVENT,
    /** The key already holds the configured maximum of parked events. */
    PARK_OVERFLOW,
    /** A different eventId already holds this version in the parking lot. */
    VERSION_CONFLICT
}
