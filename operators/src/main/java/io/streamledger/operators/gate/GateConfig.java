package io.streamledger.operators.gate;

import java.io.Serializable;
import java.time.Duration;
import java.util.Objects;

/**
 * The gate's three limits (AP09 dedupe horizon, CS07 gap SLA, AP13 bounded parking) as a validated,
 * serializable value shipped inside the functions.
 */
public final class GateConfig implements Serializable {

    private static final long serialVersionUID = 1L;

    /** Above this a single key could hold an unbounded share of a task's heap. */
    public static final int MAX_PARKED_LIMIT = 1_000_000;

    /** Covers a full 24 h Streams/Kinesis retention replay plus a day of operator slack. */
    public static final Duration DEFAULT_DEDUPE_HORIZON = Duration.ofHours(48);

    /** A product choice: reconciliation hears of a stuck key within a minute. */
    public static final Duration DEFAULT_GAP_SLA = Duration.ofSeconds(60);

    public static final int DEFAULT_MAX_PARKED_PER_KEY = 1_000;

    private final Duration dedupeHorizon;
    private final Duration gapSla;
    private final int maxParkedPerKey;

    private GateConfig(Duration dedupeHorizon, Duration gapSla, int maxParkedPerKey) {
        this.dedupeHorizon = requirePositive("dedupeHorizon", dedupeHorizon);
        this.gapSla = requirePositive("gapSla", gapSla);
        if (maxParkedPerKey < 1 || maxParkedPerKey > MAX_PARKED_LIMIT) {
            throw new IllegalArgumentException(
                    "maxParkedPerKey must be in [1, "
                            + MAX_PARKED_LIMIT
                            + "], was "
                            + maxParkedPerKey);
        }
        this.maxParkedPerKey = maxParkedPerKey;
    }

    /**
     * @throws IllegalArgumentException if a duration is null, zero, negative or below a
     *     millisecond, or maxParkedPerKey is outside [1, {@value #MAX_PARKED_LIMIT}]
     */
    public static GateConfig of(Duration dedupeHorizon, Duration gapSla, int maxParkedPerKey) {
        return new GateConfig(dedupeHorizon, gapSla, maxParkedPerKey);
    }

    public static GateConfig defaults() {
        return of(DEFAULT_DEDUPE_HORIZON, DEFAULT_GAP_SLA, DEFAULT_MAX_PARKED_PER_KEY);
    }

    public GateConfig withDedupeHorizon(Duration horizon) {
        return of(horizon, gapSla, maxParkedPerKey);
    }

    public GateConfig withGapSla(Duration sla) {
        return of(dedupeHorizon, sla, maxParkedPerKey);
    }

    public GateConfig withMaxParkedPerKey(int max) {
        return of(dedupeHorizon, gapSla, max);
    }

    private static Duration requirePositive(String name, Duration d) {
        if (d == null) {
            throw new IllegalArgumentException(name + " must be set");
        }
        // timers and TTL work in whole milliseconds
        if (d.toMillis() < 1) {
            throw new IllegalArgumentException(name + " must be at least 1 ms, was " + d);
        }
        return d;
    }

    public Duration dedupeHorizon() {
        return dedupeHorizon;
    }

    public Duration gapSla() {
        return gapSla;
    }

    public long gapSlaMillis() {
        return gapSla.toMillis();
    }

    public int maxParkedPerKey() {
        return maxParkedPerKey;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof GateConfig)) {
            return false;
        }
        GateConfig that = (GateConfig) o;
        return maxParkedPerKey == that.maxParkedPerKey
                && dedupeHorizon.equals(that.dedupeHorizon)
                && gapSla.equals(that.gapSla);
    }

    @Override
    public int hashCode() {
        return Objects.hash(dedupeHorizon, gapSla, maxParkedPerKey);
    }

    @Override
    public String toString() {
        return "GateConfig{dedupeHorizon="
                + dedupeHorizon
                + ", gapSla="
                + gapSla
                + ", maxParkedPerKey="
                + maxParkedPerKey
                + '}';
    }
}
