package io.streamledger.command.idempotency;

/**
 * Proof of owning an AP08 record: the owner token and attempt number every later transition of this
 * attempt is conditioned on.
 */
public record Claim(
        String tenant,
        String requestKey,
        String operation,
        String fingerprint,
        String owner,
        int attempt,
        long leaseUntilMillis,
        String commandJson,
        String effectId) {}
