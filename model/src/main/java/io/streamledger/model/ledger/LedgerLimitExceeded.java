package io.streamledger.model.ledger;

/**
 * An account-month cannot take more postings (AP10/AP11): an expected rejection of the ledger,
 * never a silently grown bucket. The command service answers 422 with {@link Reason#name()} as the
 * error code; the posting job rejects the fill.
 */
public final class LedgerLimitExceeded extends Exception {

    private static final long serialVersionUID = 1L;

    /** Which limit was reached. */
    public enum Reason {
        /** {@link PostingSequence#MAX_POSTINGS_PER_MONTH} postings in the account-month. */
        LEDGER_MONTH_LIMIT,
        /** Every bucket up to {@link PostingSequence#MAX_BUCKET} is full. */
        LEDGER_BUCKET_LIMIT
    }

    private final Reason reason;
    private final String accountId;

    public LedgerLimitExceeded(Reason reason, String accountId, String message) {
        super(message);
        this.reason = reason;
        this.accountId = accountId;
    }

    public Reason reason() {
        return reason;
    }

    public String accountId() {
        return accountId;
    }
}
