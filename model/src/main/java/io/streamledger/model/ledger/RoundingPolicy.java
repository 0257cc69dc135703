package io.streamledger.model.ledger;

import io.streamledger.model.money.Allocation;
import io.streamledger.model.money.AllocationLine;
import io.streamledger.model.money.CurrencyPolicy;
import io.streamledger.model.money.Money;
import java.io.Serializable;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.List;
import java.util.Objects;

/**
 * How a fill's money is rounded (CS10: rounding mode, point and residual line are part of the
 * contract), used by the posting job to post and by reconciliation to recompute: the consideration
 * price × quantity is rounded once to the currency's scale ({@link CurrencyPolicy#maxScale()}) with
 * {@link #roundingMode()}; the fee is split over weighted fee-income lines, each rounded with the
 * same mode except the named residual line, which takes the remainder.
 *
 * @param feeLines weighted fee-income lines, e.g. EXCHANGE 3 / BROKER 7
 * @param feeResidualLine the fee line that absorbs rounding
 * @param roundingMode rounding of the consideration and of the non-residual fee lines
 */
public record RoundingPolicy(
        List<FeeShare> feeLines, String feeResidualLine, RoundingMode roundingMode)
        implements Serializable {

    /** One weighted fee-income line. */
    public record FeeShare(String name, BigDecimal weight) implements Serializable {
        public FeeShare {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(weight, "weight");
        }
    }

    /** The rounded consideration and its exact source. */
    public record Consideration(BigDecimal grossExact, Money rounded) {
        /** grossExact − rounded: what rounding to the currency's scale left out. */
        public BigDecimal residual() {
            return grossExact.subtract(rounded.amount());
        }
    }

    /** The default: 30 % exchange, 70 % broker (residual), banker's rounding. */
    public static final RoundingPolicy DEFAULT =
            new RoundingPolicy(
                    List.of(
                            new FeeShare("EXCHANGE", new BigDecimal("3")),
                            new FeeShare("BROKER", new BigDecimal("7"))),
                    "BROKER",
                    RoundingMode.HALF_EVEN);

    public RoundingPolicy {
        feeLines = List.copyOf(feeLines);
        Objects.requireNonNull(roundingMode, "roundingMode must be explicit");
        if (feeLines.stream().noneMatch(s -> s.name().equals(feeResidualLine))) {
            throw new IllegalArgumentException(
                    "residual line '" + feeResidualLine + "' is not one of " + feeLines);
        }
    }

    /**
     * price × quantity rounded once to the currency's scale. The currency's scale, not the price's:
     * a DynamoDB number loses trailing zeros, so a stored price's own scale is no evidence.
     *
     * @throws io.streamledger.model.money.AmountException for an unknown currency
     */
    public Consideration consideration(BigDecimal price, BigDecimal quantity, String currency) {
        BigDecimal gross = price.multiply(quantity);
        int scale = CurrencyPolicy.of(currency).maxScale();
        return new Consideration(gross, Money.of(gross.setScale(scale, roundingMode), currency));
    }

    /** The fee's shares per fee line, summing exactly to the fee. */
    public Allocation splitFee(Money fee) {
        return Allocation.allocate(
                fee,
                feeLines.stream().map(s -> new AllocationLine(s.name(), s.weight())).toList(),
                feeResidualLine,
                roundingMode);
    }
}
