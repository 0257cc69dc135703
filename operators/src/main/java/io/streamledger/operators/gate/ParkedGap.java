package io.streamledger.operators.gate;

import java.util.Arrays;
import java.util.Objects;

/**
 * One transition of a blocked key, emitted by {@link NextVersionGate} only while a key is blocked
 * (a gap opens, parks one more version, moves, becomes overdue or closes; never for an event of an
 * unblocked key), for the durable parked-gap record (CS07: gaps visible; released only by the
 * missing version or an audited skip).
 */
public class ParkedGap {

    private String sourceKey;
    private ParkedGapChange change;
    private long missingVersion;
    private long sinceMillis;
    private long slaDeadlineMillis;
    private int parkedCount;
    private long[] parkedVersions = new long[0];
    private boolean overdue;
    private long atMillis;
    private String actor;
    private String note;

    /** For Flink's POJO serializer. */
    public ParkedGap() {}

    public ParkedGap(
            String sourceKey,
            ParkedGapChange change,
            long missingVersion,
            long sinceMillis,
            long slaDeadlineMillis,
            int parkedCount,
            long[] parkedVersions,
            boolean overdue,
            long atMillis,
            String actor,
            String note) {
        this.sourceKey = sourceKey;
        this.change = change;
        this.missingVersion = missingVersion;
        this.sinceMillis = sinceMillis;
        this.slaDeadlineMillis = slaDeadlineMillis;
        this.parkedCount = parkedCount;
        this.parkedVersions = parkedVersions;
        this.overdue = overdue;
        this.atMillis = atMillis;
        this.actor = actor;
        this.note = note;
    }

    public String getSourceKey() {
        return sourceKey;
    }

    public void setSourceKey(String sourceKey) {
        this.sourceKey = sourceKey;
    }

    public ParkedGapChange getChange() {
        return change;
    }

    public void setChange(ParkedGapChange change) {
        this.change = change;
    }

    public long getMissingVersion() {
        return missingVersion;
    }

    public void setMissingVersion(long missingVersion) {
        this.missingVersion = missingVersion;
    }

    public long getSinceMillis() {
        return sinceMillis;
    }

    public void setSinceMillis(long sinceMillis) {
        this.sinceMillis = sinceMillis;
    }

    public long getSlaDeadlineMillis() {
        return slaDeadlineMillis;
    }

    public void setSlaDeadlineMillis(long slaDeadlineMillis) {
        this.slaDeadlineMillis = slaDeadlineMillis;
    }

    public int getParkedCount() {
        return parkedCount;
    }

    public void setParkedCount(int parkedCount) {
        this.parkedCount = parkedCount;
    }

    /** Parked versions, ascending: all of them, or only the new one for {@code PARKED}. */
    public long[] getParkedVersions() {
        return parkedVersions;
    }

    public void setParkedVersions(long[] parkedVersions) {
        this.parkedVersions = parkedVersions;
    }

    public boolean isOverdue() {
        return overdue;
    }

    public void setOverdue(boolean overdue) {
        this.overdue = overdue;
    }

    public long getAtMillis() {
        return atMillis;
    }

    public void setAtMillis(long atMillis) {
        this.atMillis = atMillis;
    }

    /** Who acted: the skip's requester, or null for the gate's own transitions. */
    public String getActor() {
        return actor;
    }

    public void setActor(String actor) {
        this.actor = actor;
    }

    public String getNote() {
        return note;
    }

    public void setNote(String note) {
        this.note = note;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof ParkedGap)) {
            return false;
        }
        ParkedGap that = (ParkedGap) o;
        return missingVersion == that.missingVersion
                && sinceMillis == that.sinceMillis
                && slaDeadlineMillis == that.slaDeadlineMillis
                && parkedCount == that.parkedCount
                && overdue == that.overdue
                && atMillis == that.atMillis
                && Objects.equals(sourceKey, that.sourceKey)
                && change == that.change
                && Arrays.equals(parkedVersions, that.parkedVersions)
                && Objects.equals(actor, that.actor)
                && Objects.equals(note, that.note);
    }

    @Override
    public int hashCode() {
        return Objects.hash(sourceKey, change, missingVersion, atMillis);
    }

    @Override
    public String toString() {
        return "ParkedGap{"
                + sourceKey
                + ' '
                + change
                + " missing="
                + missingVersion
                + " parked="
                + parkedCount
                + Arrays.toString(parkedVersions)
                + (actor == null ? "" : " by " + actor)
                + '}';
    }
}
