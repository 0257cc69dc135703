package io.streamledger.model.contract;

/** Planning verdict of a LANE row (seed lane contract: numeric proof, load test, or unproven). */
public enum LaneState {
    /** Share and shards are explicit and the recomputed load/shard is within the target. */
    FEASIBLE_PLANNING,
    /** The route is registered but its key distribution still needs a histogram/load test. */
    LOAD_TEST_REQUIRED,
    /** The route is not a registered index path (e.g. {@code PROTECTED_STATE_AP_REQUIRED}). */
    UNPROVEN
}
