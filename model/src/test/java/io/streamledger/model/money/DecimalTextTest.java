package io.streamledger.model.money;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** CS10: exact parse/format of DynamoDB N strings. */
class DecimalTextTest {

    @Test
    void parsesPlainDecimalsExactlyAndDropsTrailingZeros() {
        assertThat(DecimalText.parse("10.50")).isEqualTo(new BigDecimal("10.5"));
        assertThat(DecimalText.parse("-0.001")).isEqualTo(new BigDecimal("-0.001"));
        assertThat(DecimalText.parse("0.000")).isEqualTo(BigDecimal.ZERO);
        assertThat(DecimalText.parse("+7")).isEqualTo(new BigDecimal("7"));
    }

    @Test
    void exponentInputIsReadExactlyAndNeverWrittenBack() {
        BigDecimal v = DecimalText.parse("1E+3");
        assertThat(v.scale()).isZero();
        assertThat(DecimalText.format(v)).isEqualTo("1000");
        assertThat(DecimalText.format(DecimalText.parse("1.5e-7"))).isEqualTo("0.00000015");
    }

    @Test
    void formatKeepsScaleAndNeverUsesExponent() {
        assertThat(DecimalText.format(new BigDecimal("10.50"))).isEqualTo("10.50");
        assertThat(DecimalText.format(new BigDecimal("1E+10"))).isEqualTo("10000000000");
        assertThat(DecimalText.format(new BigDecimal("1E-10"))).isEqualTo("0.0000000001");
    }

    @ParameterizedTest
    @ValueSource(strings = {"NaN", "nan", "Infinity", "-Infinity", "+inf"})
    void rejectsNonFinite(String text) {
        assertThatThrownBy(() -> DecimalText.parse(text))
                .isInstanceOfSatisfying(
                        AmountException.class,
                        e -> assertThat(e.reason()).isEqualTo(AmountException.Reason.NOT_FINITE));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", " 1", "1 ", ".5", "5.", "1,5", "0x10", "1_000", "--1", "1e", "abc"})
    void rejectsMalformed(String text) {
        assertThatThrownBy(() -> DecimalText.parse(text))
                .isInstanceOfSatisfying(
                        AmountException.class,
                        e -> assertThat(e.reason()).isEqualTo(AmountException.Reason.MALFORMED));
    }

    @Test
    void rejectsNull() {
        assertThatThrownBy(() -> DecimalText.parse(null))
                .isInstanceOfSatisfying(
                        AmountException.class,
                        e -> assertThat(e.reason()).isEqualTo(AmountException.Reason.MALFORMED));
    }

    @Test
    void thirtyEightSignificantDigitsPassThirtyNineFail() {
        String digits38 = "1".repeat(38);
        assertThat(DecimalText.format(DecimalText.parse(digits38))).isEqualTo(digits38);
        assertThatThrownBy(() -> DecimalText.parse("1".repeat(39)))
                .isInstanceOfSatisfying(
                        AmountException.class,
                        e -> {
                            assertThat(e.reason())
                                    .isEqualTo(AmountException.Reason.TOO_MANY_DIGITS);
                            assertThat(e.getMessage()).contains("39 significant digits");
                        });
        // trailing integer zeros are not significant: 1E+100 has one significant digit
        assertThat(DecimalText.parse("1E+100").precision()).isEqualTo(101);
    }

    @Test
    void rejectsMagnitudeOutsideDynamoRange() {
        assertThatThrownBy(() -> DecimalText.parse("1E+126"))
                .isInstanceOfSatisfying(
                        AmountException.class,
                        e -> assertThat(e.reason()).isEqualTo(AmountException.Reason.OUT_OF_RANGE));
        assertThatThrownBy(() -> DecimalText.parse("1E-131"))
                .isInstanceOfSatisfying(
                        AmountException.class,
                        e -> assertThat(e.reason()).isEqualTo(AmountException.Reason.OUT_OF_RANGE));
        assertThat(DecimalText.parse("1E-130").signum()).isEqualTo(1);
    }

    @Test
    void boxedNumbersPassOnlyWhenExact() {
        assertThat(DecimalText.requireExact(42L)).isEqualTo(new BigDecimal("42"));
        assertThat(DecimalText.requireExact(new BigDecimal("0.10")))
                .isEqualTo(new BigDecimal("0.1"));
        assertThat(DecimalText.requireExact(java.math.BigInteger.TEN)).isEqualTo(BigDecimal.TEN);
        for (Number binary : new Number[] {0.1d, 0.1f, Double.NaN}) {
            assertThatThrownBy(() -> DecimalText.requireExact(binary))
                    .as(String.valueOf(binary))
                    .isInstanceOfSatisfying(
                            AmountException.class,
                            e ->
                                    assertThat(e.reason())
                                            .isEqualTo(AmountException.Reason.BINARY_FLOAT));
        }
        assertThatThrownBy(
                        () ->
                                DecimalText.requireExact(
                                        new java.util.concurrent.atomic.AtomicLong(1)))
                .isInstanceOfSatisfying(
                        AmountException.class,
                        e -> assertThat(e.reason()).isEqualTo(AmountException.Reason.MALFORMED));
    }
}
