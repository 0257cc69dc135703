package io.streamledger.model.contract;

import java.math.BigDecimal;
import java.util.List;
import javax.annotation.Nullable;

/**
 * The verifier's view of one LANE row: recomputed shards, load/shard and state next to the row, and
 * the violations found on it.
 */
public record LaneAssessment(
        LaneRow lane,
        @Nullable BigDecimal recomputedShards,
        @Nullable BigDecimal recomputedLoadPerShard,
        LaneState recomputedState,
        List<Violation> violations) {
    public LaneAssessment {
        violations = List.copyOf(violations);
    }

    public boolean consistent() {
        return violations.isEmpty();
    }
}
