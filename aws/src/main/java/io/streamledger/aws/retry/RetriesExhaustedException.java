package io.streamledger.aws.retry;

/** A retryable failure persisted through every attempt; the outcome of the last one is unknown. */
public final class RetriesExhaustedException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public RetriesExhaustedException(int attempts, Throwable last) {
        super("DynamoDB call still failing after " + attempts + " attempts", last);
    }
}
