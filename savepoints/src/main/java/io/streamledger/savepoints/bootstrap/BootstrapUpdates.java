package io.streamledger.savepoints.bootstrap;

import io.streamledger.operators.gate.GateEvent;
import io.streamledger.operators.projection.CheckpointState;
import io.streamledger.operators.projection.ProjectionState;
import io.streamledger.operators.projection.ProjectionUpdate;

/**
 * The projection tracker's state and rows for a key bootstrapped at its exported version (AP13):
 * last version = the export's, payload = its snapshot, no gap, notice sequence 0, so the revision
 * is {@code version << REVISION_BITS} exactly as the tracker computes it after an apply.
 */
public final class BootstrapUpdates {

    private BootstrapUpdates() {}

    public static CheckpointState state(GateEvent e) {
        CheckpointState s = new CheckpointState();
        s.setLastVersion(e.getVersion());
        s.setPayload(e.getPayload());
        s.setEventTimeMillis(e.getEventTimeMillis());
        return s;
    }

    public static ProjectionUpdate update(GateEvent e) {
        ProjectionUpdate u = new ProjectionUpdate();
        u.setSourceKey(e.getSourceKey());
        u.setRevision(e.getVersion() << ProjectionState.REVISION_BITS);
        u.setLastVersion(e.getVersion());
        u.setPayload(e.getPayload());
        u.setEventTimeMillis(e.getEventTimeMillis());
        return u;
    }
}
