package io.streamledger.model.money;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Objects;

/** Shared exactness guards for {@link Money} and {@link Quantity} (CS10). */
final class Exact {
    private Exact() {}

    /**
     * Returns {@code value} at exactly {@code scale} digits, or throws when that would lose digits.
     * Trailing fractional zeros never count as lost ({@code 1.500} fits scale 2).
     */
    static BigDecimal atScale(BigDecimal value, int scale, int maxScale, String what) {
        if (value == null) {
            throw new AmountException(AmountException.Reason.MALFORMED, what + " is null");
        }
        if (scale < 0 || scale > maxScale) {
            throw new AmountException(
                    AmountException.Reason.SCALE_EXCEEDS_POLICY,
                    "scale " + scale + " for " + what + " is outside 0.." + maxScale);
        }
        BigDecimal normalised = DecimalText.requireDynamoRange(value, value.toPlainString());
        if (normalised.scale() > scale) {
            throw new AmountException(
                    AmountException.Reason.SCALE_EXCEEDS_POLICY,
                    DecimalText.abbreviate(value.toPlainString())
                            + " has "
                            + normalised.scale()
                            + " fractional digits; "
                            + what
                            + " allows "
                            + scale
                            + (normalised.scale() > 15
                                    ? " (a binary-float artifact? amounts never pass through"
                                            + " double)"
                                    : ""));
        }
        BigDecimal result = normalised.setScale(scale, RoundingMode.UNNECESSARY);
        DecimalText.requireDynamoRange(result, result.toPlainString());
        if (result.precision() > DecimalText.MAX_SIGNIFICANT_DIGITS) {
            throw new AmountException(
                    AmountException.Reason.TOO_MANY_DIGITS,
                    result.toPlainString()
                            + " needs "
                            + result.precision()
                            + " digits at scale "
                            + scale
                            + "; DynamoDB N allows "
                            + DecimalText.MAX_SIGNIFICANT_DIGITS);
        }
        return result;
    }

    /** Rounds to a scale with an explicit mode; UNNECESSARY that would round is a scale error. */
    static BigDecimal round(BigDecimal value, int scale, RoundingMode mode, String what) {
        Objects.requireNonNull(mode, "roundingMode must be explicit");
        try {
            return value.setScale(scale, mode);
        } catch (ArithmeticException e) {
            throw new AmountException(
                    AmountException.Reason.SCALE_EXCEEDS_POLICY,
                    value.toPlainString()
                            + " needs rounding to scale "
                            + scale
                            + " for "
                            + what
                            + " but RoundingMode.UNNECESSARY was given");
        }
    }

    static BigDecimal divide(BigDecimal value, BigDecimal divisor, int scale, RoundingMode mode) {
        Objects.requireNonNull(mode, "roundingMode must be explicit");
        Objects.requireNonNull(divisor, "divisor");
        if (divisor.signum() == 0) {
            throw new AmountException(AmountException.Reason.MALFORMED, "division by zero");
        }
        try {
            return value.divide(divisor, scale, mode);
        } catch (ArithmeticException e) {
            throw new AmountException(
                    AmountException.Reason.SCALE_EXCEEDS_POLICY,
                    value.toPlainString()
                            + " / "
                            + divisor.toPlainString()
                            + " needs rounding at scale "
                            + scale
                            + " but RoundingMode.UNNECESSARY was given");
        }
    }
}
