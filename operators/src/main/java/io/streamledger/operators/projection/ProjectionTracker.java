package io.streamledger.operators.projection;

import io.streamledger.operators.gate.GapNotice;
import io.streamledger.operators.gate.GapStatus;
import io.streamledger.operators.gate.GateEvent;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.metrics.Counter;
import org.apache.flink.streaming.api.functions.co.KeyedCoProcessFunction;
import org.apache.flink.util.Collector;

/**
 * Joins the gate's applied events and gap notices per source key into the AP13 checkpoint (last
 * version, open gap, parked count) and emits a {@link ProjectionUpdate} for the AP07 view row and
 * the IDX12 checkpoint row after each change (CS06/CS07: the gap stays visible on both).
 *
 * <p>Applied events and notices reach this operator on two edges, so their relative order is not
 * guaranteed; a notice about a version at or below the last applied one is stale and ignored, and
 * applying the missing version closes the gap. The revision {@code lastVersion << 20 | notices}
 * orders every emitted row of a key, so the version-guarded sink keeps only the newest.
 */
public final class ProjectionTracker
        extends KeyedCoProcessFunction<String, GateEvent, GapNotice, ProjectionUpdate> {

    private static final long serialVersionUID = 1L;

    private transient ValueState<CheckpointState> state;
    private transient Counter staleNotices;

    @Override
    public void open(OpenContext ctx) {
        state = getRuntimeContext().getState(ProjectionState.CHECKPOINT);
        staleNotices =
                getRuntimeContext().getMetricGroup().addGroup("projection").counter("staleNotices");
    }

    @Override
    public void processElement1(GateEvent e, Context ctx, Collector<ProjectionUpdate> out)
            throws Exception {
        CheckpointState s = current();
        if (e.getVersion() <= s.getLastVersion()) {
            return; // the gate emits each version once; a restore may replay: nothing new
        }
        s.setLastVersion(e.getVersion());
        s.setPayload(e.getPayload());
        s.setEventTimeMillis(e.getEventTimeMillis());
        s.setNoticeSeq(0);
        if (s.getGapMissingVersion() != 0 && s.getGapMissingVersion() <= e.getVersion()) {
            clearGap(s);
        }
        state.update(s);
        out.collect(update(ctx.getCurrentKey(), s));
    }

    @Override
    public void processElement2(GapNotice n, Context ctx, Collector<ProjectionUpdate> out)
            throws Exception {
        CheckpointState s = current();
        if (n.getMissingVersion() <= s.getLastVersion()) {
            staleNotices.inc();
            return;
        }
        if (n.getStatus() == GapStatus.OPENED) {
            s.setGapMissingVersion(n.getMissingVersion());
            s.setGapSinceMillis(n.getSinceMillis());
            s.setParkedCount(n.getParkedCount());
        } else if (n.getMissingVersion() == s.getGapMissingVersion()) {
            clearGap(s);
        } else {
            staleNotices.inc();
            return;
        }
        s.setNoticeSeq((int) Math.min(ProjectionState.MAX_NOTICE_SEQ, s.getNoticeSeq() + 1L));
        state.update(s);
        out.collect(update(ctx.getCurrentKey(), s));
    }

    private CheckpointState current() throws Exception {
        CheckpointState s = state.value();
        return s == null ? new CheckpointState() : s;
    }

    private static void clearGap(CheckpointState s) {
        s.setGapMissingVersion(0);
        s.setGapSinceMillis(0);
        s.setParkedCount(0);
    }

    static ProjectionUpdate update(String key, CheckpointState s) {
        ProjectionUpdate u = new ProjectionUpdate();
        u.setSourceKey(key);
        u.setRevision((s.getLastVersion() << ProjectionState.REVISION_BITS) | s.getNoticeSeq());
        u.setLastVersion(s.getLastVersion());
        u.setPayload(s.getPayload());
        u.setGapOpen(s.getGapMissingVersion() != 0);
        u.setGapMissingVersion(s.getGapMissingVersion());
        u.setGapSinceMillis(s.getGapSinceMillis());
        u.setParkedCount(s.getParkedCount());
        u.setEventTimeMillis(s.getEventTimeMillis());
        return u;
    }
}
