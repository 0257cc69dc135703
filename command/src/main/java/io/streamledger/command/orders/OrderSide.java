package io.streamledger.command.orders;

/** Side of an order (AP01). */
public enum OrderSide {
    BUY,
    SELL
}
