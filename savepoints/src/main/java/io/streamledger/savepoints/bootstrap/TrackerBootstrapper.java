package io.streamledger.savepoints.bootstrap;

import io.streamledger.operators.gate.GateEvent;
import io.streamledger.operators.projection.CheckpointState;
import io.streamledger.operators.projection.ProjectionState;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.state.api.functions.KeyedStateBootstrapFunction;

/**
 * Writes the projection tracker's {@link ProjectionState#CHECKPOINT} per source key (AP13), so the
 * restored tracker's revisions continue above the bootstrapped rows and a stale gap notice at or
 * below the exported version is ignored.
 */
public final class TrackerBootstrapper extends KeyedStateBootstrapFunction<String, GateEvent> {

    private static final long serialVersionUID = 1L;

    private transient ValueState<CheckpointState> state;

    @Override
    public void open(OpenContext ctx) {
        state = getRuntimeContext().getState(ProjectionState.CHECKPOINT);
    }

    @Override
    public void processElement(GateEvent e, Context ctx) throws Exception {
        state.update(BootstrapUpdates.state(e));
    }
}
