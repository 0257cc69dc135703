package io.streamledger.command.idempotency;

import io.streamledger.aws.error.DynamoDbErrorClassifier;
import io.streamledger.aws.error.ErrorClass;
import io.streamledger.aws.retry.RetriesExhaustedException;
import io.streamledger.command.api.ApiException;
import io.streamledger.command.api.ErrorBodies;
import io.streamledger.command.dynamo.CapacityMeter;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs one command through the AP08 durable request state machine (CS01/CS02): claim, decide on an
 * existing record, take over an expired lease once, apply the effect whose transaction completes
 * the record, store business rejections as the durable result, and hand ambiguous outcomes to the
 * AP18 repair worker.
 */
public final class IdempotentExecutor {

    private static final Logger LOG = LoggerFactory.getLogger(IdempotentExecutor.class);

    /** How often a request re-reads after losing a takeover race before giving retry guidance. */
    private static final int MAX_RESOLVE_ROUNDS = 3;

    /**
     * The effect of one command; its transaction must include {@link
     * IdempotencyStore#completionPut}.
     */
    @FunctionalInterface
    public interface Effect {
        /**
         * Applies the effect and returns the durable response it committed with. Throws {@link
         * ApiException} (4xx) for a business rejection decided before anything was written, and
         * {@link OwnershipLostException} when the completion condition failed.
         */
        DurableResponse apply(Claim claim, CapacityMeter meter);
    }

    /** The result a caller sends: the durable response and whether it was a replay. */
    public record Outcome(DurableResponse response, boolean replayed) {}

    private final IdempotencyStore store;
    private final Duration repairDelay;

    public IdempotentExecutor(IdempotencyStore store, Duration repairDelay) {
        this.store = store;
        this.repairDelay = repairDelay;
    }

    public IdempotencyStore store() {
        return store;
    }

    /**
     * {@link #execute} for a command given as its canonical map: the stored command JSON and the
     * fingerprint (over that JSON, tenant, operation and schema version) are derived here, once.
     */
    public Outcome execute(
            String tenant,
            String requestKey,
            String operation,
            int schemaVersion,
            Map<String, ?> canonical,
            String effectId,
            Effect effect,
            CapacityMeter meter) {
        String json = Fingerprint.canonicalJson(canonical);
        return execute(
                tenant,
                requestKey,
                operation,
                Fingerprint.ofCanonicalJson(json, tenant, operation, schemaVersion),
                json,
                effectId,
                effect,
                meter);
    }

    public Outcome execute(
            String tenant,
            String requestKey,
            String operation,
            String fingerprint,
            String commandJson,
            String effectId,
            Effect effect,
            CapacityMeter meter) {
        // unique, not secret: SecureRandom's shared lock and read of /dev/urandom stall admissions
        ThreadLocalRandom random = ThreadLocalRandom.current();
        String owner = new UUID(random.nextLong(), random.nextLong()).toString();
        Claim claim;
        try {
            claim =
                    store.claim(
                            tenant,
                            requestKey,
                            operation,
                            fingerprint,
                            owner,
                            commandJson,
                            effectId,
                            meter);
        } catch (IdempotencyStore.RecordExists e) {
            IdempotencyRecord ex = e.existing();
            if (owner.equals(ex.attemptOwner())
                    && ex.attempt() == 1
                    && ex.state() == RequestState.IN_PROGRESS) {
                // our own claim, applied by an attempt whose response was lost and then retried
                return runEffect(
                        new Claim(
                                tenant,
                                requestKey,
                                operation,
                                fingerprint,
                                owner,
                                1,
                                ex.leaseUntilMillis(),
                                commandJson,
                                effectId),
                        effect,
                        meter);
            }
            Object resolved = resolve(ex, fingerprint, owner, meter);
            if (resolved instanceof Outcome o) {
                return o;
            }
            claim = (Claim) resolved;
        }
        return runEffect(claim, effect, meter);
    }

