package io.streamledger.operators.posting;

import io.streamledger.model.money.AllocationLine;
import java.io.Serializable;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.List;
import java.util.Objects;

/**
 * How a fill's fee is split across house fee-income lines (CS10: fee allocation, rounding mode and
 * residual handling are part of the contract): every line but the residual one is rounded with
 * {@link #roundingMode()} at the currency's scale, the residual line takes the remainder.
 *
 * @param lines weighted fee-income lines, e.g. EXCHANGE 3 / BROKER 7
 * @param residualLine the line that absorbs rounding
 * @param roundingMode rounding of the non-residual lines and of the cash consideration
 */
public record FeeSplit(List<Share> lines, String residualLine, RoundingMode roundingMode)
        implements Serializable {

    /** One weighted fee-income line. */
    public record Share(String name, BigDecimal weight) implements Serializable {
        public Share {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(weight, "weight");
        }
    }

    /** The default: 30 % exchange, 70 % broker (residual), banker's rounding. */
    public static final FeeSplit DEFAULT =
            new FeeSplit(
                    List.of(
                            new Share("EXCHANGE", new BigDecimal("3")),
                            new Share("BROKER", new BigDecimal("7"))),
                    "BROKER",
                    RoundingMode.HALF_EVEN);

    public FeeSplit {
        lines = List.copyOf(lines);
        Objects.requireNonNull(roundingMode, "roundingMode must be explicit");
        if (lines.stream().noneMatch(s -> s.name().equals(residualLine))) {
            throw new IllegalArgumentException(
                    "residual line '" + residualLine + "' is not one of " + lines);
        }
    }

    List<AllocationLine> allocationLines() {
        return lines.stream().map(s -> new AllocationLine(s.name(), s.weight())).toList();
    }
}
