package io.streamledger.operators.projection;

import static org.assertj.core.api.Assertions.assertThat;

import io.streamledger.operators.gate.GapNotice;
import io.streamledger.operators.gate.GapStatus;
import io.streamledger.operators.gate.GateEvent;
import java.util.List;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.java.functions.KeySelector;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.streaming.api.operators.co.KeyedCoProcessOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.KeyedTwoInputStreamOperatorTestHarness;
import org.junit.jupiter.api.Test;

/** AP13/CS07: the checkpoint row shows last version, open gap and parked count; revisions rise. */
class ProjectionTrackerTest {

    private static final String KEY = "TEN#t#ACCT#a#AUTH#SEC#X";

    static KeyedTwoInputStreamOperatorTestHarness<String, GateEvent, GapNotice, ProjectionUpdate>
            harness() throws Exception {
        KeySelector<GateEvent, String> k1 = GateEvent::getSourceKey;
        KeySelector<GapNotice, String> k2 = GapNotice::getSourceKey;
        var h =
                new KeyedTwoInputStreamOperatorTestHarness<>(
                        new KeyedCoProcessOperator<>(new ProjectionTracker()),
                        k1,
                        k2,
                        Types.STRING);
        h.open();
        return h;
    }

    static GateEvent applied(long v) {
        return new GateEvent(
                KEY, v, "e" + v, 1000L + v, 0, "AuthorityChanged", "{\"v\":" + v + "}");
    }

    static GapNotice notice(GapStatus s, long missing, int parked) {
        return new GapNotice(KEY, s, missing, 500L, 600L, parked);
    }

    static List<ProjectionUpdate> out(
            KeyedTwoInputStreamOperatorTestHarness<String, GateEvent, GapNotice, ProjectionUpdate>
                    h) {
        return h.extractOutputValues();
    }

    @Test
    void appliedVersionsAdvanceTheRowAndGapsBecomeVisibleThenClose() throws Exception {
        var h = harness();
        h.processElement1(new StreamRecord<>(applied(1)));
        h.processElement2(new StreamRecord<>(notice(GapStatus.OPENED, 2, 1)));
        h.processElement1(new StreamRecord<>(applied(2)));
        h.processElement1(new StreamRecord<>(applied(3)));
        List<ProjectionUpdate> u = out(h);
        assertThat(u).hasSize(4);
        assertThat(u.get(0).getLastVersion()).isEqualTo(1);
        assertThat(u.get(0).isGapOpen()).isFalse();
        assertThat(u.get(1).isGapOpen()).isTrue();
        assertThat(u.get(1).getGapMissingVersion()).isEqualTo(2);
        assertThat(u.get(1).getParkedCount()).isEqualTo(1);
        assertThat(u.get(1).getPayload()).isEqualTo(u.get(0).getPayload());
        assertThat(u.get(2).isGapOpen()).isFalse(); // applying the missing version closes it
        assertThat(u.get(3).getLastVersion()).isEqualTo(3);
        assertThat(u).extracting(ProjectionUpdate::getRevision).isSorted().doesNotHaveDuplicates();
        h.close();
    }

    @Test
    void aNoticeArrivingAfterItsGapClosedIsIgnored() throws Exception {
        var h = harness();
        h.processElement1(new StreamRecord<>(applied(1)));
        h.processElement1(new StreamRecord<>(applied(2)));
        h.processElement2(new StreamRecord<>(notice(GapStatus.OPENED, 2, 1)));
        h.processElement2(new StreamRecord<>(notice(GapStatus.CLOSED, 2, 0)));
        assertThat(out(h)).hasSize(2).allMatch(x -> !x.isGapOpen());
        h.close();
    }

    @Test
    void aNoticeBeforeAnyApplyEmitsACheckpointWithoutPayload() throws Exception {
        var h = harness();
        h.processElement2(new StreamRecord<>(notice(GapStatus.OPENED, 1, 3)));
        ProjectionUpdate u = out(h).get(0);
        assertThat(u.getPayload()).isNull();
        assertThat(u.getLastVersion()).isZero();
        assertThat(u.isGapOpen()).isTrue();
        assertThat(u.getRevision()).isEqualTo(1);
        h.close();
    }

    @Test
    void replayedVersionsEmitNothingAndStateSurvivesSnapshotRestore() throws Exception {
        var h = harness();
        h.processElement1(new StreamRecord<>(applied(1)));
        h.processElement2(new StreamRecord<>(notice(GapStatus.OPENED, 3, 2)));
        OperatorSubtaskState snap = h.snapshot(1, 1);
        h.close();

        var restored =
                new KeyedTwoInputStreamOperatorTestHarness<>(
                        new KeyedCoProcessOperator<>(new ProjectionTracker()),
                        (KeySelector<GateEvent, String>) GateEvent::getSourceKey,
                        (KeySelector<GapNotice, String>) GapNotice::getSourceKey,
                        Types.STRING);
        restored.initializeState(snap);
        restored.open();
        restored.processElement1(new StreamRecord<>(applied(1))); // replay: no row
        restored.processElement1(new StreamRecord<>(applied(2)));
        List<ProjectionUpdate> u = restored.extractOutputValues();
        assertThat(u).hasSize(1);
        assertThat(u.get(0).getLastVersion()).isEqualTo(2);
        assertThat(u.get(0).isGapOpen()).isTrue(); // version 3 is still missing
        assertThat(u.get(0).getGapMissingVersion()).isEqualTo(3);
        assertThat(restored.numKeyedStateEntries()).isEqualTo(1);
        restored.close();
    }
}
