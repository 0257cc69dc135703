package io.streamledger.model.lease;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * The one rule of every lease the product takes on its own clock (AP08 request leases, AP16 outbox
 * leases, the time-driven duties' leases): instances compare a stored expiry with their local
 * clock, and clocks differ. A lease of {@code ttl} is used by its holder only while {@code now <
 * until − maxClockSkew} and taken over only once {@code now ≥ until + maxClockSkew}: while no two
 * clocks differ by more than {@code maxClockSkew}, the holder has stopped before any other instance
 * may take over. The conditional writes still decide every effect; the margin keeps two holders
 * from doing the same work.
 *
 * @param ttl how long a lease lasts from the moment it is written
 * @param maxClockSkew the largest difference between two instances' clocks this tolerates
 */
public record LeaseTiming(Duration ttl, Duration maxClockSkew) {

    /**
     * Stated default skew: NTP-disciplined hosts are within milliseconds; two seconds of margin.
     */
    public static final Duration DEFAULT_MAX_CLOCK_SKEW = Duration.ofSeconds(2);

    public LeaseTiming {
        Objects.requireNonNull(ttl, "ttl");
        Objects.requireNonNull(maxClockSkew, "maxClockSkew");
        if (maxClockSkew.isNegative()) {
            throw new IllegalArgumentException("maxClockSkew must not be negative");
        }
        if (ttl.compareTo(maxClockSkew.multipliedBy(4)) <= 0) {
            throw new IllegalArgumentException(
                    "lease " + ttl + " must exceed four times the clock skew " + maxClockSkew);
        }
    }

    /** The expiry to store for a lease written at {@code now}. */
    public Instant until(Instant now) {
        return now.plus(ttl);
    }

    /** True while the holder of a lease ending at {@code until} may still start work. */
    public boolean holderMayAct(Instant now, Instant until) {
        return now.isBefore(until.minus(maxClockSkew));
    }

    /** True once another instance may take over a lease ending at {@code until}. */
    public boolean takeoverAllowed(Instant now, Instant until) {
        return !now.isBefore(until.plus(maxClockSkew));
    }

    /** The latest stored expiry another instance may take over at {@code now}. */
    public Instant expiredBy(Instant now) {
        return now.minus(maxClockSkew);
    }

    /** How often a holder renews: a third of the lease, so two renewals may fail before it ends. */
    public Duration renewEvery() {
        return ttl.dividedBy(3);
    }
}
