package io.streamledger.model.money;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** CS10/CS11: exact money with currency, scale and explicit rounding. */
class MoneyTest {

    private static AmountException.Reason reasonOf(Runnable r) {
        try {
            r.run();
        } catch (AmountException e) {
            return e.reason();
        }
        throw new AssertionError("expected an AmountException");
    }

    @Test
    void parseGivesCurrencyScaleAndFormatsPlain() {
        Money m = Money.parse("10.5", "USD");
        assertThat(m.scale()).isEqualTo(2);
        assertThat(m.toDynamoNumber()).isEqualTo("10.50");
        assertThat(Money.parse("1000", "JPY").toDynamoNumber()).isEqualTo("1000");
        assertThat(Money.parse("1.234", "BHD").toDynamoNumber()).isEqualTo("1.234");
        assertThat(Money.parse("1E+3", "USD").toDynamoNumber()).isEqualTo("1000.00");
    }

    @Test
    void trailingZerosBeyondScaleAreNotSignificant() {
        assertThat(Money.parse("10.500000", "USD")).isEqualTo(Money.parse("10.5", "USD"));
    }

    @Test
    void rejectsDigitsBeyondCurrencyScale() {
        assertThat(reasonOf(() -> Money.parse("10.505", "USD")))
                .isEqualTo(AmountException.Reason.SCALE_EXCEEDS_POLICY);
        assertThat(reasonOf(() -> Money.parse("1.5", "JPY")))
                .isEqualTo(AmountException.Reason.SCALE_EXCEEDS_POLICY);
        assertThat(reasonOf(() -> Money.parse("1.2345", "BHD")))
                .isEqualTo(AmountException.Reason.SCALE_EXCEEDS_POLICY);
    }

    @Test
    void rejectsTheDecimalExpansionOfABinaryDouble() {
        // what new BigDecimal(0.1) leaks when a double sneaks in upstream
        assertThatThrownBy(() -> Money.parse("0.1000000000000000055511151231257827", "USD"))
                .isInstanceOfSatisfying(
                        AmountException.class,
                        e -> {
                            assertThat(e.reason())
                                    .isEqualTo(AmountException.Reason.SCALE_EXCEEDS_POLICY);
                            assertThat(e.getMessage()).contains("binary-float");
                        });
    }

    @Test
    void rejectsNanInfinityTooManyDigitsAndUnknownCurrency() {
        assertThat(reasonOf(() -> Money.parse("NaN", "USD")))
                .isEqualTo(AmountException.Reason.NOT_FINITE);
        assertThat(reasonOf(() -> Money.parse("Infinity", "USD")))
                .isEqualTo(AmountException.Reason.NOT_FINITE);
        assertThat(reasonOf(() -> Money.parse("1".repeat(39), "JPY")))
                .isEqualTo(AmountException.Reason.TOO_MANY_DIGITS);
        // 37 integer digits + 2 decimals = 39 digits at USD scale
        assertThat(reasonOf(() -> Money.parse("1".repeat(37), "USD")))
                .isEqualTo(AmountException.Reason.TOO_MANY_DIGITS);
        assertThat(reasonOf(() -> Money.parse("1", "XYZ")))
                .isEqualTo(AmountException.Reason.UNKNOWN_CURRENCY);
    }

    @Test
    void hasNoBinaryFloatFactory() {
        // the API must not offer a double/float path at all
        for (Method m : Money.class.getDeclaredMethods()) {
            if (Modifier.isPublic(m.getModifiers())) {
                assertThat(Arrays.asList(m.getParameterTypes()))
                        .as(m.toString())
                        .doesNotContain(double.class, float.class, Double.class, Float.class);
            }
        }
        for (Method m : Quantity.class.getDeclaredMethods()) {
            if (Modifier.isPublic(m.getModifiers())) {
                assertThat(Arrays.asList(m.getParameterTypes()))
                        .as(m.toString())
                        .doesNotContain(double.class, float.class, Double.class, Float.class);
            }
        }
    }

    @Test
    void plusAndMinusAreExactAndRequireOneCurrency() {
        Money a = Money.parse("10.10", "USD");
        Money b = Money.parse("0.20", "USD");
        assertThat(a.plus(b).toDynamoNumber()).isEqualTo("10.30");
        assertThat(b.minus(a).toDynamoNumber()).isEqualTo("-9.90");
        assertThat(reasonOf(() -> a.plus(Money.parse("1", "EUR"))))
                .isEqualTo(AmountException.Reason.MISMATCH);
        assertThat(reasonOf(() -> a.compareTo(Money.parse("1", "EUR"))))
                .isEqualTo(AmountException.Reason.MISMATCH);
    }

