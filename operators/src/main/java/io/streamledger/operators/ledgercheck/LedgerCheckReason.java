package io.streamledger.operators.ledgercheck;

/** Named reasons of the ledger-check breaks (CS11, AP10–AP12, AP15): one per guard clause. */
public enum LedgerCheckReason {
    /** A transaction's lines do not sum to zero in some currency/asset. */
    TXN_UNBALANCED,
    /** Fewer lines than the transaction's line count arrived within the SLA. */
    TXN_INCOMPLETE,
    /** One line number arrived twice with different content, or line counts disagree. */
    TXN_LINE_CONFLICT,
    /** More lines than the per-transaction limit. */
    TXN_LINE_LIMIT,
    /** A POST# item was modified (postings are immutable). */
    POSTING_MODIFIED,
    /** A POST# item was removed. */
    POSTING_REMOVED,
    /** An AP12 authority item was removed (authorities never are). */
    AUTHORITY_REMOVED,
    /** One authority change moved the version by other than +1. */
    AUTHORITY_VERSION_SKIP,
    /** An authority version never arrived within the SLA (or too many were parked behind it). */
    AUTHORITY_VERSION_GAP,
    /** An authority version's posted delta differs from the sum of its transaction's postings. */
    CONTROL_TOTAL_MISMATCH,
    /** Postings for an account+asset that no authority version accounted for within the SLA. */
    POSTING_WITHOUT_AUTHORITY,
    /** available != posted + pending − reserved on an authority version. */
    AVAILABLE_MISMATCH,
    /** available < 0 on an account whose policy does not allow it. */
    NEGATIVE_AVAILABLE,
    /** More than the monthly posting admission limit for one account-month (AP10/AP11). */
    MONTH_LIMIT_EXCEEDED
}
