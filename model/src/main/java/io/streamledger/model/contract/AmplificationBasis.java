package io.streamledger.model.contract;

import java.math.BigDecimal;
import java.util.List;

/**
 * The capacity model's own derivation of one AMP scenario: rounded base units from the targeted
 * item sizes, the multiplier (2 only for transaction-targeted base items), and ordinary GSI units.
 *
 * @param baseTargets number of base items the operation writes (the seed's "N base targets")
 */
public record AmplificationBasis(
        String id,
        List<String> accessPatterns,
        String scenario,
        int baseTargets,
        BigDecimal baseUnits,
        BigDecimal baseMultiplier,
        BigDecimal gsiUnits,
        BigDecimal gsiMultiplier) {
    public AmplificationBasis {
        accessPatterns = List.copyOf(accessPatterns);
    }

    public BigDecimal totalUnits() {
        return baseUnits.multiply(baseMultiplier).add(gsiUnits.multiply(gsiMultiplier));
    }
}
