package io.streamledger.model.ledger;

import io.streamledger.model.money.CurrencyPolicy;
import java.io.Serializable;
import java.math.BigDecimal;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * What an order reserves at admission (AP12, CS11): a BUY reserves its notional at the limit price
 * (a MARKET BUY at the configured reference price × (1 + collar)) plus a fee estimate of notional ×
 * feeRate, each rounded once to the currency's scale with the {@link RoundingPolicy}'s mode; a SELL
 * reserves its quantity of the security.
 *
 * @param rounding the rounding of fills, so a reservation is computed as its fills are posted
 * @param feeRate estimated fee per unit of notional, e.g. 0.001 (10 bp)
 * @param marketCollar markup over the reference price for a MARKET BUY, e.g. 0.05
 * @param referencePrices symbol → reference price a MARKET BUY is reserved at; absent → rejected
 */
public record BuyingPowerPolicy(
        RoundingPolicy rounding,
        BigDecimal feeRate,
        BigDecimal marketCollar,
        Map<String, BigDecimal> referencePrices)
        implements Serializable {

    /** 10 bp fee estimate, 5 % market collar, no reference prices (MARKET BUYs are refused). */
    public static final BuyingPowerPolicy DEFAULT =
            new BuyingPowerPolicy(
                    RoundingPolicy.DEFAULT,
                    new BigDecimal("0.001"),
                    new BigDecimal("0.05"),
                    Map.of());

    public BuyingPowerPolicy {
        Objects.requireNonNull(rounding, "rounding");
        if (feeRate.signum() < 0 || marketCollar.signum() < 0) {
            throw new IllegalArgumentException("feeRate and marketCollar must be >= 0");
        }
        referencePrices = Map.copyOf(referencePrices);
    }

    public BuyingPowerPolicy withReferencePrices(Map<String, BigDecimal> prices) {
        return new BuyingPowerPolicy(rounding, feeRate, marketCollar, prices);
    }

    /** The price a MARKET BUY is reserved at, if the symbol has a reference price. */
    public Optional<BigDecimal> collarPrice(String symbol) {
        BigDecimal ref = referencePrices.get(symbol);
        return ref == null
                ? Optional.empty()
                : Optional.of(ref.multiply(BigDecimal.ONE.add(marketCollar)));
    }

    /** Cash a BUY of {@code quantity} at {@code price} reserves: notional + fee estimate. */
    public BigDecimal buyReservation(BigDecimal price, BigDecimal quantity, String currency) {
        BigDecimal notional = rounding.consideration(price, quantity, currency).rounded().amount();
        int scale = CurrencyPolicy.of(currency).maxScale();
        BigDecimal fee = notional.multiply(feeRate).setScale(scale, rounding.roundingMode());
        return notional.add(fee);
    }
}
