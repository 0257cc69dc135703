package io.streamledger.operators.gate;

import java.util.Objects;

/**
 * A replayed event (CS08) that the gate parked behind a gap of its key (CS07), so the job can say
 * on its dead-letter entry why it has not settled yet; it settles like any replay once the gap
 * closes and the event applies. A Flink POJO.
 */
public class ParkedReplay {

    private String replayOf;
    private long replayVersion;
    private String sourceKey;
    private long version;
    private long missingVersion;
    private long atMillis;

    /** For Flink's POJO serializer. */
    public ParkedReplay() {}

    public ParkedReplay(GateEvent e, long missingVersion, long atMillis) {
        this.replayOf = e.getReplayOf();
        this.replayVersion = e.getReplayVersion();
        this.sourceKey = e.getSourceKey();
        this.version = e.getVersion();
        this.missingVersion = missingVersion;
        this.atMillis = atMillis;
    }

    /** The dead-letter entry the event came from ({@link GateEvent#getReplayOf()}). */
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

    public String getSourceKey() {
        return sourceKey;
    }

    public void setSourceKey(String sourceKey) {
        this.sourceKey = sourceKey;
    }

    /** The replayed event's own version. */
    public long getVersion() {
        return version;
    }

    public void setVersion(long version) {
        this.version = version;
    }

    /** The version the key waits for (the gap's). */
    public long getMissingVersion() {
        return missingVersion;
    }

    public void setMissingVersion(long missingVersion) {
        this.missingVersion = missingVersion;
    }

    public long getAtMillis() {
        return atMillis;
    }

    public void setAtMillis(long atMillis) {
        this.atMillis = atMillis;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ParkedReplay p
                && replayVersion == p.replayVersion
                && version == p.version
                && missingVersion == p.missingVersion
                && atMillis == p.atMillis
                && Objects.equals(replayOf, p.replayOf)
                && Objects.equals(sourceKey, p.sourceKey);
    }

    @Override
    public int hashCode() {
        return Objects.hash(replayOf, sourceKey, version);
    }

    @Override
    public String toString() {
        return "ParkedReplay{"
                + sourceKey
                + " v"
                + version
                + " waits for v"
                + missingVersion
                + " replay of "
                + (replayOf == null ? null : replayOf.replace('\n', ' '))
                + '}';
    }
}
