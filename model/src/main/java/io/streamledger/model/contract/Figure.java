package io.streamledger.model.contract;

import java.math.BigDecimal;

/** One recomputed capacity figure, named by the seed's render-table Result ID. */
public record Figure(String id, BigDecimal value, String derivation) {
    /** The value in the seed's notation: no trailing zeros, no exponent (e.g. 787.69, 15). */
    public String formatted() {
        return CapacityModel.format(value);
    }
}
