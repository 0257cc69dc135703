package io.streamledger.sinks.versioned;

import java.util.concurrent.atomic.DoubleAdder;
import java.util.concurrent.atomic.LongAdder;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.Gauge;
import org.apache.flink.metrics.MetricGroup;

/**
 * The versioned sink's metrics (seed CS06 "sink conditional failures", AMP04 write units per
 * event), thread-safe because SDK callback threads update them.
 */
public final class VersionedSinkMetrics {
    public static final String CONSUMED_WRITE_UNITS = "consumedWriteUnits";
    public static final String APPLIED_WRITES = "appliedWrites";
    public static final String STALE_WRITES = "staleWrites";
    public static final String COALESCED_WRITES = "coalescedWrites";
    public static final String RETRIES = "retries";
    public static final String FATAL_ERRORS = "fatalErrors";
    public static final String WRITE_UNITS_PER_EVENT = "writeUnitsPerEvent";
    public static final String WRITE_UNITS_PER_APPLIED_WRITE = "writeUnitsPerAppliedWrite";

    private final DoubleAdder units = new DoubleAdder();
    private final AdderCounter applied = new AdderCounter();
    private final AdderCounter stale = new AdderCounter();
    private final AdderCounter coalesced = new AdderCounter();
    private final AdderCounter retries = new AdderCounter();
    private final AdderCounter fatal = new AdderCounter();

    public VersionedSinkMetrics(MetricGroup group) {
        group.counter(CONSUMED_WRITE_UNITS, new UnitsCounter(units));
        group.counter(APPLIED_WRITES, applied);
        group.counter(STALE_WRITES, stale);
        group.counter(COALESCED_WRITES, coalesced);
        group.counter(RETRIES, retries);
        group.counter(FATAL_ERRORS, fatal);
        group.gauge(WRITE_UNITS_PER_EVENT, (Gauge<Double>) this::writeUnitsPerEvent);
        group.gauge(WRITE_UNITS_PER_APPLIED_WRITE, (Gauge<Double>) this::writeUnitsPerAppliedWrite);
    }

    void applied(double writeUnits) {
        applied.inc();
        units.add(writeUnits);
    }

    void stale() {
        stale.inc();
    }

    void coalesced(int n) {
        coalesced.inc(n);
    }

    void retries(int n) {
        retries.inc(n);
    }

    void fatal(int n) {
        fatal.inc(n);
    }

    public double consumedWriteUnits() {
        return units.sum();
    }

    public long appliedWrites() {
        return applied.getCount();
    }

    public long staleWrites() {
        return stale.getCount();
    }

    public long coalescedWrites() {
        return coalesced.getCount();
    }

    public long retries() {
        return retries.getCount();
    }

    public long fatalErrors() {
        return fatal.getCount();
    }

    /**
     * Reported write units per settled input event, where an event is settled once written,
     * superseded within a flush, or rejected as stale. Rejected conditional writes are billed by
     * DynamoDB but not reported in the error response, so they are not in the numerator.
     */
    public double writeUnitsPerEvent() {
        long events = applied.getCount() + stale.getCount() + coalesced.getCount();
        return events == 0 ? 0.0 : units.sum() / events;
    }

    public double writeUnitsPerAppliedWrite() {
        long n = applied.getCount();
        return n == 0 ? 0.0 : units.sum() / n;
    }

    /** A counter safe for concurrent increments (Flink's SimpleCounter is not). */
    private static final class AdderCounter implements Counter {
        private final LongAdder adder = new LongAdder();

        @Override
        public void inc() {
            adder.increment();
        }

        @Override
        public void inc(long n) {
            adder.add(n);
        }

        @Override
        public void dec() {
            adder.decrement();
        }

        @Override
        public void dec(long n) {
            adder.add(-n);
        }

        @Override
        public long getCount() {
            return adder.sum();
        }
    }

    /** Consumed units as a counter; write units are whole numbers, so rounding loses nothing. */
    private static final class UnitsCounter implements Counter {
        private final DoubleAdder units;

        UnitsCounter(DoubleAdder units) {
            this.units = units;
        }

        @Override
        public void inc() {
            units.add(1);
        }

        @Override
        public void inc(long n) {
            units.add(n);
        }

        @Override
        public void dec() {
            units.add(-1);
        }

        @Override
        public void dec(long n) {
            units.add(-n);
        }

        @Override
        public long getCount() {
            return Math.round(units.sum());
        }
    }
}
