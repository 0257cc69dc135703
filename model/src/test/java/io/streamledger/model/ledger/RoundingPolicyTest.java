package io.streamledger.model.ledger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.streamledger.model.money.AmountException;
import io.streamledger.model.money.Money;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.List;
import org.junit.jupiter.api.Test;

/** CS10 rounding: once, to the currency's scale, with an explicit mode; residual line named. */
class RoundingPolicyTest {

    private final RoundingPolicy policy = RoundingPolicy.DEFAULT;

    @Test
    void considerationRoundsOnceToTheCurrencyScaleHalfEven() {
        var c = policy.consideration(new BigDecimal("10.125"), new BigDecimal("1"), "USD");
        assertThat(c.rounded()).isEqualTo(Money.of(new BigDecimal("10.12"), "USD"));
        assertThat(c.rounded().amount().scale()).isEqualTo(2);
        assertThat(c.grossExact()).isEqualByComparingTo("10.125");
        assertThat(c.residual()).isEqualByComparingTo("0.005");
        assertThat(policy.consideration(new BigDecimal("10.135"), BigDecimal.ONE, "USD").rounded())
                .isEqualTo(Money.of(new BigDecimal("10.14"), "USD"));
    }

    @Test
    void theScaleIsTheCurrencysNotThePrices() {
        // a stored DynamoDB number lost its trailing zero: 10.5 is still a USD price
        assertThat(
                        policy.consideration(new BigDecimal("10.5"), new BigDecimal("3"), "USD")
                                .rounded()
                                .amount())
                .isEqualTo(new BigDecimal("31.50"));
        assertThat(
                        policy.consideration(new BigDecimal("101.5"), new BigDecimal("1"), "JPY")
                                .rounded()
                                .amount())
                .isEqualTo(new BigDecimal("102"));
        assertThatThrownBy(() -> policy.consideration(BigDecimal.ONE, BigDecimal.ONE, "XXX"))
                .isInstanceOf(AmountException.class);
    }

    @Test
    void feeSharesSumExactlyAndTheResidualLineTakesTheRemainder() {
        var split = policy.splitFee(Money.of(new BigDecimal("0.05"), "USD"));
        assertThat(split.lines().get("EXCHANGE").amount()).isEqualTo(new BigDecimal("0.02"));
        assertThat(split.lines().get("BROKER").amount()).isEqualTo(new BigDecimal("0.03"));
        assertThat(split.residualLine()).isEqualTo("BROKER");
    }

    @Test
    void theModeAndAKnownResidualLineAreRequired() {
        var lines = List.of(new RoundingPolicy.FeeShare("A", BigDecimal.ONE));
        assertThatThrownBy(() -> new RoundingPolicy(lines, "A", null))
                .isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> new RoundingPolicy(lines, "B", RoundingMode.HALF_EVEN))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
