package io.streamledger.operators.projection;

/** Keyed state of {@link ProjectionTracker}: what the checkpoint row of one source key says. */
public class CheckpointState {

    private long lastVersion;
    private String payload;
    private long eventTimeMillis;
    private long gapMissingVersion;
    private long gapSinceMillis;
    private int parkedCount;
    private int noticeSeq;

    /** For Flink's POJO serializer. */
    public CheckpointState() {}

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

    public long getEventTimeMillis() {
        return eventTimeMillis;
    }

    public void setEventTimeMillis(long eventTimeMillis) {
        this.eventTimeMillis = eventTimeMillis;
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

    public int getNoticeSeq() {
        return noticeSeq;
    }

    public void setNoticeSeq(int noticeSeq) {
        this.noticeSeq = noticeSeq;
    }
}
