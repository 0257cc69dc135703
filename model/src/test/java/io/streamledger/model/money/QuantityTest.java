package io.streamledger.model.money;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.math.RoundingMode;
import org.junit.jupiter.api.Test;

/** CS04/CS10: instrument quantities with their own scale policy. */
class QuantityTest {

    @Test
    void defaultPolicyAllowsSixDecimals() {
        assertThat(Quantity.parse("0.123456", "AAPL").toDynamoNumber()).isEqualTo("0.123456");
        assertThatThrownBy(() -> Quantity.parse("0.1234567", "AAPL"))
                .isInstanceOfSatisfying(
                        AmountException.class,
                        e ->
                                assertThat(e.reason())
                                        .isEqualTo(AmountException.Reason.SCALE_EXCEEDS_POLICY));
    }

    @Test
    void overrideMakesAWholeShareInstrument() {
        QuantityPolicy policy = QuantityPolicy.DEFAULT.withOverride("BRK.A", 0);
        assertThat(Quantity.parse("3", "BRK.A", policy).maxScale()).isZero();
        assertThatThrownBy(() -> Quantity.parse("0.5", "BRK.A", policy))
                .isInstanceOf(AmountException.class)
                .hasMessageContaining("SCALE_EXCEEDS_POLICY");
    }

    @Test
    void symbolsAreValidated() {
        for (String bad : new String[] {"", "aapl", "A#B", "A B", "X".repeat(33)}) {
            assertThatThrownBy(() -> Quantity.parse("1", bad))
                    .as(bad)
                    .isInstanceOfSatisfying(
                            AmountException.class,
                            e ->
                                    assertThat(e.reason())
                                            .isEqualTo(AmountException.Reason.INVALID_SYMBOL));
        }
    }

    @Test
    void arithmeticIsExactOrExplicitlyRounded() {
        Quantity accepted = Quantity.parse("100", "MSFT");
        Quantity filled = Quantity.parse("33.5", "MSFT").plus(Quantity.parse("16.25", "MSFT"));
        assertThat(filled.toDynamoNumber()).isEqualTo("49.75");
        assertThat(accepted.minus(filled).toDynamoNumber()).isEqualTo("50.25");
        assertThat(filled.isAtMost(accepted)).isTrue();
        assertThat(accepted.divide(new BigDecimal("3"), 6, RoundingMode.DOWN).toDynamoNumber())
                .isEqualTo("33.333333");
        assertThat(
                        Quantity.parse("1.23456", "MSFT")
                                .rescale(2, RoundingMode.HALF_EVEN)
                                .toDynamoNumber())
                .isEqualTo("1.23");
        assertThatThrownBy(() -> accepted.plus(Quantity.parse("1", "AAPL")))
                .isInstanceOfSatisfying(
                        AmountException.class,
                        e -> assertThat(e.reason()).isEqualTo(AmountException.Reason.MISMATCH));
        assertThatThrownBy(() -> accepted.rescale(7, RoundingMode.HALF_EVEN))
                .isInstanceOf(AmountException.class);
    }

    @Test
    void requirePositiveNamesTheQuantity() {
        assertThat(Quantity.parse("0.000001", "X").requirePositive("fill quantity").isPositive())
                .isTrue();
        assertThatThrownBy(() -> Quantity.zero("X").requirePositive("fill quantity"))
                .isInstanceOfSatisfying(
                        AmountException.class,
                        e -> {
                            assertThat(e.reason()).isEqualTo(AmountException.Reason.NOT_POSITIVE);
                            assertThat(e.getMessage()).contains("fill quantity");
                        });
        assertThatThrownBy(() -> Quantity.parse("-1", "X").requirePositive("order quantity"))
                .isInstanceOf(AmountException.class);
    }

    @Test
    void equalityIsNumericWithinSymbol() {
        assertThat(Quantity.parse("1.50", "X")).isEqualTo(Quantity.parse("1.5", "X"));
        assertThat(Quantity.parse("1", "X")).isNotEqualTo(Quantity.parse("1", "Y"));
    }
}
