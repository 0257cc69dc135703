package io.streamledger.local.spi;

import java.util.List;

/**
 * Receives every committed write of the engine. Called once per commit (a single-item write or a
 * whole transaction), under the engine's commit ordering, so per-item order is preserved. An
 * implementation must be fast and must not call back into the engine.
 */
public interface CommitListener {
    void onCommit(List<ItemChange> changes);
}
