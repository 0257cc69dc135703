package io.streamledger.model.money;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Splits a total across weighted lines with an explicit rounding mode; a named residual line takes
 * whatever rounding left over, so the lines always sum exactly to the total (CS10: "residual
 * handling in the contract").
 *
 * <p>Every non-residual line gets {@code round(total × weight / Σweights, total.scale, mode)}; the
 * residual line gets {@code total − Σ(other lines)}. A result whose residual has the opposite sign
 * of the total (possible with {@code UP}/{@code CEILING} over many lines) is rejected rather than
 * producing a negative fee line.
 *
 * @param total the amount allocated
 * @param residualLine name of the line that absorbed the remainder
 * @param lines line name → allocated amount, in request order
 */
public record Allocation(Money total, String residualLine, Map<String, Money> lines) {
    /** Upper bound on lines per request: a limit on everything. */
    public static final int MAX_LINES = 10_000;

    public Allocation {
        lines = Collections.unmodifiableMap(new LinkedHashMap<>(lines));
    }

    /**
     * Allocates {@code total} across {@code lines}.
     *
     * @param residualLine the name of one of {@code lines}; it receives the remainder
     * @param mode rounding for every non-residual line
     * @throws AmountException INVALID_ALLOCATION for empty/duplicate/too many lines, zero total
     *     weight, unknown residual line or a residual with the wrong sign
     */
    public static Allocation allocate(
            Money total, List<AllocationLine> lines, String residualLine, RoundingMode mode) {
        Objects.requireNonNull(total, "total");
        Objects.requireNonNull(mode, "roundingMode must be explicit");
        if (lines == null || lines.isEmpty() || lines.size() > MAX_LINES) {
            throw invalid(
                    "need 1.." + MAX_LINES + " lines, got " + (lines == null ? 0 : lines.size()));
        }
        Set<String> names = new HashSet<>();
        BigDecimal weightSum = BigDecimal.ZERO;
        for (AllocationLine line : lines) {
            if (!names.add(line.name())) {
                throw invalid("duplicate line name '" + line.name() + "'");
            }
            weightSum = weightSum.add(line.weight());
        }
        if (!names.contains(residualLine)) {
            throw invalid("residual line '" + residualLine + "' is not one of " + names);
        }
        if (weightSum.signum() == 0) {
            throw invalid("weights sum to zero");
        }
        int scale = total.scale();
        Map<String, Money> out = new LinkedHashMap<>();
        Money allocated = Money.of(BigDecimal.ZERO, total.currency(), scale);
        for (AllocationLine line : lines) {
            if (line.name().equals(residualLine)) {
                out.put(line.name(), null); // placeholder keeps request order
                continue;
            }
            // BigDecimal.divide(divisor, scale, mode) rounds the exact quotient once: no double
            // rounding
            BigDecimal share =
                    Exact.divide(total.amount().multiply(line.weight()), weightSum, scale, mode);
            Money amount = Money.of(share, total.currency(), scale);
            out.put(line.name(), amount);
            allocated = allocated.plus(amount);
        }
        Money residual = total.minus(allocated);
        if (residual.signum() != 0 && total.signum() != 0 && residual.signum() != total.signum()) {
            throw invalid(
                    "rounding mode "
                            + mode
                            + " over-allocated: residual line '"
                            + residualLine
                            + "' would be "
                            + residual
                            + " against total "
                            + total);
        }
        out.put(residualLine, residual);
        Allocation result = new Allocation(total, residualLine, out);
        result.requireBalanced();
        return result;
    }

    /** The sum of all lines; always equals {@link #total()}. */
    public Money sum() {
        Money sum = Money.of(BigDecimal.ZERO, total.currency(), total.scale());
        for (Money m : lines.values()) {
            sum = sum.plus(m);
        }
        return sum;
    }

    private void requireBalanced() {
        if (!sum().equals(total)) {
            // an internal invariant, not bad input: fail loudly
            throw new IllegalStateException(
                    "allocation lines " + lines + " do not sum to " + total);
        }
    }

    private static AmountException invalid(String message) {
        return new AmountException(AmountException.Reason.INVALID_ALLOCATION, message);
    }
}
