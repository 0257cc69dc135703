package io.streamledger.operators.ledgercheck;

/** Which Ledger-table item a {@link LedgerFact} describes (IDX10 posting, IDX11 authority). */
public enum FactKind {
    POSTING,
    AUTHORITY,
    MONTH_COUNTER
}
