package io.streamledger.command.orders;

/**
 * Order lifecycle (CS04): ACCEPTED → PARTIALLY_FILLED → FILLED, or CANCELLED / EXPIRED (a DAY order
 * after its session close) from either open status (the remaining reservation is released).
 * Non-terminal statuses are members of the sparse IDX03 status index; a terminal status removes the
 * membership (AP03).
 */
public enum OrderStatus {
    ACCEPTED(false),
    PARTIALLY_FILLED(false),
    FILLED(true),
    CANCELLED(true),
    EXPIRED(true);

    private final boolean terminal;

    OrderStatus(boolean terminal) {
        this.terminal = terminal;
    }

    public boolean terminal() {
        return terminal;
    }

    public boolean acceptsFills() {
        return !terminal;
    }
}
