package io.streamledger.operators.gate;

/** Lifecycle of a visible gap (CS07): opened when a key parks, closed when it drains. */
public enum GapStatus {
    OPENED,
    CLOSED
}
