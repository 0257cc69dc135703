package io.streamledger.model.money;

import java.math.BigDecimal;

/**
 * One weighted line of an {@link Allocation} request (CS10: fee/tax allocation).
 *
 * @param name unique line name, e.g. {@code "fee:exchange"}
 * @param weight non-negative exact weight; shares are {@code weight / sum(weights)}
 */
public record AllocationLine(String name, BigDecimal weight) {
    public AllocationLine {
        if (name == null || name.isBlank()) {
            throw new AmountException(
                    AmountException.Reason.INVALID_ALLOCATION, "allocation line name is blank");
        }
        if (weight == null || weight.signum() < 0) {
            throw new AmountException(
                    AmountException.Reason.INVALID_ALLOCATION,
                    "allocation line '" + name + "' needs a non-negative weight, got " + weight);
        }
    }

    public static AllocationLine of(String name, String weight) {
        return new AllocationLine(name, DecimalText.parse(weight));
    }
}
