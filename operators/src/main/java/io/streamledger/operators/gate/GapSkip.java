package io.streamledger.operators.gate;

/**
 * The control event that asks a gate to skip one missing version (CS07: a parked key is released
 * only by its missing version or an explicit, audited skip): a {@link GateEvent} of kind {@link
 * #KIND} on the gate's own keyed input, so it reaches the key's subtask like any version. The gate
 * consumes it; it is never applied downstream.
 */
public final class GapSkip {

    /** The kind of a skip request; no business event uses it. */
    public static final String KIND = "gate.skip";

    private GapSkip() {}

    /**
     * @param requestId the parked-gap record the request came from (kept as the event id)
     * @param actor who requested the skip (carried as the payload)
     */
    public static GateEvent request(
            String sourceKey, long missingVersion, String requestId, String actor) {
        return new GateEvent(sourceKey, missingVersion, requestId, 0L, 0L, KIND, actor);
    }

    public static boolean isSkip(GateEvent e) {
        return KIND.equals(e.getKind());
    }
}
