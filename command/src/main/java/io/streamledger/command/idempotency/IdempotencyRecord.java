package io.streamledger.command.idempotency;

import javax.annotation.Nullable;

/**
 * A strongly read AP08 record (IDX08).
 *
 * @param commandJson canonical command, kept so the repair worker can re-attempt the effect
 * @param effectId deterministic id of the protected effect (order id, fill id, txn id)
 */
public record IdempotencyRecord(
        String tenant,
        String requestKey,
        String operation,
        String fingerprint,
        RequestState state,
        @Nullable String attemptOwner,
        long leaseUntilMillis,
        int attempt,
        @Nullable String commandJson,
        @Nullable String effectId,
        @Nullable DurableResponse response,
        @Nullable String repairReason,
        int repairCount) {

    public boolean leaseLive(long nowMillis) {
        return leaseUntilMillis > nowMillis;
    }
}
