package io.streamledger.model.contract;

import java.math.BigDecimal;
import javax.annotation.Nullable;

/**
 * One {@code LANE|} row (14 fields): a physical route's rate, rounded units per operation, max-key
 * share, shard count, target and load/shard. {@code NA} fields are {@code null}: the seed uses NA
 * for "still needs a key histogram/load test", never zero.
 */
public record LaneRow(
        int line,
        String id,
        String accessPattern,
        String route,
        String peakRateContract,
        UnitKind unitKind,
        BigDecimal rate,
        BigDecimal unitsPerOperation,
        @Nullable BigDecimal maxKeyShare,
        @Nullable BigDecimal shards,
        BigDecimal targetUnitsPerSecond,
        @Nullable BigDecimal loadPerShard,
        LaneState state,
        String evidence) {}