    /** Applies the effect for an owned claim; used by the API path and by the repair worker. */
    public Outcome runEffect(Claim claim, Effect effect, CapacityMeter meter) {
        try {
            return new Outcome(effect.apply(claim, meter), false);
        } catch (ApiException rejection) {
            if (rejection.status() >= 500) {
                throw rejection;
            }
            DurableResponse response =
                    new DurableResponse(rejection.status(), ErrorBodies.json(rejection));
            if (store.completeAlone(claim, response, meter)) {
                return new Outcome(response, false);
            }
            return afterOwnershipLost(claim, meter);
        } catch (OwnershipLostException lost) {
            return afterOwnershipLost(claim, meter);
        } catch (RuntimeException e) {
            ErrorClass cls = DynamoDbErrorClassifier.classify(e);
            LOG.warn(
                    "effect of {} {} ended ambiguously ({}); handing it to repair",
                    claim.operation(),
                    claim.requestKey(),
                    cls,
                    e);
            boolean marked;
            try {
                marked =
                        store.markRepairRequired(
                                claim,
                                e.getClass().getSimpleName() + ": " + e.getMessage(),
                                repairDelay,
                                meter);
            } catch (RuntimeException markFailed) {
                // the claim's own IDX19 entry (due at lease expiry) still leads repair here
                marked = false;
            }
            throw new ApiException(
                    503,
                    e instanceof RetriesExhaustedException
                            ? "STORE_UNAVAILABLE"
                            : "OUTCOME_UNKNOWN",
                    "the outcome of this request is not yet known"
                            + (marked ? "; it is queued for repair" : "")
                            + "; retry with the same Idempotency-Key",
                    Map.of("Retry-After", Long.toString(Math.max(1, repairDelay.toSeconds()))));
        }
    }

    private Outcome afterOwnershipLost(Claim claim, CapacityMeter meter) {
        IdempotencyRecord now = store.read(claim.tenant(), claim.requestKey(), meter);
        if (now == null) {
            throw new ApiException(
                    503, "OUTCOME_UNKNOWN", "request record vanished; retry with the same key");
        }
        Object r = resolve(now, claim.fingerprint(), null, meter);
        if (r instanceof Outcome o) {
            return o;
        }
        // an expired lease of another owner: give retry guidance rather than racing again
        throw inProgress(1, false);
    }

    /** Returns an Outcome to send, a Claim now owned, or throws the 409 to send. */
    private Object resolve(
            IdempotencyRecord existing, String fingerprint, String owner, CapacityMeter meter) {
        IdempotencyRecord seen = existing;
        for (int round = 0; round < MAX_RESOLVE_ROUNDS; round++) {
            AdmissionDecision d =
                    AdmissionDecision.decide(seen, fingerprint, store.clock().millis());
            if (d instanceof AdmissionDecision.FingerprintMismatch) {
                throw ApiException.conflict(
                        "IDEMPOTENCY_KEY_REUSED",
                        "Idempotency-Key '"
                                + seen.requestKey()
                                + "' was already used for a different request");
            }
            if (d instanceof AdmissionDecision.Replay replay) {
                return new Outcome(replay.response(), true);
            }
            if (d instanceof AdmissionDecision.RetryLater later) {
                throw inProgress(later.retryAfterSeconds(), later.underRepair());
            }
            if (owner == null) {
                throw inProgress(1, false);
            }
            Claim taken = store.takeOver(seen, owner, meter);
            if (taken != null) {
                return taken;
            }
            seen = store.read(seen.tenant(), seen.requestKey(), meter);
            if (seen == null) {
                throw inProgress(1, false);
            }
        }
        throw inProgress(1, false);
    }

    private static ApiException inProgress(long retryAfterSeconds, boolean underRepair) {
        return new ApiException(
                409,
                underRepair ? "REQUEST_UNDER_REPAIR" : "REQUEST_IN_PROGRESS",
                underRepair
                        ? "this request is being repaired; retry later with the same key"
                        : "a request with this Idempotency-Key is in progress; retry later",
                Map.of("Retry-After", Long.toString(retryAfterSeconds)));
    }
}
