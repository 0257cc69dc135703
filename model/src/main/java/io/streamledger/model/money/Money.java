package io.streamledger.model.money;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Objects;

/**
 * An exact amount of one ISO-4217 currency at an explicit scale (CS10, CS11): a {@link BigDecimal}
 * whose scale never exceeds the currency's {@link CurrencyPolicy#maxScale()}.
 *
 * <p>There is deliberately no factory taking {@code double} or {@code float}: a binary-float
 * intermediate is a defect. Operations that cannot round ({@link #plus}, {@link #minus}, {@link
 * #negate}, {@link #multiply(long)}) need no rounding mode; those that can ({@link
 * #multiply(BigDecimal, RoundingMode)}, {@link #divide}, {@link #rescale}) demand one.
 *
 * <p>Equality is numeric within a currency: {@code 1.5 USD} (scale 1) equals {@code 1.50 USD}
 * (scale 2); use {@link #scale()} when the representation matters.
 */
public final class Money implements Comparable<Money> {
    private final BigDecimal amount;
    private final CurrencyPolicy currency;

    private Money(BigDecimal amount, CurrencyPolicy currency) {
        this.amount = amount;
        this.currency = currency;
    }

    /** An amount at the currency's full scale; rejects more fractional digits than the policy. */
    public static Money of(BigDecimal amount, String currency) {
        CurrencyPolicy policy = CurrencyPolicy.of(currency);
        return of(amount, policy, policy.maxScale());
    }

    /** An amount at an explicit scale {@code 0..maxScale}; rejects digits beyond it. */
    public static Money of(BigDecimal amount, String currency, int scale) {
        return of(amount, CurrencyPolicy.of(currency), scale);
    }

    private static Money of(BigDecimal amount, CurrencyPolicy policy, int scale) {
        return new Money(
                Exact.atScale(amount, scale, policy.maxScale(), policy.code() + " amount"), policy);
    }

    /** Zero at the currency's full scale. */
    public static Money zero(String currency) {
        return of(BigDecimal.ZERO, currency);
    }

    /** An amount from integer minor units, e.g. {@code ofMinor(1050, "USD")} is 10.50 USD. */
    public static Money ofMinor(long minorUnits, String currency) {
        CurrencyPolicy policy = CurrencyPolicy.of(currency);
        return new Money(BigDecimal.valueOf(minorUnits, policy.maxScale()), policy);
    }

    /**
     * Parses a DynamoDB {@code N} string exactly (see {@link DecimalText}); the result has the
     * currency's full scale, so {@code "10.5"} read back from DynamoDB is {@code 10.50 USD}.
     */
    public static Money parse(String dynamoNumber, String currency) {
        return of(DecimalText.parse(dynamoNumber), currency);
    }

    /** The {@code N} string to store: plain, no exponent, at this amount's scale. */
    public String toDynamoNumber() {
        return amount.toPlainString();
    }

    public BigDecimal amount() {
        return amount;
    }

    public String currency() {
        return currency.code();
    }

    public CurrencyPolicy policy() {
        return currency;
    }

    public int scale() {
        return amount.scale();
    }

    /** The amount in integer minor units of the currency, e.g. 10.50 USD is 1050. */
    public long toMinorUnits() {
        try {
            return amount.setScale(currency.maxScale(), RoundingMode.UNNECESSARY)
                    .unscaledValue()
                    .longValueExact();
        } catch (ArithmeticException e) {
            throw new AmountException(
                    AmountException.Reason.OUT_OF_RANGE,
                    this + " does not fit a 64-bit minor-unit count");
        }
    }

    public Money plus(Money other) {
        requireSameCurrency(other);
        return combine(amount.add(other.amount), Math.max(scale(), other.scale()));
    }

    public Money minus(Money other) {
        requireSameCurrency(other);
        return combine(amount.subtract(other.amount), Math.max(scale(), other.scale()));
    }

    /** Exact multiplication by an integer count (e.g. number of lots); never rounds. */
    public Money multiply(long factor) {
        return combine(amount.multiply(BigDecimal.valueOf(factor)), scale());
    }

    /**
     * Multiplies by an exact factor, rounding the result to this amount's scale with {@code mode}.
     */
    public Money multiply(BigDecimal factor, RoundingMode mode) {
        Objects.requireNonNull(factor, "factor");
        return combine(Exact.round(amount.multiply(factor), scale(), mode, toString()), scale());
    }

    /** Divides by an exact divisor, rounding to this amount's scale with {@code mode}. */
    public Money divide(BigDecimal divisor, RoundingMode mode) {
        return combine(Exact.divide(amount, divisor, scale(), mode), scale());
    }

    /** Changes the scale (0..maxScale), rounding with {@code mode} when digits are dropped. */
    public Money rescale(int newScale, RoundingMode mode) {
        if (newScale < 0 || newScale > currency.maxScale()) {
            throw new AmountException(
                    AmountException.Reason.SCALE_EXCEEDS_POLICY,
                    "scale "
                            + newScale
                            + " is outside 0.."
                            + currency.maxScale()
                            + " for "
                            + currency.code());
        }
        return combine(Exact.round(amount, newScale, mode, toString()), newScale);
    }

    public Money negate() {
        return new Money(amount.negate(), currency);
    }

    public Money abs() {
        return amount.signum() < 0 ? negate() : this;
    }

    public int signum() {
        return amount.signum();
    }

    public boolean isZero() {
        return amount.signum() == 0;
    }

    private Money combine(BigDecimal value, int scale) {
        return new Money(
                Exact.atScale(value, scale, currency.maxScale(), currency.code() + " amount"),
                currency);
    }

    void requireSameCurrency(Money other) {
        Objects.requireNonNull(other, "other");
        if (!currency.equals(other.currency)) {
            throw new AmountException(
                    AmountException.Reason.MISMATCH,
                    "cannot combine " + this + " with " + other + " (different currencies)");
        }
    }

    /** Orders amounts of the same currency; comparing different currencies is a MISMATCH. */
    @Override
    public int compareTo(Money other) {
        requireSameCurrency(other);
        return amount.compareTo(other.amount);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Money m
                && currency.equals(m.currency)
                && amount.compareTo(m.amount) == 0;
    }

    @Override
    public int hashCode() {
        return 31 * currency.hashCode() + DecimalText.normalise(amount).hashCode();
    }

    /** {@code "10.50 USD"}. */
    @Override
    public String toString() {
        return amount.toPlainString() + " " + currency.code();
    }
}
