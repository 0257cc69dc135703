package io.streamledger.model.money;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Objects;

/**
 * An exact quantity of one instrument (CS04: fills never exceed the accepted quantity): a {@link
 * BigDecimal} plus the instrument symbol and a scale bounded by a {@link QuantityPolicy}. Same
 * rules as {@link Money}: no binary-float factory, explicit rounding where rounding can happen,
 * numeric equality within a symbol.
 */
public final class Quantity implements Comparable<Quantity> {
    private final BigDecimal value;
    private final String symbol;
    private final int maxScale;

    private Quantity(BigDecimal value, String symbol, int maxScale) {
        this.value = value;
        this.symbol = symbol;
        this.maxScale = maxScale;
    }

    /** A quantity under {@link QuantityPolicy#DEFAULT}, at the value's own (normalised) scale. */
    public static Quantity of(BigDecimal value, String symbol) {
        return of(value, symbol, QuantityPolicy.DEFAULT);
    }

    /** A quantity under an explicit policy, at the value's own (normalised) scale. */
    public static Quantity of(BigDecimal value, String symbol, QuantityPolicy policy) {
        int max = policy.maxScale(symbol);
        if (value == null) {
            throw new AmountException(AmountException.Reason.MALFORMED, "quantity is null");
        }
        BigDecimal normalised = DecimalText.requireDynamoRange(value, value.toPlainString());
        // a value with more digits than the policy fails inside atScale with SCALE_EXCEEDS_POLICY
        int scale = Math.min(normalised.scale(), max);
        return new Quantity(Exact.atScale(value, scale, max, what(symbol, max)), symbol, max);
    }

    /** Parses a DynamoDB {@code N} string exactly under {@link QuantityPolicy#DEFAULT}. */
    public static Quantity parse(String dynamoNumber, String symbol) {
        return of(DecimalText.parse(dynamoNumber), symbol, QuantityPolicy.DEFAULT);
    }

    /** Parses a DynamoDB {@code N} string exactly under {@code policy}. */
    public static Quantity parse(String dynamoNumber, String symbol, QuantityPolicy policy) {
        return of(DecimalText.parse(dynamoNumber), symbol, policy);
    }

    public static Quantity zero(String symbol) {
        return of(BigDecimal.ZERO, symbol);
    }

    private static String what(String symbol, int max) {
        return symbol + " quantity (max scale " + max + ")";
    }

    public BigDecimal value() {
        return value;
    }

    public String symbol() {
        return symbol;
    }

    public int scale() {
        return value.scale();
    }

    public int maxScale() {
        return maxScale;
    }

    /** The {@code N} string to store: plain, no exponent. */
    public String toDynamoNumber() {
        return value.toPlainString();
    }

    public Quantity plus(Quantity other) {
        requireSameSymbol(other);
        return combine(value.add(other.value), Math.max(scale(), other.scale()));
    }

    public Quantity minus(Quantity other) {
        requireSameSymbol(other);
        return combine(value.subtract(other.value), Math.max(scale(), other.scale()));
    }

    /** Multiplies by an exact factor, rounding to {@code scale} (≤ max scale) with {@code mode}. */
    public Quantity multiply(BigDecimal factor, int scale, RoundingMode mode) {
        Objects.requireNonNull(factor, "factor");
        return combine(Exact.round(value.multiply(factor), scale, mode, toString()), scale);
    }

    /** Divides by an exact divisor, rounding to {@code scale} (≤ max scale) with {@code mode}. */
    public Quantity divide(BigDecimal divisor, int scale, RoundingMode mode) {
        return combine(Exact.divide(value, divisor, scale, mode), scale);
    }

    /** Changes the scale (0..maxScale), rounding with {@code mode} when digits are dropped. */
    public Quantity rescale(int newScale, RoundingMode mode) {
        return combine(Exact.round(value, Math.max(newScale, 0), mode, toString()), newScale);
    }

    public Quantity negate() {
        return new Quantity(value.negate(), symbol, maxScale);
    }

    public int signum() {
        return value.signum();
    }

    public boolean isPositive() {
        return value.signum() > 0;
    }

    /**
     * Returns this quantity when it is strictly positive.
     *
     * @param what what the quantity is, for the message (e.g. {@code "fill quantity"})
     * @throws AmountException NOT_POSITIVE
     */
    public Quantity requirePositive(String what) {
        if (value.signum() <= 0) {
            throw new AmountException(
                    AmountException.Reason.NOT_POSITIVE, what + " must be positive, got " + this);
        }
        return this;
    }

    /** True when this quantity does not exceed {@code limit} (same symbol). */
    public boolean isAtMost(Quantity limit) {
        return compareTo(limit) <= 0;
    }

    private Quantity combine(BigDecimal result, int scale) {
        return new Quantity(
                Exact.atScale(result, scale, maxScale, what(symbol, maxScale)), symbol, maxScale);
    }

    private void requireSameSymbol(Quantity other) {
        Objects.requireNonNull(other, "other");
        if (!symbol.equals(other.symbol)) {
            throw new AmountException(
                    AmountException.Reason.MISMATCH,
                    "cannot combine " + this + " with " + other + " (different instruments)");
        }
    }

    @Override
    public int compareTo(Quantity other) {
        requireSameSymbol(other);
        return value.compareTo(other.value);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Quantity q && symbol.equals(q.symbol) && value.compareTo(q.value) == 0;
    }

    @Override
    public int hashCode() {
        return 31 * symbol.hashCode() + DecimalText.normalise(value).hashCode();
    }

    /** {@code "12.5 AAPL"}. */
    @Override
    public String toString() {
        return value.toPlainString() + " " + symbol;
    }
}
