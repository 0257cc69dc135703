package io.streamledger.operators.gate;

import org.apache.flink.runtime.state.VoidNamespace;
import org.apache.flink.runtime.state.VoidNamespaceSerializer;
import org.apache.flink.streaming.api.operators.KeyedProcessOperator;

/**
 * Runs {@link NextVersionGate} and, on start, rebuilds its operator-wide parked/open-gap gauges and
 * its set of blocked keys from the restored keyed state (CS07: gaps stay visible across restarts
 * and rescaling).
 *
 * <p>A plain {@link KeyedProcessOperator} would restore the state but report zero parked events
 * until each blocked key saw traffic again, and would leave the gate reading {@code OPEN_GAP} for
 * every event (correct, but slower; see {@link BlockedKeys}).
 */
public class NextVersionGateOperator extends KeyedProcessOperator<String, GateEvent, GateEvent> {

    private static final long serialVersionUID = 1L;

    public NextVersionGateOperator(NextVersionGate gate) {
        super(gate);
    }

    @Override
    public void open() throws Exception {
        super.open();
        ParkingTracker tracker = getUserFunction().tracker();
        BlockedKeys blockedKeys = getUserFunction().blockedKeys();
        // one pass over this subtask's key groups; only blocked keys hold an OpenGap
        getKeyedStateBackend()
                .applyToAllKeys(
                        VoidNamespace.INSTANCE,
                        VoidNamespaceSerializer.INSTANCE,
                        GateState.OPEN_GAP,
                        (key, state) -> {
                            OpenGap gap = state.value();
                            if (gap != null) {
                                tracker.restore(gap);
                                blockedKeys.opened(key);
                            }
                        });
        // from here on an unblocked key's gap is known absent without reading it
        blockedKeys.markComplete();
    }

    @Override
    public NextVersionGate getUserFunction() {
        return (NextVersionGate) super.getUserFunction();
    }
}
