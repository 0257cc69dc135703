package io.streamledger.operators.posting;

import java.util.Objects;

/**
 * What happened to one fill in the posting job (AP09): a {@link PostingStatus} with its reason,
 * attempts and lines.
 */
public class PostingOutcome {

    public static final PostingStatus APPLIED = PostingStatus.APPLIED;
    public static final PostingStatus DUPLICATE = PostingStatus.DUPLICATE;
    public static final PostingStatus REJECTED = PostingStatus.REJECTED;

    private String eventId;
    private String txnId;
    private String tenant;
    private String accountId;
    private PostingStatus status;
    private String reason;
    private int attempts;
    private int lines;
    private long atMillis;

    /** The fill as JSON, on REJECTED outcomes only (kept by the dead-letter entry). */
    private String payload;

    /** The fill's execution time: the deterministic day of a rejection's break batch. */
    private long executedAtMillis;

    /** A replayed fill's dead-letter reason and requested version (see {@link TradeFill}). */
    private String replayReason;

    private long replayVersion;

    /** A replayed fill's entry reference (see {@link TradeFill#getReplayOf()}). */
    private String replayOf;

    /** For Flink's POJO serializer. */
    public PostingOutcome() {}

    public String getReplayOf() {
        return replayOf;
    }

    public void setReplayOf(String replayOf) {
        this.replayOf = replayOf;
    }

    public String getReplayReason() {
        return replayReason;
    }

    public void setReplayReason(String replayReason) {
        this.replayReason = replayReason;
    }

    public long getReplayVersion() {
        return replayVersion;
    }

    public void setReplayVersion(long replayVersion) {
        this.replayVersion = replayVersion;
    }

    public PostingOutcome(
            String eventId,
            String txnId,
            String tenant,
            String accountId,
            PostingStatus status,
            String reason,
            int attempts,
            int lines,
            long atMillis) {
        this.eventId = eventId;
        this.txnId = txnId;
        this.tenant = tenant;
        this.accountId = accountId;
        this.status = status;
        this.reason = reason;
        this.attempts = attempts;
        this.lines = lines;
        this.atMillis = atMillis;
    }

    public String getEventId() {
        return eventId;
    }

    public void setEventId(String eventId) {
        this.eventId = eventId;
    }

    public String getTxnId() {
        return txnId;
    }

    public void setTxnId(String txnId) {
        this.txnId = txnId;
    }

    public String getTenant() {
        return tenant;
    }

    public void setTenant(String tenant) {
        this.tenant = tenant;
    }

    public String getAccountId() {
        return accountId;
    }

    public void setAccountId(String accountId) {
        this.accountId = accountId;
    }

    public PostingStatus getStatus() {
        return status;
    }

    public void setStatus(PostingStatus status) {
        this.status = status;
    }

    public String getReason() {
        return reason;
    }

    public void setReason(String reason) {
        this.reason = reason;
    }

    public int getAttempts() {
        return attempts;
    }

    public void setAttempts(int attempts) {
        this.attempts = attempts;
    }

    public int getLines() {
        return lines;
    }

    public void setLines(int lines) {
        this.lines = lines;
    }

    public String getPayload() {
        return payload;
    }

    public void setPayload(String payload) {
        this.payload = payload;
    }

    public long getExecutedAtMillis() {
        return executedAtMillis;
    }

    public void setExecutedAtMillis(long executedAtMillis) {
        this.executedAtMillis = executedAtMillis;
    }

    /** The named reason code of a REJECTED outcome ({@code CODE: detail}), or null. */
    public String reasonCode() {
        if (reason == null) {
            return null;
        }
        int colon = reason.indexOf(':');
        return colon > 0 ? reason.substring(0, colon) : reason;
    }

    /** A REJECTED outcome of {@code fill}: nothing written, the reason named. */
    public static PostingOutcome rejected(TradeFill fill, String reason, long atMillis) {
        PostingOutcome o =
                new PostingOutcome(
                        fill.getEventId(),
                        null,
                        fill.getTenant(),
                        fill.getAccountId(),
                        PostingStatus.REJECTED,
                        reason,
                        0,
                        0,
                        atMillis);
        o.setPayload(TradeFills.toJson(fill));
        o.setExecutedAtMillis(fill.getExecutedAtMillis());
        o.setReplayReason(fill.getReplayReason());
        o.setReplayVersion(fill.getReplayVersion());
        o.setReplayOf(fill.getReplayOf());
        return o;
    }

    public long getAtMillis() {
        return atMillis;
    }

    public void setAtMillis(long atMillis) {
        this.atMillis = atMillis;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof PostingOutcome p
                && attempts == p.attempts
                && lines == p.lines
                && atMillis == p.atMillis
                && Objects.equals(eventId, p.eventId)
                && Objects.equals(txnId, p.txnId)
                && status == p.status
                && Objects.equals(reason, p.reason);
    }

    @Override
    public int hashCode() {
        return Objects.hash(eventId, status);
    }

    @Override
    public String toString() {
        return "PostingOutcome{"
                + eventId
                + " "
                + status
                + (reason == null ? "" : " " + reason)
                + "}";
    }
}
