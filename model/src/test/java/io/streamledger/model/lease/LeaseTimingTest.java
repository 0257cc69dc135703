package io.streamledger.model.lease;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** A holder stops before anyone may take over, whenever the clocks differ by at most the skew. */
class LeaseTimingTest {

    final LeaseTiming timing = new LeaseTiming(Duration.ofSeconds(30), Duration.ofSeconds(2));
    final Instant written = Instant.parse("2026-12-01T10:00:00Z");
    final Instant until = timing.until(written);

    @Test
    void holderStopsSkewBeforeTheEndAndOthersWaitSkewAfterIt() {
        assertThat(until).isEqualTo(Instant.parse("2026-12-01T10:00:30Z"));
        assertThat(timing.holderMayAct(until.minusSeconds(3), until)).isTrue();
        assertThat(timing.holderMayAct(until.minusSeconds(2), until)).isFalse();
        assertThat(timing.takeoverAllowed(until.plusMillis(1999), until)).isFalse();
        assertThat(timing.takeoverAllowed(until.plusSeconds(2), until)).isTrue();
        assertThat(timing.expiredBy(until.plusSeconds(2))).isEqualTo(until);
        assertThat(timing.renewEvery()).isEqualTo(Duration.ofSeconds(10));
    }

    @Test
    void noRealInstantHasAHolderAndATakerWhenClocksDifferByAtMostTheSkew() {
        for (long offsetMs = -2000; offsetMs <= 2000; offsetMs += 250) {
            for (long t = 20_000; t <= 40_000; t += 50) {
                Instant real = written.plusMillis(t);
                Instant holderClock = real;
                Instant takerClock = real.plusMillis(offsetMs);
                assertThat(
                                timing.holderMayAct(holderClock, until)
                                        && timing.takeoverAllowed(takerClock, until))
                        .as("offset %d ms at +%d ms", offsetMs, t)
                        .isFalse();
            }
        }
    }

    @Test
    void aLeaseMustOutlastFourSkews() {
        assertThatThrownBy(() -> new LeaseTiming(Duration.ofSeconds(8), Duration.ofSeconds(2)))
                .hasMessageContaining("four times");
    }
}
