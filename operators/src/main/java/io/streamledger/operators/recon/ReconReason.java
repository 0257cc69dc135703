package io.streamledger.operators.recon;

/** Named reasons of reconciliation breaks (AP14/AP15, seed "reconciliation compares ..."). */
public enum ReconReason {
    /** A fill in the window has no ledger transaction. */
    MISSING_LEDGER_TXN,
    /** The fill's ledger transaction moves the client's cash or securities by other amounts. */
    AMOUNT_MISMATCH,
    /** A trading ledger transaction in the window has no fill. */
    ORPHAN_LEDGER_TXN,
    /** The Portfolio row is behind the authority by more than the projection SLA. */
    PROJECTION_LAG,
    /** The Portfolio row is at the authority's version but shows another quantity. */
    POSITION_MISMATCH,
    /** A fill names an order (at the fill's order version) that never arrived (CS04). */
    FILL_WITHOUT_ORDER,
    /** At an order version, its filled quantity or its trades exceed the accepted quantity. */
    FILLS_EXCEED_ACCEPTED,
    /** At an order version, its filled quantity differs from the sum of its trades so far. */
    FILLED_QUANTITY_MISMATCH
}
