package io.streamledger.model.contract;

import java.math.BigDecimal;

/**
 * The capacity model's own derivation of one LANE row's unit kind and rounded units/operation.
 *
 * @param laneId e.g. {@code L09A}
 * @param unitKind READ or WRITE
 * @param unitsPerOperation recomputed rounded units per operation
 * @param derivation how the figure follows from the item sizes, for reports
 */
public record LaneBasis(
        String laneId, UnitKind unitKind, BigDecimal unitsPerOperation, String derivation) {}
