package io.streamledger.operators.recon;

import java.io.Serializable;
import javax.annotation.Nullable;

/**
 * Reads the AP07 Portfolio row of an account+symbol for the positions check; the job supplies the
 * DynamoDB implementation (STYLE habit 2), tests may supply an in-memory one.
 */
@FunctionalInterface
public interface PositionLookup extends Serializable {
    /**
     * @return the row, or null when the projection has no row
     */
    @Nullable
    PositionView read(String tenant, String account, String symbol);

    /** Called once per subtask before use. */
    default void open() {}

    default void close() {}
}
