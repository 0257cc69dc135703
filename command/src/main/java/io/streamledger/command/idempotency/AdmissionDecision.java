package io.streamledger.command.idempotency;

/**
 * The AP08 decision for a request whose claim found an existing record (seed "AP08 durable request
 * state machine", steps 2-3): a pure function of the strongly read record, the new fingerprint and
 * the time.
 */
public sealed interface AdmissionDecision {

    /** Same key, different command: 409, never the other command's result. */
    record FingerprintMismatch() implements AdmissionDecision {}

    /** COMPLETED with the same fingerprint: replay the durable response. */
    record Replay(DurableResponse response) implements AdmissionDecision {}

    /** A live lease (or a repair in progress): retry guidance, 409 with Retry-After. */
    record RetryLater(long retryAfterSeconds, boolean underRepair) implements AdmissionDecision {}

    /** An expired IN_PROGRESS lease: one conditional takeover from the recorded owner/attempt. */
    record TakeOver(String expectedOwner, int expectedAttempt) implements AdmissionDecision {}

    static AdmissionDecision decide(
            IdempotencyRecord existing, String fingerprint, long nowMillis) {
        if (!existing.fingerprint().equals(fingerprint)) {
            return new FingerprintMismatch();
        }
        switch (existing.state()) {
            case COMPLETED:
                if (existing.response() == null) {
                    throw new IllegalStateException(
                            "COMPLETED record without a durable response: "
                                    + existing.requestKey());
                }
                return new Replay(existing.response());
            case IN_PROGRESS:
                if (existing.leaseLive(nowMillis)) {
                    return new RetryLater(
                            retryAfter(existing.leaseUntilMillis() - nowMillis), false);
                }
                return new TakeOver(existing.attemptOwner(), existing.attempt());
            case REPAIR_REQUIRED:
                // The repair worker owns the record; a client retry must not race it.
                return new RetryLater(
                        existing.leaseLive(nowMillis)
                                ? retryAfter(existing.leaseUntilMillis() - nowMillis)
                                : 1,
                        true);
            default:
                throw new IllegalStateException("unknown state " + existing.state());
        }
    }

    /** Longest retry guidance: an escalated record's hold is unbounded, the hint is not. */
    static final long MAX_RETRY_AFTER_SECONDS = 3600;

    private static long retryAfter(long millis) {
        return Math.min(MAX_RETRY_AFTER_SECONDS, Math.max(1, (millis + 999) / 1000));
    }
}
