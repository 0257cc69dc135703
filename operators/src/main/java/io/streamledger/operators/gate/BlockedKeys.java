package io.streamledger.operators.gate;

import java.util.HashSet;
import java.util.Set;

/**
 * This subtask's blocked keys (those holding an {@link OpenGap}) in memory, so that the
 * next-version rule reads {@link GateState#OPEN_GAP} only for keys that may hold one (AP13, CS07).
 *
 * <p>Almost every event belongs to an unblocked key; reading its absent gap costs one JNI read per
 * event on RocksDB and one more state-table lookup on the heap backend (where profiles put about a
 * tenth of the gate's time on that line, much of it the preceding version read's cache miss, so the
 * heap gain is small). The set is a derived copy of keyed state: {@link NextVersionGateOperator}
 * rebuilds it from {@code OPEN_GAP} on start (after a restore or rescale, for exactly this
 * subtask's key groups) and only then marks it {@linkplain #markComplete() complete}. Until then,
 * e.g. when {@link NextVersionGate} runs under a plain keyed operator, {@link #mayBeBlocked}
 * answers true and every event reads the state as before, so the function never trusts a set it did
 * not build.
 *
 * <p>Memory: one reference per blocked key, bounded by the keys that hold parked events. Used by
 * the task thread only.
 */
final class BlockedKeys {

    private final Set<Object> blocked = new HashSet<>();
    private boolean complete;

    /** False only when the key certainly holds no {@link OpenGap}. */
    boolean mayBeBlocked(Object key) {
        return !complete || blocked.contains(key);
    }

    void opened(Object key) {
        blocked.add(key);
    }

    void closed(Object key) {
        blocked.remove(key);
    }

    /** The set now mirrors every {@code OPEN_GAP} entry of this subtask's key groups. */
    void markComplete() {
        complete = true;
    }

    boolean isComplete() {
        return complete;
    }

    int size() {
        return blocked.size();
    }
}
