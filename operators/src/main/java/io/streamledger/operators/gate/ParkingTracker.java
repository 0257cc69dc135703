package io.streamledger.operators.gate;

import java.util.TreeMap;

/**
 * Operator-wide totals behind the parked/open-gaps/oldest-gap gauges (CS07: gaps visible), kept
 * incrementally because keyed state cannot be summed cheaply; rebuilt from state after a restore.
 *
 * <p>Mutated only by the task thread; the metric reporter thread reads the volatile snapshots.
 */
public final class ParkingTracker {

    /** since-millis of each open gap, as a multiset, so the oldest is O(log n) to keep. */
    private final TreeMap<Long, Integer> openSince = new TreeMap<>();

    private volatile long parked;
    private volatile int openGaps;
    private volatile long oldestSinceMillis = Long.MAX_VALUE;

    void gapOpened(long sinceMillis) {
        openSince.merge(sinceMillis, 1, Integer::sum);
        openGaps = openGaps + 1;
        oldestSinceMillis = openSince.firstKey();
    }

    void gapClosed(long sinceMillis) {
        Integer n = openSince.get(sinceMillis);
        if (n == null) {
            throw new IllegalStateException("closing a gap the tracker never saw: " + sinceMillis);
        }
        if (n == 1) {
            openSince.remove(sinceMillis);
        } else {
            openSince.put(sinceMillis, n - 1);
        }
        openGaps = openGaps - 1;
        oldestSinceMillis = openSince.isEmpty() ? Long.MAX_VALUE : openSince.firstKey();
    }

    void parkedChanged(int delta) {
        parked = parked + delta;
    }

    /** Adds one restored key's gap (called once per key holding an {@link OpenGap}). */
    void restore(OpenGap gap) {
        gapOpened(gap.getSinceMillis());
        parkedChanged(gap.getParkedCount());
    }

    public long parked() {
        return parked;
    }

    public int openGaps() {
        return openGaps;
    }

    /** Age of the oldest open gap at {@code nowMillis}, 0 when none is open. */
    public long oldestGapAgeMillis(long nowMillis) {
        long since = oldestSinceMillis;
        return since == Long.MAX_VALUE ? 0L : Math.max(0L, nowMillis - since);
    }
}
