package io.streamledger.operators.posting;

/**
 * A fill the ledger must not post as given (CS10/CS11 guard clauses), with a named reason; the
 * posting job dead-letters it instead of failing.
 */
public final class PostingRejectedException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /** Why a fill cannot be posted. */
    public enum Reason {
        MISSING_FIELD,
        UNKNOWN_SIDE,
        UNKNOWN_CURRENCY,
        FEE_CURRENCY_MISMATCH,
        NON_POSITIVE_QUANTITY,
        NON_POSITIVE_PRICE,
        NEGATIVE_FEE,
        PRICE_SCALE,
        FEE_SCALE,
        QUANTITY_SCALE,
        /** The fill carries no order id: no order of this ledger can have produced it. */
        UNKNOWN_ORDER,
        /** The account-month has reached its admission limit (AP10/AP11). */
        LEDGER_MONTH_LIMIT,
        /** Every posting bucket of the account-month is full (AP10/AP11). */
        LEDGER_BUCKET_LIMIT,
        /** The transaction would exceed DynamoDB's 100 actions or 4 MB (AP09). */
        TRANSACTION_TOO_LARGE;

        /** The rejection reason of a ledger limit. */
        public static Reason of(io.streamledger.model.ledger.LedgerLimitExceeded.Reason r) {
            return switch (r) {
                case LEDGER_MONTH_LIMIT -> LEDGER_MONTH_LIMIT;
                case LEDGER_BUCKET_LIMIT -> LEDGER_BUCKET_LIMIT;
            };
        }
    }

    private final Reason reason;

    public PostingRejectedException(Reason reason, String message) {
        super(reason + ": " + message);
        this.reason = reason;
    }

    public Reason reason() {
        return reason;
    }
}
