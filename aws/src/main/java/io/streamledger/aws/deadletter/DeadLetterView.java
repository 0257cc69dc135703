package io.streamledger.aws.deadletter;

import io.streamledger.model.deadletter.DeadLetterReason;
import io.streamledger.model.deadletter.DeadLetterStatus;
import io.streamledger.model.keys.DeadLetterKey;
import java.time.Instant;
import java.util.List;
import javax.annotation.Nullable;

/**
 * A stored dead-letter entry as an operator sees it (CS08): what the job set aside, where it came
 * from, how often, its status and version, and every operator change in order.
 */
public record DeadLetterView(
        String tenant,
        String job,
        String operator,
        DeadLetterReason reason,
        String id,
        String detail,
        String payload,
        String payloadEncoding,
        String origin,
        @Nullable String sourcePosition,
        @Nullable String aggregateKey,
        long aggregateVersion,
        Instant firstSeen,
        Instant lastSeen,
        long attempts,
        DeadLetterStatus status,
        long version,
        List<Change> history) {

    /** One audited operator action on the entry. */
    public record Change(
            Instant at,
            String actor,
            String action,
            DeadLetterStatus fromStatus,
            DeadLetterStatus toStatus,
            long fromVersion,
            String note) {}

    public DeadLetterKey key() {
        return new DeadLetterKey(tenant, job, reason.name(), id);
    }

    /**
     * While REPLAY_PARKED: what the job's gate holds the replay behind (the park's note: the gap's
     * reference, key and missing version); null in every other status.
     */
    public @Nullable String parkedBehind() {
        if (status != DeadLetterStatus.REPLAY_PARKED) {
            return null;
        }
        for (int i = history.size() - 1; i >= 0; i--) {
            if (history.get(i).toStatus() == DeadLetterStatus.REPLAY_PARKED) {
                return history.get(i).note();
            }
        }
        return null;
    }

    /** The entry's public reference: {@code job:REASON:id} (tenant comes from the caller). */
    public String ref() {
        return DeadLetterRef.format(job, reason, id);
    }
}
