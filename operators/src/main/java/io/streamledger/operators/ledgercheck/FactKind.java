package io.streamledger.operators.ledgercheck;

/**
 * Which Ledger-table item a {@link LedgerFact} describes (IDX10 posting, IDX11 authority), or the
 * balance check's total of one decided transaction on one account+asset ({@code TXN_TOTAL}).
 */
public enum FactKind {
    POSTING,
    AUTHORITY,
    MONTH_COUNTER,
    TXN_TOTAL
}
