package io.streamledger.command.schedule;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/**
 * The time-driven duties' metrics (DAY/GTD expiry, AP15 escalation, AP16 lease recovery, the duty
 * leases), registered once in the service's Micrometer registry; names in the aws README's metric
 * table.
 */
public final class DutyMetrics {

    public static final String EXPIRY_DUE = "streamledger_expiry_due";
    public static final String EXPIRY_EXPIRED = "streamledger_expiry_expired";
    public static final String EXPIRY_SKIPPED = "streamledger_expiry_skipped";
    public static final String EXPIRY_LAG = "streamledger_expiry_lag_seconds";
    public static final String ESCALATIONS = "streamledger_break_escalations";
    public static final String LEASES_RECOVERED = "streamledger_outbox_leases_recovered";
    public static final String LEASE_TAKEOVERS = "streamledger_duty_lease_takeovers";
    public static final String LEASES_HELD = "streamledger_duty_leases_held";

    /** Why a due entry was not expired by this instance. */
    public enum Skip {
        /** Another instance or a client expired it first (the AP08 record replayed). */
        ALREADY_EXPIRED,
        /** Filled or cancelled meanwhile: the eventual index had not caught up. */
        CLOSED,
        /** Not due on the service clock at the write (never, unless a clock stepped back). */
        NOT_DUE,
        /** The order is gone. */
        MISSING,
        /** Another attempt holds its request lease or the table throttled: next round. */
        BUSY
    }

    private final MeterRegistry registry;
    private final Counter due;
    private final Counter expired;
    private final Map<Skip, Counter> skipped = new ConcurrentHashMap<>();
    private final AtomicLong lagMillis = new AtomicLong();
    private final Counter escalations;
    private final Map<String, Counter> takeovers = new ConcurrentHashMap<>();

    public DutyMetrics(MeterRegistry registry) {
        this.registry = registry;
        this.due =
                Counter.builder(EXPIRY_DUE)
                        .description("DAY/GTD orders found due in the ORDER-EXPIRY queue")
                        .register(registry);
        this.expired =
                Counter.builder(EXPIRY_EXPIRED)
                        .description("orders this instance expired (holds released)")
                        .register(registry);
        for (Skip s : Skip.values()) {
            skipped.put(
                    s,
                    Counter.builder(EXPIRY_SKIPPED)
                            .tag("reason", s.name())
                            .description("due entries not expired by this instance")
                            .register(registry));
        }
        Gauge.builder(EXPIRY_LAG, lagMillis, v -> v.get() / 1000.0)
                .description("how far past its close and grace the oldest due order was")
                .register(registry);
        this.escalations =
                Counter.builder(ESCALATIONS)
                        .description("overdue AP15 breaks escalated on schedule")
                        .register(registry);
    }

    /** Metrics kept only in memory (tests, tools). */
    public static DutyMetrics inMemory() {
        return new DutyMetrics(new SimpleMeterRegistry());
    }

    void due() {
        due.increment();
    }

    void expired() {
        expired.increment();
    }

    void skipped(Skip why) {
        skipped.get(why).increment();
    }

    void lag(long millis) {
        lagMillis.set(Math.max(0, millis));
    }

    void escalated(int n) {
        escalations.increment(n);
    }

    void leaseTaken(String duty) {
        takeovers
                .computeIfAbsent(
                        duty,
                        d ->
                                Counter.builder(LEASE_TAKEOVERS)
                                        .tag("duty", d)
                                        .description("duty leases this instance took")
                                        .register(registry))
                .increment();
    }

    /** Leases of {@code duty} this instance holds, as a gauge. */
    void leasesHeld(String duty, Supplier<Number> count) {
        Gauge.builder(LEASES_HELD, count).tag("duty", duty).register(registry);
    }

    /** The relay's lease recoveries (AP16 step 4) as a counter. */
    public void outboxLeasesRecovered(Supplier<Long> recovered) {
        FunctionCounter.builder(LEASES_RECOVERED, recovered, s -> s.get().doubleValue())
                .description("IN_FLIGHT outbox events returned to READY after their lease")
                .register(registry);
    }

    /** The figures the run command's summary shows. */
    public Map<String, Number> snapshot() {
        Map<String, Number> m = new LinkedHashMap<>();
        m.put("expiryDue", (long) due.count());
        m.put("expired", (long) expired.count());
        long skips = 0;
        for (Counter c : skipped.values()) {
            skips += (long) c.count();
        }
        m.put("expirySkipped", skips);
        m.put("expiryLagSeconds", lagMillis.get() / 1000.0);
        m.put("escalations", (long) escalations.count());
        FunctionCounter recovered = registry.find(LEASES_RECOVERED).functionCounter();
        m.put("outboxLeasesRecovered", recovered == null ? 0L : (long) recovered.count());
        return m;
    }

    /** Skips of one reason so far. */
    public long skips(Skip why) {
        return (long) skipped.get(why).count();
    }
}