    @Test
    void multiplyDivideAndRescaleRoundWithTheGivenMode() {
        Money price = Money.parse("10.00", "USD");
        BigDecimal third = new BigDecimal("0.3333");
        assertThat(price.multiply(third, RoundingMode.HALF_EVEN).toDynamoNumber())
                .isEqualTo("3.33");
        assertThat(price.multiply(third, RoundingMode.UP).toDynamoNumber()).isEqualTo("3.34");
        assertThat(price.divide(new BigDecimal("3"), RoundingMode.DOWN).toDynamoNumber())
                .isEqualTo("3.33");
        assertThat(price.divide(new BigDecimal("3"), RoundingMode.CEILING).toDynamoNumber())
                .isEqualTo("3.34");
        assertThat(Money.parse("2.345", "BHD").rescale(2, RoundingMode.HALF_UP).toDynamoNumber())
                .isEqualTo("2.35");
        assertThat(Money.parse("2.345", "BHD").rescale(2, RoundingMode.HALF_EVEN).toDynamoNumber())
                .isEqualTo("2.34");
        assertThat(price.multiply(3).toDynamoNumber()).isEqualTo("30.00");
    }

    @Test
    void unnecessaryRoundingThatWouldRoundIsAScaleError() {
        Money price = Money.parse("10.00", "USD");
        assertThat(reasonOf(() -> price.divide(new BigDecimal("3"), RoundingMode.UNNECESSARY)))
                .isEqualTo(AmountException.Reason.SCALE_EXCEEDS_POLICY);
        assertThat(price.divide(new BigDecimal("4"), RoundingMode.UNNECESSARY).toDynamoNumber())
                .isEqualTo("2.50");
        assertThat(reasonOf(() -> price.divide(BigDecimal.ZERO, RoundingMode.HALF_EVEN)))
                .isEqualTo(AmountException.Reason.MALFORMED);
        assertThatThrownBy(() -> price.divide(BigDecimal.ONE, null))
                .isInstanceOf(NullPointerException.class)
                .hasMessageContaining("roundingMode");
    }

    @Test
    void rescaleBeyondPolicyIsRejected() {
        assertThat(reasonOf(() -> Money.parse("1", "USD").rescale(3, RoundingMode.HALF_EVEN)))
                .isEqualTo(AmountException.Reason.SCALE_EXCEEDS_POLICY);
        assertThat(reasonOf(() -> Money.of(BigDecimal.ONE, "USD", 3)))
                .isEqualTo(AmountException.Reason.SCALE_EXCEEDS_POLICY);
    }

    @Test
    void minorUnitsRoundTrip() {
        assertThat(Money.ofMinor(1050, "USD").toDynamoNumber()).isEqualTo("10.50");
        assertThat(Money.ofMinor(1050, "USD").toMinorUnits()).isEqualTo(1050);
        assertThat(Money.ofMinor(7, "JPY").toDynamoNumber()).isEqualTo("7");
        assertThat(Money.ofMinor(-1, "BHD").toDynamoNumber()).isEqualTo("-0.001");
        assertThat(reasonOf(() -> Money.parse("1".repeat(30), "USD").toMinorUnits()))
                .isEqualTo(AmountException.Reason.OUT_OF_RANGE);
    }

    @Test
    void equalityIsNumericWithinCurrency() {
        assertThat(Money.of(new BigDecimal("1.5"), "USD", 1))
                .isEqualTo(Money.of(new BigDecimal("1.50"), "USD", 2))
                .hasSameHashCodeAs(Money.of(new BigDecimal("1.50"), "USD", 2));
        assertThat(Money.parse("1", "USD")).isNotEqualTo(Money.parse("1", "EUR"));
        assertThat(Money.parse("1.5", "USD").toString()).isEqualTo("1.50 USD");
    }

    @Test
    void parseFormatRoundTripsManyRandomAmounts() {
        java.util.Random random = new java.util.Random(20261130L);
        String[] currencies = {"USD", "JPY", "BHD"};
        for (int i = 0; i < 5_000; i++) {
            String ccy = currencies[random.nextInt(currencies.length)];
            int scale = CurrencyPolicy.of(ccy).maxScale();
            BigDecimal v = BigDecimal.valueOf(random.nextLong() / 1000, scale);
            Money m = Money.of(v, ccy);
            assertThat(Money.parse(m.toDynamoNumber(), ccy)).isEqualTo(m);
            assertThat(m.toDynamoNumber()).doesNotContain("E").doesNotContain("e");
        }
    }
}
