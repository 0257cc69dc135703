package io.streamledger.model.money;

import java.math.BigDecimal;
import java.util.regex.Pattern;

/**
 * Exact parse/format of DynamoDB {@code N} strings (CS10): no binary-float intermediate, no
 * exponent in the output, and DynamoDB's own limits (38 significant digits, magnitude 1E-130 to
 * 9.9999999999999999999999999999999999999E+125) enforced with a {@link AmountException.Reason}.
 *
 * <p>Rules: input grammar is {@code [+-]?digits[.digits][(e|E)[+-]?digits]} (no blanks, no leading
 * or trailing dot, no hex, no {@code NaN}/{@code Infinity}). Trailing zeros after the decimal point
 * are not significant: DynamoDB itself stores {@code "10.50"} and returns {@code "10.5"}, so
 * precision and scale checks apply to the value with trailing fractional zeros removed. Output is
 * always {@link BigDecimal#toPlainString()} — {@code 1E+3} is written {@code "1000"}.
 */
public final class DecimalText {
    /** DynamoDB's {@code N} precision. */
    public static final int MAX_SIGNIFICANT_DIGITS = 38;

    private static final Pattern GRAMMAR =
            Pattern.compile("[+-]?\\d+(\\.\\d+)?([eE][+-]?\\d{1,4})?");
    private static final Pattern NON_FINITE = Pattern.compile("(?i)[+-]?(nan|inf|infinity)");
    private static final int MAX_TEXT_LENGTH = 200;
    private static final BigDecimal MIN_MAGNITUDE = new BigDecimal("1E-130");
    private static final BigDecimal MAX_MAGNITUDE =
            new BigDecimal("9.9999999999999999999999999999999999999E+125");

    private DecimalText() {}

    /**
     * Parses a DynamoDB {@code N} string exactly; the result has trailing fractional zeros removed
     * and a non-negative scale (so {@code "1E+3"} becomes {@code 1000}, scale 0).
     *
     * @throws AmountException MALFORMED, NOT_FINITE, TOO_MANY_DIGITS or OUT_OF_RANGE
     */
    public static BigDecimal parse(String text) {
        if (text == null) {
            throw new AmountException(AmountException.Reason.MALFORMED, "number text is null");
        }
        if (NON_FINITE.matcher(text).matches()) {
            throw new AmountException(
                    AmountException.Reason.NOT_FINITE, "'" + text + "' is not a finite number");
        }
        if (text.length() > MAX_TEXT_LENGTH || !GRAMMAR.matcher(text).matches()) {
            throw new AmountException(
                    AmountException.Reason.MALFORMED,
                    "'"
                            + abbreviate(text)
                            + "' is not a plain decimal (expected [+-]digits[.digits][e[+-]digits])");
        }
        return requireDynamoRange(new BigDecimal(text), text);
    }

    /**
     * Converts a boxed number from a boundary (JSON tree, row, message) to an exact decimal.
     * Integral boxes and {@link BigDecimal} pass; {@code Double}, {@code Float} and any other
     * {@link Number} are refused: their value is already a binary approximation.
     *
     * @throws AmountException BINARY_FLOAT for double/float, MALFORMED for null or other types
     */
    public static BigDecimal requireExact(Number number) {
        if (number == null) {
            throw new AmountException(AmountException.Reason.MALFORMED, "number is null");
        }
        if (number instanceof Double || number instanceof Float) {
            throw new AmountException(
                    AmountException.Reason.BINARY_FLOAT,
                    "binary floating-point value "
                            + number
                            + " refused; pass the decimal text or a BigDecimal");
        }
        BigDecimal exact;
        if (number instanceof BigDecimal d) {
            exact = d;
        } else if (number instanceof java.math.BigInteger i) {
            exact = new BigDecimal(i);
        } else if (number instanceof Long
                || number instanceof Integer
                || number instanceof Short
                || number instanceof Byte) {
            exact = BigDecimal.valueOf(number.longValue());
        } else {
            throw new AmountException(
                    AmountException.Reason.MALFORMED,
                    "unsupported number type " + number.getClass().getName());
        }
        return requireDynamoRange(exact, exact.toPlainString());
    }

    /**
     * Formats without exponent, keeping the value's scale ({@code 10.50} stays {@code "10.50"}).
     */
    public static String format(BigDecimal value) {
        if (value == null) {
            throw new AmountException(AmountException.Reason.MALFORMED, "number is null");
        }
        return value.toPlainString();
    }

    /**
     * Checks that an already-built decimal fits DynamoDB's {@code N} type and returns it normalised
     * (trailing fractional zeros removed, scale never negative).
     */
    public static BigDecimal requireDynamoRange(BigDecimal value, String shownAs) {
        BigDecimal stripped = normalise(value);
        if (significantDigits(value) > MAX_SIGNIFICANT_DIGITS) {
            throw new AmountException(
                    AmountException.Reason.TOO_MANY_DIGITS,
                    "'"
                            + abbreviate(shownAs)
                            + "' has "
                            + significantDigits(value)
                            + " significant digits; DynamoDB N allows "
                            + MAX_SIGNIFICANT_DIGITS);
        }
        BigDecimal magnitude = stripped.abs();
        if (stripped.signum() != 0
                && (magnitude.compareTo(MIN_MAGNITUDE) < 0
                        || magnitude.compareTo(MAX_MAGNITUDE) > 0)) {
            throw new AmountException(
                    AmountException.Reason.OUT_OF_RANGE,
                    "'" + abbreviate(shownAs) + "' is outside DynamoDB N range 1E-130..9.99E+125");
        }
        return stripped;
    }

    /** Removes trailing fractional zeros; a negative scale is brought back to zero. */
    public static BigDecimal normalise(BigDecimal value) {
        if (value.signum() == 0) {
            return BigDecimal.ZERO;
        }
        BigDecimal stripped = value.stripTrailingZeros();
        return stripped.scale() < 0 ? stripped.setScale(0) : stripped;
    }

    /** Significant digits of a value, ignoring trailing zeros of an integer part, too. */
    static int significantDigits(BigDecimal value) {
        return value.signum() == 0 ? 1 : value.stripTrailingZeros().precision();
    }

    static String abbreviate(String text) {
        return text.length() <= 60 ? text : text.substring(0, 57) + "...";
    }
}
