package io.streamledger.operators.projection;

import java.util.Objects;

/**
 * The projected state of one source key after an applied event or a gap notice (AP07 view row +
 * AP13 checkpoint row): last applied version with its payload, open gap and parked count, and a
 * per-key revision that strictly increases so version-guarded writes never move a row backwards.
 */
public class ProjectionUpdate {

    private String sourceKey;

    /** {@code lastVersion << 20 | noticesSinceLastApply}: the guard value of both rows. */
    private long revision;

    private long lastVersion;

    /** Payload of {@link #lastVersion}; null while nothing has been applied yet. */
    private String payload;

    private boolean gapOpen;
    private long gapMissingVersion;
    private long gapSinceMillis;
    private int parkedCount;
    private long eventTimeMillis;

    /** For Flink's POJO serializer. */
    public ProjectionUpdate() {}

    public String getSourceKey() {
        return sourceKey;
    }

    public void setSourceKey(String sourceKey) {
        this.sourceKey = sourceKey;
    }

    public long getRevision() {
        return revision;
    }

    public void setRevision(long revision) {
        this.revision = revision;
    }

    public long getLastVersion() {
        return lastVersion;
    }

    public void setLastVersion(long lastVersion) {
        this.lastVersion = lastVersion;
    }

    public String getPayload() {
        return payload;
    }

    public void setPayload(String payload) {
        this.payload = payload;
    }

    public boolean isGapOpen() {
        return gapOpen;
    }

    public void setGapOpen(boolean gapOpen) {
        this.gapOpen = gapOpen;
    }

    public long getGapMissingVersion() {
        return gapMissingVersion;
    }

    public void setGapMissingVersion(long gapMissingVersion) {
        this.gapMissingVersion = gapMissingVersion;
    }

    public long getGapSinceMillis() {
        return gapSinceMillis;
    }

    public void setGapSinceMillis(long gapSinceMillis) {
        this.gapSinceMillis = gapSinceMillis;
    }

    public int getParkedCount() {
        return parkedCount;
    }

    public void setParkedCount(int parkedCount) {
        this.parkedCount = parkedCount;
    }

    public long getEventTimeMillis() {
        return eventTimeMillis;
    }

    public void setEventTimeMillis(long eventTimeMillis) {
        this.eventTimeMillis = eventTimeMillis;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ProjectionUpdate u
                && revision == u.revision
                && lastVersion == u.lastVersion
                && gapOpen == u.gapOpen
                && gapMissingVersion == u.gapMissingVersion
                && gapSinceMillis == u.gapSinceMillis
                && parkedCount == u.parkedCount
                && eventTimeMillis == u.eventTimeMillis
                && Objects.equals(sourceKey, u.sourceKey)
                && Objects.equals(payload, u.payload);
    }

    @Override
    public int hashCode() {
        return Objects.hash(sourceKey, revision);
    }

    @Override
    public String toString() {
        return "ProjectionUpdate{"
                + sourceKey
                + " v"
                + lastVersion
                + " rev="
                + revision
                + (gapOpen ? " gap@" + gapMissingVersion + " parked=" + parkedCount : "")
                + "}";
    }
}
