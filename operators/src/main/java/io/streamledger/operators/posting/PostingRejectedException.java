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
        QUANTITY_SCALE
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
