package io.streamledger.command.testing;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicReference;

/** A clock tests move forward explicitly, to expire AP08/AP16 leases without sleeping. */
public final class MutableClock extends Clock {
    private final AtomicReference<Instant> now;

    public MutableClock(Instant start) {
        this.now = new AtomicReference<>(start);
    }

    public static MutableClock startingNow() {
        return new MutableClock(Instant.now());
    }

    public void advance(Duration d) {
        now.updateAndGet(i -> i.plus(d));
    }

    /** Moves the clock forward to {@code to}; never back. */
    public void advanceTo(Instant to) {
        now.updateAndGet(
                i -> {
                    if (to.isBefore(i)) {
                        throw new IllegalArgumentException("clock at " + i + " cannot go to " + to);
                    }
                    return to;
                });
    }

    @Override
    public ZoneId getZone() {
        return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
        return this;
    }

    @Override
    public Instant instant() {
        return now.get();
    }
}
