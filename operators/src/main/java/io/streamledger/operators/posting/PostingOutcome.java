package io.streamledger.operators.posting;

import java.util.Objects;

/**
 * What happened to one fill in the posting job (AP09): APPLIED (transaction committed), DUPLICATE
 * (the inbox receipt already existed: a replay, counted no-op) or REJECTED (bad input, with its
 * reason; nothing written).
 */
public class PostingOutcome {

    public static final String APPLIED = "APPLIED";
    public static final String DUPLICATE = "DUPLICATE";
    public static final String REJECTED = "REJECTED";

    private String eventId;
    private String txnId;
    private String tenant;
    private String accountId;
    private String status;
    private String reason;
    private int attempts;
    private int lines;
    private long atMillis;

    /** For Flink's POJO serializer. */
    public PostingOutcome() {}

    public PostingOutcome(
            String eventId,
            String txnId,
            String tenant,
            String accountId,
            String status,
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

    public String getStatus() {
        return status;
    }

    public void setStatus(String status) {
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
                && Objects.equals(status, p.status)
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
