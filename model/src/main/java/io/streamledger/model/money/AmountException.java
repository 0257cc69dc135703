package io.streamledger.model.money;

import java.util.Objects;

/**
 * Rejection of an amount or quantity that cannot be represented exactly under its policy (CS10):
 * carries a machine-readable {@link Reason} so callers can count and dead-letter by cause.
 */
public final class AmountException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    /** Why an amount was rejected. */
    public enum Reason {
        /**
         * null, empty, or not the decimal grammar (e.g. {@code "1,5"}, {@code ".5"}, {@code " 1"}).
         */
        MALFORMED,
        /** {@code NaN}, {@code Infinity} or any non-finite spelling. */
        NOT_FINITE,
        /** a binary floating-point value (double/float) reached an exact-amount path. */
        BINARY_FLOAT,
        /** more than 38 significant digits (DynamoDB's {@code N} precision). */
        TOO_MANY_DIGITS,
        /** magnitude outside DynamoDB's {@code N} range (1E-130 .. 9.99E+125). */
        OUT_OF_RANGE,
        /** more fractional digits than the currency's or instrument's policy allows. */
        SCALE_EXCEEDS_POLICY,
        /** a currency code not in the {@link CurrencyPolicy} registry. */
        UNKNOWN_CURRENCY,
        /** an instrument symbol that is not a valid identifier. */
        INVALID_SYMBOL,
        /** arithmetic or comparison across two different currencies or instruments. */
        MISMATCH,
        /** a quantity that must be positive is zero or negative. */
        NOT_POSITIVE,
        /** an allocation request that cannot be served (weights, names, residual line). */
        INVALID_ALLOCATION
    }

    private final Reason reason;

    public AmountException(Reason reason, String message) {
        super(reason + ": " + message);
        this.reason = Objects.requireNonNull(reason, "reason");
    }

    public Reason reason() {
        return reason;
    }
}
