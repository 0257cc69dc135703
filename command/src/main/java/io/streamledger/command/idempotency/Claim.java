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
        String effectId) {

    /**
     * ClientRequestToken (≤36 chars) for one transaction round of this owner attempt, so a retried
     * round is deduplicated by DynamoDB and a new round is not.
     */
    public String roundToken(int round) {
        return Fingerprint.sha256Hex(
                        tenant + "\n" + requestKey + "\n" + owner + "\n" + attempt + "\n" + round)
                .substring(0, 36);
    }
}
