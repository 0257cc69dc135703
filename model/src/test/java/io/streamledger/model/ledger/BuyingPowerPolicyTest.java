package io.streamledger.model.ledger;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.util.Map;
import org.junit.jupiter.api.Test;

class BuyingPowerPolicyTest {

    @Test
    void buyReservesRoundedNotionalPlusRoundedFeeEstimate() {
        // 3 × 187.255 = 561.765 → 561.76 (half-even); fee 0.56176 → 0.56
        assertThat(
                        BuyingPowerPolicy.DEFAULT.buyReservation(
                                new BigDecimal("187.255"), new BigDecimal("3"), "USD"))
                .isEqualByComparingTo("562.32");
    }

    @Test
    void marketBuyIsReservedAtTheCollarOrNotAtAll() {
        BuyingPowerPolicy p =
                BuyingPowerPolicy.DEFAULT.withReferencePrices(
                        Map.of("AAPL", new BigDecimal("100")));
        assertThat(p.collarPrice("AAPL")).contains(new BigDecimal("105.00"));
        assertThat(p.collarPrice("MSFT")).isEmpty();
    }
}
