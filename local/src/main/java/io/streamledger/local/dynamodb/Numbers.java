package io.streamledger.local.dynamodb;

import io.streamledger.local.spi.ApiException;
import java.math.BigDecimal;

/**
 * DynamoDB's number type (CS10 exact decimals): up to 38 significant digits, magnitude 1E-130 to
 * 9.9999999999999999999999999999999999999E+125, canonical text without trailing zeros; arithmetic
 * is exact BigDecimal, never double.
 */
public final class Numbers {
    private static final int MAX_PRECISION = 38;
    private static final int MAX_EXPONENT = 125;
    private static final int MIN_EXPONENT = -130;

    private Numbers() {}

    /** Parses and validates a wire number, throwing ValidationException like DynamoDB. */
    public static BigDecimal parse(String text) {
        BigDecimal value;
        try {
            String t = text.trim();
            if (t.isEmpty() || t.startsWith("+") && t.length() > 1 && t.charAt(1) == '-') {
                throw new NumberFormatException();
            }
            value = new BigDecimal(t);
        } catch (NumberFormatException e) {
            throw ApiException.validation("A value provided cannot be converted into a number");
        }
        return check(value);
    }

    /** Validates precision and range of a computed or parsed number; returns it stripped. */
    public static BigDecimal check(BigDecimal value) {
        if (value.signum() == 0) {
            return BigDecimal.ZERO;
        }
        BigDecimal stripped = value.stripTrailingZeros();
        if (stripped.precision() > MAX_PRECISION) {
            throw ApiException.validation(
                    "Attempting to store more than 38 significant digits in a Number");
        }
        // adjusted exponent = position of the most significant digit
        int adjusted = stripped.precision() - stripped.scale() - 1;
        if (adjusted > MAX_EXPONENT) {
            throw ApiException.validation(
                    "Number overflow. Attempting to store a number with magnitude larger than"
                            + " supported range");
        }
        if (adjusted < MIN_EXPONENT) {
            throw ApiException.validation(
                    "Number underflow. Attempting to store a number with magnitude smaller than"
                            + " supported range");
        }
        return stripped;
    }

    /** Canonical wire text, e.g. "1.50" → "1.5", "1E+2" → "100". */
    public static String canonical(BigDecimal value) {
        return value.signum() == 0 ? "0" : value.stripTrailingZeros().toPlainString();
    }

    /** Normalizes a wire number text to its canonical form, validating it. */
    public static String normalize(String text) {
        return canonical(parse(text));
    }

    /** Significant digits after trimming leading and trailing zeros (at least 1). */
    public static int significantDigits(String canonicalText) {
        BigDecimal v = new BigDecimal(canonicalText);
        if (v.signum() == 0) {
            return 1;
        }
        return v.stripTrailingZeros().precision();
    }
}
