package io.streamledger.command.dynamo;

/** A retryable failure persisted through every attempt; the outcome of the last one is unknown. */
public final class RetriesExhaustedException extends RuntimeException {
    public RetriesExhaustedException(int attempts, Throwable last) {
        super("DynamoDB call still failing after " + attempts + " attempts", last);
    }
}
