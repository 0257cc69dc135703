package io.streamledger.command.outbox;

/** AP16 outbox lifecycle states. */
public enum OutboxState {
    READY,
    IN_FLIGHT,
    COMPLETED
}
