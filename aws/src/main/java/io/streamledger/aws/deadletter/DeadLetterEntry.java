package io.streamledger.aws.deadletter;

import io.streamledger.model.deadletter.DeadLetterIds;
import io.streamledger.model.deadletter.DeadLetterReason;
import io.streamledger.model.keys.DeadLetterKey;
import java.io.Serializable;
import java.util.Objects;
import javax.annotation.Nullable;

/**
 * One record a job set aside (CS08), in the shape the dead-letter table stores: who set it aside
 * and why, the raw payload, where it came from and which aggregate it belongs to.
 *
 * @param tenant tenant of the record, or {@link DeadLetterKey#UNKNOWN_TENANT}
 * @param job job role, e.g. {@code posting}
 * @param operator the operator (uid) that set it aside
 * @param reason named reason
 * @param detail human-readable detail of the reason
 * @param payload the raw record (UTF-8 text or base64, see {@code payloadEncoding})
 * @param payloadEncoding {@code utf-8}, {@code base64} or {@code json} (a serialized event)
 * @param origin what identifies the record at its source: the source position ({@code
 *     stream/shard/sequence}) or the event id; the entry id is derived from job + origin
 * @param sourcePosition transport position, if known
 * @param aggregateKey aggregate (source key) the record belongs to, if known
 * @param aggregateVersion aggregate version, 0 when unknown
 * @param seenAtMillis when the job set it aside
 */
public record DeadLetterEntry(
        String tenant,
        String job,
        String operator,
        DeadLetterReason reason,
        String detail,
        String payload,
        String payloadEncoding,
        String origin,
        @Nullable String sourcePosition,
        @Nullable String aggregateKey,
        long aggregateVersion,
        long seenAtMillis)
        implements Serializable {

    public DeadLetterEntry {
        tenant = tenant == null || tenant.isEmpty() ? DeadLetterKey.UNKNOWN_TENANT : tenant;
        Objects.requireNonNull(job, "job");
        Objects.requireNonNull(operator, "operator");
        Objects.requireNonNull(reason, "reason");
        Objects.requireNonNull(origin, "origin");
        detail = detail == null ? "" : detail;
        payload = payload == null ? "" : payload;
        payloadEncoding = payloadEncoding == null ? "utf-8" : payloadEncoding;
    }

    /** The deterministic entry id (job + origin). */
    public String id() {
        return DeadLetterIds.of(job, origin);
    }

    /** The table key of this entry. */
    public DeadLetterKey key() {
        return new DeadLetterKey(tenant, job, reason.name(), id());
    }
}
