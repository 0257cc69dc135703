package io.streamledger.jobs.deadletter;

import io.streamledger.aws.deadletter.ParkedGapItems;
import io.streamledger.model.deadletter.ParkedGapIds;
import io.streamledger.operators.gate.GateEvent;
import io.streamledger.operators.gate.ParkedReplay;
import java.util.Objects;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;

/**
 * What became of one re-injected dead-letter entry (CS08 replay), settled on the entry by {@link
 * ReplaySettlementSink}: applied (or found applied already: a counted stale/duplicate no-op), set
 * aside again, or parked behind a gap until it applies. A Flink POJO.
 */
public class ReplayOutcome {

    public static final TypeInformation<ReplayOutcome> TYPE = Types.POJO(ReplayOutcome.class);

    private String replayOf;
    private long replayVersion;
    private boolean applied;
    private boolean attemptCounted;
    private boolean parked;
    private String note;

    /** For Flink's POJO serializer. */
    public ReplayOutcome() {}

    public ReplayOutcome(
            String replayOf,
            long replayVersion,
            boolean applied,
            boolean attemptCounted,
            String note) {
        this.replayOf = replayOf;
        this.replayVersion = replayVersion;
        this.applied = applied;
        this.attemptCounted = attemptCounted;
        this.note = note;
    }

    /** A replayed event that passed the gate ({@code how}: APPLIED, STALE, DUPLICATE). */
    public static ReplayOutcome applied(GateEvent e, String how) {
        return new ReplayOutcome(e.getReplayOf(), e.getReplayVersion(), true, false, how);
    }

    /**
     * A replayed event set aside again; {@code attemptCounted} when it landed on its own entry,
     * whose upsert already added the attempt.
     */
    public static ReplayOutcome failed(GateEvent e, boolean attemptCounted, String note) {
        return new ReplayOutcome(
                e.getReplayOf(), e.getReplayVersion(), false, attemptCounted, note);
    }

    /**
     * A replayed event the gate parked behind a gap of its key: not an outcome yet, but the entry
     * says so (REPLAY_PARKED, the note names the gap record {@code job:id}, the key and the missing
     * version) until the event applies.
     *
     * @param job the job's role
     * @param gateOperator uid of the gate that parked it (its parked-gap records carry it)
     */
    public static ReplayOutcome parked(ParkedReplay p, String job, String gateOperator) {
        String gap =
                ParkedGapItems.ref(
                        job,
                        ParkedGapIds.of(
                                job, gateOperator, p.getSourceKey(), p.getMissingVersion()));
        ReplayOutcome o =
                new ReplayOutcome(
                        p.getReplayOf(),
                        p.getReplayVersion(),
                        false,
                        false,
                        "behind gap "
                                + gap
                                + " of "
                                + p.getSourceKey()
                                + ": waits for version "
                                + p.getMissingVersion()
                                + " (this is version "
                                + p.getVersion()
                                + ")");
        o.setParked(true);
        return o;
    }

    public boolean isParked() {
        return parked;
    }

    public void setParked(boolean parked) {
        this.parked = parked;
    }

    public String getReplayOf() {
        return replayOf;
    }

    public void setReplayOf(String replayOf) {
        this.replayOf = replayOf;
    }

    public long getReplayVersion() {
        return replayVersion;
    }

    public void setReplayVersion(long replayVersion) {
        this.replayVersion = replayVersion;
    }

    public boolean isApplied() {
        return applied;
    }

    public void setApplied(boolean applied) {
        this.applied = applied;
    }

    public boolean isAttemptCounted() {
        return attemptCounted;
    }

    public void setAttemptCounted(boolean attemptCounted) {
        this.attemptCounted = attemptCounted;
    }

    public String getNote() {
        return note;
    }

    public void setNote(String note) {
        this.note = note;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ReplayOutcome r
                && replayVersion == r.replayVersion
                && applied == r.applied
                && attemptCounted == r.attemptCounted
                && parked == r.parked
                && Objects.equals(replayOf, r.replayOf)
                && Objects.equals(note, r.note);
    }

    @Override
    public int hashCode() {
        return Objects.hash(replayOf, replayVersion, applied);
    }

    @Override
    public String toString() {
        return "ReplayOutcome{"
                + replayOf.replace('\n', ' ')
                + " v"
                + replayVersion
                + (applied ? " applied " : parked ? " parked " : " failed ")
                + note
                + '}';
    }
}
