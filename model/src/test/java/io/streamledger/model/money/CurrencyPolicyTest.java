package io.streamledger.model.money;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** CS10: each currency's scale is explicit; unknown currencies are errors. */
class CurrencyPolicyTest {

    @Test
    void knownCurrenciesHaveTheirIsoMinorUnits() {
        assertThat(CurrencyPolicy.of("USD").maxScale()).isEqualTo(2);
        assertThat(CurrencyPolicy.of("EUR").maxScale()).isEqualTo(2);
        assertThat(CurrencyPolicy.of("GBP").maxScale()).isEqualTo(2);
        assertThat(CurrencyPolicy.of("CHF").maxScale()).isEqualTo(2);
        assertThat(CurrencyPolicy.of("JPY").maxScale()).isZero();
        assertThat(CurrencyPolicy.of("BHD").maxScale()).isEqualTo(3);
        assertThat(CurrencyPolicy.of("KWD").maxScale()).isEqualTo(3);
    }

    @Test
    void registryAgreesWithTheJdkForEveryListedCurrency() {
        // an independent source for the minor units; a mismatch means the registry is wrong
        CurrencyPolicy.all()
                .values()
                .forEach(
                        p ->
                                assertThat(
                                                java.util.Currency.getInstance(p.code())
                                                        .getDefaultFractionDigits())
                                        .as(p.code())
                                        .isEqualTo(p.maxScale()));
    }

    @Test
    void unknownAndMalformedCodesAreRejectedWithReason() {
        for (String code : new String[] {"XXX", "usd", "US", "", "USDX"}) {
            assertThatThrownBy(() -> CurrencyPolicy.of(code))
                    .as(code)
                    .isInstanceOfSatisfying(
                            AmountException.class,
                            e ->
                                    assertThat(e.reason())
                                            .isEqualTo(AmountException.Reason.UNKNOWN_CURRENCY));
        }
        assertThatThrownBy(() -> CurrencyPolicy.of(null))
                .isInstanceOf(AmountException.class)
                .hasMessageContaining("currency is null");
        assertThat(CurrencyPolicy.isKnown("USD")).isTrue();
        assertThat(CurrencyPolicy.isKnown("ZZZ")).isFalse();
    }
}
