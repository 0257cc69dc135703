package io.streamledger.operators.gate;

import java.util.Objects;

/**
 * A gap became visible or was closed for one key (CS07: expose gaps); the projection checkpoint
 * (IDX12) records the open gap from these.
 *
 * <p>{@code sinceMillis} is when the key became blocked (its first parked event); it does not
 * restart when the missing version moves up while the key stays blocked.
 */
public class GapNotice {

    private String sourceKey;
    private GapStatus status;
    private long missingVersion;
    private long sinceMillis;
    private long atMillis;
    private int parkedCount;

    /** For Flink's POJO serializer. */
    public GapNotice() {}

    public GapNotice(
            String sourceKey,
            GapStatus status,
            long missingVersion,
            long sinceMillis,
            long atMillis,
            int parkedCount) {
        this.sourceKey = sourceKey;
        this.status = status;
        this.missingVersion = missingVersion;
        this.sinceMillis = sinceMillis;
        this.atMillis = atMillis;
        this.parkedCount = parkedCount;
    }

    public String getSourceKey() {
        return sourceKey;
    }

    public void setSourceKey(String sourceKey) {
        this.sourceKey = sourceKey;
    }

    public GapStatus getStatus() {
        return status;
    }

    public void setStatus(GapStatus status) {
        this.status = status;
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

    public long getAtMillis() {
        return atMillis;
    }

    public void setAtMillis(long atMillis) {
        this.atMillis = atMillis;
    }

    public int getParkedCount() {
        return parkedCount;
    }

    public void setParkedCount(int parkedCount) {
        this.parkedCount = parkedCount;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof GapNotice)) {
            return false;
        }
        GapNotice that = (GapNotice) o;
        return missingVersion == that.missingVersion
                && sinceMillis == that.sinceMillis
                && atMillis == that.atMillis
                && parkedCount == that.parkedCount
                && Objects.equals(sourceKey, that.sourceKey)
                && status == that.status;
    }

    @Override
    public int hashCode() {
        return Objects.hash(sourceKey, status, missingVersion, sinceMillis, atMillis, parkedCount);
    }

    @Override
    public String toString() {
        return "GapNotice{"
                + sourceKey
                + ' '
                + status
                + " missing="
                + missingVersion
                + " since="
                + sinceMillis
                + " parked="
                + parkedCount
                + '}';
    }
}
