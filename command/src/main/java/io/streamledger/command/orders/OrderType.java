package io.streamledger.command.orders;

/** Order type; a LIMIT order carries a limit price, a MARKET order must not. */
public enum OrderType {
    LIMIT,
    MARKET
}
