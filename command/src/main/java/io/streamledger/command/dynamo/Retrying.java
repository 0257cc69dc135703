package io.streamledger.command.dynamo;

import java.util.concurrent.atomic.LongAdder;
import java.util.function.Supplier;

/**
 * Runs one DynamoDB call with bounded retries of RETRYABLE failures only; everything else is
 * rethrown at once for the caller to interpret (STYLE 8). Retries are counted.
 */
public final class Retrying {

    private final RetryPolicy policy;
    private final LongAdder retries = new LongAdder();
    private final LongAdder exhausted = new LongAdder();

    public Retrying(RetryPolicy policy) {
        this.policy = policy;
    }

    public <T> T call(Supplier<T> call) {
        RuntimeException last = null;
        for (int attempt = 0; attempt < policy.maxAttempts(); attempt++) {
            if (attempt > 0) {
                retries.increment();
                policy.pause(attempt);
            }
            try {
                return call.get();
            } catch (RuntimeException e) {
                if (ErrorClassifier.classify(e) != ErrorClass.RETRYABLE) {
                    throw e;
                }
                last = e;
            }
        }
        exhausted.increment();
        throw new RetriesExhaustedException(policy.maxAttempts(), last);
    }

    public long retries() {
        return retries.sum();
    }

    public long exhausted() {
        return exhausted.sum();
    }
}
