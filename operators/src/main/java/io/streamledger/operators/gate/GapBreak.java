package io.streamledger.operators.gate;

import java.util.Objects;

/**
 * A gap older than its SLA (CS07, AP15 break): the key stays parked and this record hands the
 * missing version to reconciliation; {@code breakId} is deterministic so a replay upserts, not
 * duplicates.
 */
public class GapBreak {

    private String breakId;
    private String sourceKey;
    private long missingVersion;
    private long sinceMillis;
    private long detectedAtMillis;
    private long slaMillis;
    private int parkedCount;

    /** For Flink's POJO serializer. */
    public GapBreak() {}

    public GapBreak(
            String sourceKey,
            long missingVersion,
            long sinceMillis,
            long detectedAtMillis,
            long slaMillis,
            int parkedCount) {
        this.breakId = breakIdOf(sourceKey, missingVersion);
        this.sourceKey = sourceKey;
        this.missingVersion = missingVersion;
        this.sinceMillis = sinceMillis;
        this.detectedAtMillis = detectedAtMillis;
        this.slaMillis = slaMillis;
        this.parkedCount = parkedCount;
    }

    /** The break id is a pure function of what is missing, never of when it was noticed. */
    public static String breakIdOf(String sourceKey, long missingVersion) {
        return "GAP#" + sourceKey + "#V#" + missingVersion;
    }

    public String getBreakId() {
        return breakId;
    }

    public void setBreakId(String breakId) {
        this.breakId = breakId;
    }

    public String getSourceKey() {
        return sourceKey;
    }

    public void setSourceKey(String sourceKey) {
        this.sourceKey = sourceKey;
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

    public long getDetectedAtMillis() {
        return detectedAtMillis;
    }

    public void setDetectedAtMillis(long detectedAtMillis) {
        this.detectedAtMillis = detectedAtMillis;
    }

    public long getSlaMillis() {
        return slaMillis;
    }

    public void setSlaMillis(long slaMillis) {
        this.slaMillis = slaMillis;
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
        if (!(o instanceof GapBreak)) {
            return false;
        }
        GapBreak that = (GapBreak) o;
        return missingVersion == that.missingVersion
                && sinceMillis == that.sinceMillis
                && detectedAtMillis == that.detectedAtMillis
                && slaMillis == that.slaMillis
                && parkedCount == that.parkedCount
                && Objects.equals(breakId, that.breakId)
                && Objects.equals(sourceKey, that.sourceKey);
    }

    @Override
    public int hashCode() {
        return Objects.hash(breakId, detectedAtMillis);
    }

    @Override
    public String toString() {
        return "GapBreak{" + breakId + " since=" + sinceMillis + " parked=" + parkedCount + '}';
    }
}
