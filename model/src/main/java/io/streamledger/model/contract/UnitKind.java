package io.streamledger.model.contract;

import java.math.BigDecimal;

/**
 * Capacity unit kind of a LANE row; each kind has the seed's per-partition ceiling (3,000 read
 * units/s, 1,000 write units/s, "Mode and skew decisions").
 */
public enum UnitKind {
    READ(new BigDecimal("3000")),
    WRITE(new BigDecimal("1000"));

    private final BigDecimal partitionLimitPerSecond;

    UnitKind(BigDecimal partitionLimitPerSecond) {
        this.partitionLimitPerSecond = partitionLimitPerSecond;
    }

    /** Units/s one physical partition sustains for this kind. */
    public BigDecimal partitionLimitPerSecond() {
        return partitionLimitPerSecond;
    }
}
