package io.streamledger.sinks.versioned;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** Exponential backoff with jitter, capped (STYLE habit 8/9: retries with limits). */
class RetryBackoffTest {

    @Test
    void capDoublesPerAttemptUpToTheMaximum() {
        RetryBackoff b = new RetryBackoff(50, 1000);
        assertThat(b.capMillis(1)).isEqualTo(50);
        assertThat(b.capMillis(2)).isEqualTo(100);
        assertThat(b.capMillis(5)).isEqualTo(800);
        assertThat(b.capMillis(6)).isEqualTo(1000);
        assertThat(b.capMillis(500)).isEqualTo(1000);
    }

    @Test
    void delayIsJitteredBetweenHalfAndTheCap() {
        RetryBackoff b = new RetryBackoff(100, 100_000);
        java.util.Set<Long> seen = new java.util.HashSet<>();
        for (int i = 0; i < 200; i++) {
            long d = b.delayMillis(4);
            assertThat(d).isBetween(400L, 800L);
            seen.add(d);
        }
        assertThat(seen).as("jitter spreads the delays").hasSizeGreaterThan(10);
    }

    @Test
    void invalidBoundsAreRejected() {
        assertThatThrownBy(() -> new RetryBackoff(0, 10))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new RetryBackoff(10, 5))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
