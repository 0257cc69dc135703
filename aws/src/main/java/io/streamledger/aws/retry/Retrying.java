package io.streamledger.aws.retry;

import io.streamledger.aws.error.DynamoDbErrorClassifier;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Supplier;
import software.amazon.awssdk.retries.StandardRetryStrategy;
import software.amazon.awssdk.retries.api.AcquireInitialTokenRequest;
import software.amazon.awssdk.retries.api.RecordSuccessRequest;
import software.amazon.awssdk.retries.api.RefreshRetryTokenRequest;
import software.amazon.awssdk.retries.api.RefreshRetryTokenResponse;
import software.amazon.awssdk.retries.api.RetryToken;
import software.amazon.awssdk.retries.api.TokenAcquisitionFailedException;

/**
 * Runs one blocking DynamoDB call under the SDK retry strategy of a {@link RetryPolicy}: only
 * RETRYABLE failures are repeated, everything else is rethrown at once for the caller to interpret
 * (seed CS06). Retries and exhausted calls are counted.
 */
public final class Retrying {

    private static final String SCOPE = "dynamodb";

    private final RetryPolicy policy;
    private final StandardRetryStrategy strategy;
    private final LongAdder retries = new LongAdder();
    private final LongAdder exhausted = new LongAdder();

    public Retrying(RetryPolicy policy) {
        this.policy = policy;
        this.strategy = policy.strategy();
    }

    public RetryPolicy policy() {
        return policy;
    }

    public <T> T call(Supplier<T> call) {
        RuntimeException failure;
        try {
            // the first attempt takes no token: with the breaker off (RetryPolicy) acquiring one
            // decides nothing, and the token store's LRU lock is shared by every calling thread
            return call.get();
        } catch (RuntimeException e) {
            if (!DynamoDbErrorClassifier.isRetryable(e)) {
                throw e;
            }
            failure = e;
        }
        RetryToken token =
                strategy.acquireInitialToken(AcquireInitialTokenRequest.create(SCOPE)).token();
        for (int attempt = 1; ; attempt++) {
            RefreshRetryTokenResponse next;
            try {
                next =
                        strategy.refreshRetryToken(
                                RefreshRetryTokenRequest.builder()
                                        .token(token)
                                        .failure(failure)
                                        .build());
            } catch (TokenAcquisitionFailedException noMore) {
                exhausted.increment();
                throw new RetriesExhaustedException(attempt, failure);
            }
            retries.increment();
            policy.sleep(next.delay().toMillis());
            token = next.token();
            try {
                T result = call.get();
                strategy.recordSuccess(RecordSuccessRequest.create(token));
                return result;
            } catch (RuntimeException e) {
                if (!DynamoDbErrorClassifier.isRetryable(e)) {
                    throw e;
                }
                failure = e;
            }
        }
    }

    public long retries() {
        return retries.sum();
    }

    public long exhausted() {
        return exhausted.sum();
    }
}
