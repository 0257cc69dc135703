package io.streamledger.aws.retry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** Exponential backoff with jitter, capped, on the SDK backoff strategies (seed AP13 writes). */
class RetryPolicyTest {

    @Test
    void capDoublesPerAttemptUpToTheMaximum() {
        RetryPolicy b = RetryPolicy.halfJitter(5, Duration.ofMillis(50), Duration.ofMillis(1000));
        assertThat(b.capMillis(1)).isEqualTo(50);
        assertThat(b.capMillis(2)).isEqualTo(100);
        assertThat(b.capMillis(5)).isEqualTo(800);
        assertThat(b.capMillis(6)).isEqualTo(1000);
        assertThat(b.capMillis(500)).isEqualTo(1000);
    }

    @Test
    void delayIsJitteredBetweenHalfAndTheCap() {
        RetryPolicy b =
                RetryPolicy.halfJitter(5, Duration.ofMillis(100), Duration.ofMillis(100_000));
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
        assertThatThrownBy(() -> RetryPolicy.halfJitter(3, Duration.ZERO, Duration.ofMillis(10)))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(
                        () ->
                                RetryPolicy.halfJitter(
                                        3, Duration.ofMillis(10), Duration.ofMillis(5)))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void fullJitterStaysBelowTheCeilingAndZeroAttemptsAreRejected() {
        RetryPolicy b = RetryPolicy.fullJitter(5, Duration.ofMillis(10), Duration.ofMillis(400));
        for (int i = 0; i < 200; i++) {
            assertThat(b.delayMillis(3)).isBetween(0L, 40L);
        }
        assertThat(b.capMillis(10)).isEqualTo(400);
        assertThatThrownBy(
                        () -> RetryPolicy.fullJitter(0, Duration.ofMillis(1), Duration.ofMillis(1)))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
