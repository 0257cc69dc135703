package io.streamledger.operators.recon;

import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.Objects;

/**
 * One AP15 discrepancy as the checks emit it, before storage (IDX14/IDX15): a deterministic id
 * inside a batch, a named reason, and evidence with exact amounts as strings (CS10), so a replay
 * produces the very same record and the create-once write makes it a no-op.
 *
 * <p>Ids and batch ids are '#'-free key components ({@code :}-separated) because they become the
 * {@code id}/{@code batch} parts of {@code BREAK#id} and {@code DUE#at#batch#id}.
 */
public class BreakRecord {

    /** Which job found it. */
    public enum Origin {
        LEDGER_CHECK,
        RECONCILIATION,
        PROJECTION_GAP,
        /** A job rejected a record for a business reason (CS08): nothing of it was applied. */
        REJECTED_RECORD
    }

    private String tenant;
    private String batchId;
    private String breakId;
    private String reason;
    private Origin origin;
    private long detectedAtMillis;
    private String subject;
    private String evidence;

    /** For Flink's POJO serializer. */
    public BreakRecord() {}

    public BreakRecord(
            String tenant,
            String batchId,
            String breakId,
            String reason,
            Origin origin,
            long detectedAtMillis,
            String subject,
            String evidence) {
        this.tenant = Objects.requireNonNull(tenant, "tenant");
        this.batchId = Objects.requireNonNull(batchId, "batchId");
        this.breakId = Objects.requireNonNull(breakId, "breakId");
        this.reason = Objects.requireNonNull(reason, "reason");
        this.origin = Objects.requireNonNull(origin, "origin");
        this.detectedAtMillis = detectedAtMillis;
        this.subject = Objects.requireNonNull(subject, "subject");
        this.evidence = Objects.requireNonNull(evidence, "evidence");
    }

    /**
     * The continuous checks' daily batch: {@code <origin>-yyyy-MM-dd} of the event time, so the
     * same violation always lands in the same batch.
     */
    public static String dailyBatch(Origin origin, long eventTimeMillis) {
        LocalDate d = Instant.ofEpochMilli(eventTimeMillis).atZone(ZoneOffset.UTC).toLocalDate();
        return origin.name().replace('_', '-') + "-" + d;
    }

    /** Joins id parts with ':' after replacing any '#' (never expected) with '_'. */
    public static String id(Object... parts) {
        StringBuilder b = new StringBuilder();
        for (Object p : parts) {
            if (b.length() > 0) {
                b.append(':');
            }
            b.append(String.valueOf(p).replace('#', '_'));
        }
        return b.toString();
    }

    public String getTenant() {
        return tenant;
    }

    public void setTenant(String tenant) {
        this.tenant = tenant;
    }

    public String getBatchId() {
        return batchId;
    }

    public void setBatchId(String batchId) {
        this.batchId = batchId;
    }

    public String getBreakId() {
        return breakId;
    }

    public void setBreakId(String breakId) {
        this.breakId = breakId;
    }

    public String getReason() {
        return reason;
    }

    public void setReason(String reason) {
        this.reason = reason;
    }

    public Origin getOrigin() {
        return origin;
    }

    public void setOrigin(Origin origin) {
        this.origin = origin;
    }

    public long getDetectedAtMillis() {
        return detectedAtMillis;
    }

    public void setDetectedAtMillis(long detectedAtMillis) {
        this.detectedAtMillis = detectedAtMillis;
    }

    public String getSubject() {
        return subject;
    }

    public void setSubject(String subject) {
        this.subject = subject;
    }

    public String getEvidence() {
        return evidence;
    }

    public void setEvidence(String evidence) {
        this.evidence = evidence;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof BreakRecord b
                && tenant.equals(b.tenant)
                && batchId.equals(b.batchId)
                && breakId.equals(b.breakId)
                && reason.equals(b.reason)
                && origin == b.origin
                && detectedAtMillis == b.detectedAtMillis
                && subject.equals(b.subject)
                && evidence.equals(b.evidence);
    }

    @Override
    public int hashCode() {
        return Objects.hash(tenant, batchId, breakId);
    }

    @Override
    public String toString() {
        return "Break{" + batchId + "/" + breakId + " " + reason + " " + evidence + "}";
    }
}
