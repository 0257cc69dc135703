package io.streamledger.model.contract;

import java.math.BigDecimal;
import javax.annotation.Nullable;

/**
 * One render-table Result ID compared with its recomputation.
 *
 * @param recomputed null when the render table has an id the model does not know
 * @param seed null when the render table lacks an id the model computes
 */
public record FigureCheck(
        String id, @Nullable BigDecimal recomputed, @Nullable BigDecimal seed, Status status) {
    /** Outcome of the comparison. */
    public enum Status {
        OK,
        MISMATCH,
        MISSING,
        EXTRA
    }

    /** {@code <id> <recomputed> <seed> <status>}; a side that is absent prints as {@code -}. */
    public String line() {
        return id + " " + text(recomputed) + " " + text(seed) + " " + status;
    }

    private static String text(@Nullable BigDecimal v) {
        return v == null ? "-" : CapacityModel.format(v);
    }
}
