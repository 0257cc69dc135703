package io.streamledger.operators.recon;

import java.io.Serializable;
import java.util.concurrent.CompletableFuture;
import javax.annotation.Nullable;

/**
 * Reads the AP07 Portfolio row of an account+symbol for the positions check; the job supplies the
 * DynamoDB implementation, tests may supply an in-memory one.
 */
@FunctionalInterface
public interface PositionLookup extends Serializable {
    /**
     * @return the row, or null when the projection has no row
     */
    @Nullable
    PositionView read(String tenant, String account, String symbol);

    /**
     * The row without blocking the caller; the default reads synchronously (in-memory lookups), a
     * DynamoDB lookup overrides it with its async client.
     */
    default CompletableFuture<PositionView> readAsync(
            String tenant, String account, String symbol) {
        try {
            return CompletableFuture.completedFuture(read(tenant, account, symbol));
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    /** Called once per subtask before use. */
    default void open() {}

    default void close() {}
}
