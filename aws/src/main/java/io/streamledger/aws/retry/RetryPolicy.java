package io.streamledger.aws.retry;

import io.streamledger.aws.error.DynamoDbErrorClassifier;
import java.time.Duration;
import software.amazon.awssdk.retries.StandardRetryStrategy;
import software.amazon.awssdk.retries.api.BackoffStrategy;

/**
 * The one bounded, jittered exponential backoff for DynamoDB retries, on the SDK's own {@link
 * BackoffStrategy} and {@link StandardRetryStrategy} (seed AP13 writes under throttling): retry
 * {@code n} (1 = the first retry) waits at most {@code min(cap, base * 2^(n-1))}.
 */
public final class RetryPolicy {

    /** How the wait is drawn below its ceiling. */
    public enum Jitter {
        /** Uniform in [0, ceiling]: spreads callers most (AWS "full jitter"). */
        FULL,
        /** Uniform in [ceiling/2, ceiling]: never retries almost at once. */
        HALF
    }

    /** Sleeps; replaceable in unit tests so they do not wait. */
    @FunctionalInterface
    public interface Sleeper {
        void sleep(long millis) throws InterruptedException;
    }

    private final int maxAttempts;
    private final Duration base;
    private final Duration cap;
    private final Jitter jitter;
    private final Sleeper sleeper;
    private final BackoffStrategy backoff;

    public RetryPolicy(
            int maxAttempts, Duration base, Duration cap, Jitter jitter, Sleeper sleeper) {
        if (maxAttempts < 1) {
            throw new IllegalArgumentException("maxAttempts must be >= 1");
        }
        if (base.toMillis() < 1 || cap.compareTo(base) < 0) {
            throw new IllegalArgumentException(
                    "need 1 ms <= base <= cap, got base=" + base + " cap=" + cap);
        }
        this.maxAttempts = maxAttempts;
        this.base = base;
        this.cap = cap;
        this.jitter = jitter;
        this.sleeper = sleeper;
        this.backoff =
                jitter == Jitter.FULL
                        ? BackoffStrategy.exponentialDelay(base, cap)
                        : BackoffStrategy.exponentialDelayHalfJitter(base, cap);
    }

    /** Full jitter, sleeping on the calling thread. */
    public static RetryPolicy fullJitter(int maxAttempts, Duration base, Duration cap) {
        return new RetryPolicy(maxAttempts, base, cap, Jitter.FULL, Thread::sleep);
    }

    /** Half jitter, sleeping on the calling thread (or only used for {@link #delayMillis}). */
    public static RetryPolicy halfJitter(int maxAttempts, Duration base, Duration cap) {
        return new RetryPolicy(maxAttempts, base, cap, Jitter.HALF, Thread::sleep);
    }

    /** The command service's calls: 6 attempts, first retry within 20 ms, at most 400 ms. */
    public static RetryPolicy defaults() {
        return fullJitter(6, Duration.ofMillis(20), Duration.ofMillis(400));
    }

    /** The same policy with another sleeper (tests). */
    public RetryPolicy withSleeper(Sleeper other) {
        return new RetryPolicy(maxAttempts, base, cap, jitter, other);
    }

    public int maxAttempts() {
        return maxAttempts;
    }

    /** The ceiling of the wait before retry {@code retry} (1 = first retry). */
    public long capMillis(int retry) {
        int shift = Math.max(0, Math.min(retry - 1, 30));
        long ceiling = base.toMillis() << shift;
        return ceiling <= 0 || ceiling > cap.toMillis() ? cap.toMillis() : ceiling;
    }

    /** A jittered wait before retry {@code retry} (1 = first retry), from the SDK strategy. */
    public long delayMillis(int retry) {
        // the SDK numbers attempts: attempt 1 is the first call, attempt 2 the first retry
        return backoff.computeDelay(Math.max(1, retry) + 1).toMillis();
    }

    /** Waits {@link #delayMillis} before retry {@code retry} on the calling thread. */
    public void pause(int retry) {
        sleep(delayMillis(retry));
    }

    void sleep(long millis) {
        try {
            sleeper.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while backing off", e);
        }
    }

    /**
     * The SDK strategy for a caller-level retry loop: retries what the classifier calls RETRYABLE,
     * up to {@link #maxAttempts}, with this backoff (also for throttles), no circuit breaker so the
     * bound is exactly the attempt count.
     */
    public StandardRetryStrategy strategy() {
        return StandardRetryStrategy.builder()
                .maxAttempts(maxAttempts)
                .retryOnException(DynamoDbErrorClassifier::isRetryable)
                .backoffStrategy(backoff)
                .throttlingBackoffStrategy(backoff)
                .circuitBreakerEnabled(false)
                .build();
    }

    @Override
    public String toString() {
        return "RetryPolicy{maxAttempts="
                + maxAttempts
                + ", base="
                + base
                + ", cap="
                + cap
                + ", jitter="
                + jitter
                + "}";
    }
}
