package io.streamledger.aws.error;

/**
 * The one rule for what a job does with a record it cannot apply (seed CS06/CS08): a business
 * rejection is set aside as a rejected record and an AP15 break; a {@link ErrorClass#RETRYABLE}
 * failure (or an unexpected condition) still failing after the record's retry budget is
 * quarantined; a {@link ErrorClass#FATAL} failure of the job's own request (validation, missing
 * table, credentials) fails the job, as does any failure to write the dead letter itself — so an
 * endpoint that stays down longer than the bounded retry window stops the job instead of
 * quarantining everything. The {@link DynamoDbErrorClassifier} decides the classes.
 */
public final class RecordFailurePolicy {

    /** What happens to the record. */
    public enum Action {
        /** Dead letter with its business reason + break; the job goes on. */
        REJECT,
        /** Dead letter QUARANTINED with the error and attempts; the job goes on. */
        QUARANTINE,
        /** The job fails and restarts from its checkpoint (infrastructure). */
        FAIL
    }

    private RecordFailurePolicy() {}

    /** A business rejection of the record itself: never retried, never a restart. */
    public static Action onRejection() {
        return Action.REJECT;
    }

    /**
     * @param last class of the record's last failure, once its retry budget is spent (or at once
     *     for a fatal one)
     */
    public static Action afterRetries(ErrorClass last) {
        return last == ErrorClass.FATAL ? Action.FAIL : Action.QUARANTINE;
    }

    /** {@link #afterRetries(ErrorClass)} of a failure as the classifier sees it. */
    public static Action afterRetries(Throwable last) {
        return afterRetries(DynamoDbErrorClassifier.classify(last));
    }

    /** The dead-letter write of a rejected or quarantined record failed: infrastructure. */
    public static Action onDeadLetterFailure() {
        return Action.FAIL;
    }
}
