package io.streamledger.model.contract;

import java.math.BigDecimal;
import java.util.List;

/**
 * One {@code AMP|} row (10 fields): rounded base/GSI write units per logical operation with their
 * multipliers and the stated total.
 */
public record AmplificationRow(
        int line,
        String id,
        List<String> accessPatterns,
        String scenario,
        BigDecimal baseUnits,
        BigDecimal baseMultiplier,
        BigDecimal gsiUnits,
        BigDecimal gsiMultiplier,
        BigDecimal totalUnits,
        String consequence) {
    public AmplificationRow {
        accessPatterns = List.copyOf(accessPatterns);
    }
}
