package io.streamledger.operators.gate;

/**
 * Keyed state of a blocked key (CS07): the version it waits for, since when, its SLA timer and how
 * many events it holds; present exactly while the key has parked events.
 */
public class OpenGap {

    /** The version the key waits for; always {@code current + 1}. */
    private long missingVersion;

    /** Processing time the key became blocked (first event parked). */
    private long sinceMillis;

    /**
     * The registered SLA timer; kept so a changed SLA after restore still deletes the right one.
     */
    private long timerAtMillis;

    /** Number of entries in the parked map; MapState has no cheap size. */
    private int parkedCount;

    /**
     * Version named by the latest break in this blocked period; 0 while the SLA timer is pending.
     */
    private long lastBreakVersion;

    /** For Flink's POJO serializer. */
    public OpenGap() {}

    public OpenGap(long missingVersion, long sinceMillis, long timerAtMillis, int parkedCount) {
        this.missingVersion = missingVersion;
        this.sinceMillis = sinceMillis;
        this.timerAtMillis = timerAtMillis;
        this.parkedCount = parkedCount;
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

    public long getTimerAtMillis() {
        return timerAtMillis;
    }

    public void setTimerAtMillis(long timerAtMillis) {
        this.timerAtMillis = timerAtMillis;
    }

    public int getParkedCount() {
        return parkedCount;
    }

    public void setParkedCount(int parkedCount) {
        this.parkedCount = parkedCount;
    }

    public long getLastBreakVersion() {
        return lastBreakVersion;
    }

    public void setLastBreakVersion(long lastBreakVersion) {
        this.lastBreakVersion = lastBreakVersion;
    }

    /** True once the SLA timer fired in this blocked period (the key is overdue). */
    public boolean overdue() {
        return lastBreakVersion != 0;
    }

    @Override
    public String toString() {
        return "OpenGap{missing="
                + missingVersion
                + " since="
                + sinceMillis
                + " timerAt="
                + timerAtMillis
                + " parked="
                + parkedCount
                + " lastBreak="
                + lastBreakVersion
                + '}';
    }
}
