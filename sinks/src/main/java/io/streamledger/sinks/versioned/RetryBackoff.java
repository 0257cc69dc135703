package io.streamledger.sinks.versioned;

import java.util.concurrent.ThreadLocalRandom;

/**
 * Exponential backoff with equal jitter for retried writes (STYLE habit 8 retry; seed AP13 writes
 * under throttling): attempt n waits between half and all of min(max, base * 2^(n-1)).
 */
public final class RetryBackoff {
    private final long baseMillis;
    private final long maxMillis;

    public RetryBackoff(long baseMillis, long maxMillis) {
        if (baseMillis < 1 || maxMillis < baseMillis) {
            throw new IllegalArgumentException(
                    "need 1 <= base <= max, got base=" + baseMillis + " max=" + maxMillis);
        }
        this.baseMillis = baseMillis;
        this.maxMillis = maxMillis;
    }

    /** Upper bound of the wait before attempt {@code attempt} (1 = first retry). */
    public long capMillis(int attempt) {
        int shift = Math.max(0, Math.min(attempt - 1, 30));
        long cap = baseMillis << shift;
        return cap <= 0 || cap > maxMillis ? maxMillis : cap;
    }

    /** A jittered wait before attempt {@code attempt}, in [cap/2, cap]. */
    public long delayMillis(int attempt) {
        long cap = capMillis(attempt);
        long half = cap / 2;
        return half + ThreadLocalRandom.current().nextLong(cap - half + 1);
    }
}
