package io.streamledger.model.ledger;

/** Life of an order's AP12 reservation: held at admission, closed by fills or by release. */
public enum ReservationState {
    OPEN,
    CONSUMED,
    RELEASED
}
