package io.streamledger.command.dynamo;

import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;

/** Bounded, full-jitter exponential backoff for retryable DynamoDB failures (STYLE 8, 9). */
public final class RetryPolicy {

    /** Sleeps; replaceable in unit tests so they do not wait. */
    @FunctionalInterface
    public interface Sleeper {
        void sleep(long millis) throws InterruptedException;
    }

    private final int maxAttempts;
    private final long baseMillis;
    private final long capMillis;
    private final Sleeper sleeper;

    public RetryPolicy(int maxAttempts, Duration base, Duration cap, Sleeper sleeper) {
        if (maxAttempts < 1) {
            throw new IllegalArgumentException("maxAttempts must be >= 1");
        }
        this.maxAttempts = maxAttempts;
        this.baseMillis = base.toMillis();
        this.capMillis = cap.toMillis();
        this.sleeper = sleeper;
    }

    public static RetryPolicy defaults() {
        return new RetryPolicy(6, Duration.ofMillis(10), Duration.ofMillis(400), Thread::sleep);
    }

    public int maxAttempts() {
        return maxAttempts;
    }

    /** Full jitter: uniform in [0, min(cap, base * 2^attempt)]. */
    public long backoffMillis(int attempt) {
        long ceiling = Math.min(capMillis, baseMillis << Math.min(attempt, 20));
        return ThreadLocalRandom.current().nextLong(ceiling + 1);
    }

    public void pause(int attempt) {
        try {
            sleeper.sleep(backoffMillis(attempt));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while backing off", e);
        }
    }
}
