package io.streamledger.command.idempotency;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The AP08 decision table for a claim that met an existing record. */
class AdmissionDecisionTest {

    private static IdempotencyRecord rec(RequestState s, long leaseUntil, DurableResponse r) {
        return new IdempotencyRecord(
                "t", "k", "Op", "fp", s, "owner", leaseUntil, 3, "{}", "e", r, null, 0);
    }

    @Test
    void differentFingerprintIsMismatchWhateverTheState() {
        for (RequestState s : RequestState.values()) {
            assertThat(
                            AdmissionDecision.decide(
                                    rec(s, 0, new DurableResponse(201, "{}")), "other", 10))
                    .isInstanceOf(AdmissionDecision.FingerprintMismatch.class);
        }
    }

    @Test
    void completedReplaysTheDurableResponse() {
        DurableResponse r = new DurableResponse(201, "{\"order\":{}}");
        assertThat(AdmissionDecision.decide(rec(RequestState.COMPLETED, 0, r), "fp", 10))
                .isEqualTo(new AdmissionDecision.Replay(r));
    }

    @Test
    void liveLeaseGivesRetryAfterRoundedUpAndExpiredLeaseIsTakenOverFromTheSeenAttempt() {
        assertThat(
                        AdmissionDecision.decide(
                                rec(RequestState.IN_PROGRESS, 2_500, null), "fp", 1_000))
                .isEqualTo(new AdmissionDecision.RetryLater(2, false));
        assertThat(
                        AdmissionDecision.decide(
                                rec(RequestState.IN_PROGRESS, 1_000, null), "fp", 1_000))
                .isEqualTo(new AdmissionDecision.TakeOver("owner", 3));
    }

    @Test
    void repairRequiredBelongsToTheRepairWorker() {
        assertThat(
                        AdmissionDecision.decide(
                                rec(RequestState.REPAIR_REQUIRED, 0, null), "fp", 1_000))
                .isEqualTo(new AdmissionDecision.RetryLater(1, true));
    }
}
