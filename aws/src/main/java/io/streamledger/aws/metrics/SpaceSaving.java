package io.streamledger.aws.metrics;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Bounded top-N heavy-hitter sketch (Metwally et al. space-saving) over partition keys, for the
 * seed's max-key share of LOAD_TEST_REQUIRED lanes: at most {@code capacity} keys are kept; a new
 * key evicts the smallest and inherits its count as overestimate, so any key with a true count
 * above total/capacity is kept and counts are never underestimated. Thread-safe.
 */
public final class SpaceSaving {

    /** One kept key: estimated count and its maximum overestimate. */
    public record Entry(String key, long count, long error) {}

    private final int capacity;
    private final Map<String, long[]> counters = new HashMap<>();
    private long total;

    public SpaceSaving(int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity must be >= 1, got " + capacity);
        }
        this.capacity = capacity;
    }

    public synchronized void offer(String key) {
        total++;
        long[] c = counters.get(key);
        if (c != null) {
            c[0]++;
            return;
        }
        if (counters.size() < capacity) {
            counters.put(key, new long[] {1, 0});
            return;
        }
        // linear scan: capacity is small (tens), an offer is rarer than the call it observes
        String minKey = null;
        long min = Long.MAX_VALUE;
        for (Map.Entry<String, long[]> e : counters.entrySet()) {
            if (e.getValue()[0] < min) {
                min = e.getValue()[0];
                minKey = e.getKey();
            }
        }
        counters.remove(minKey);
        counters.put(key, new long[] {min + 1, min});
    }

    /** Kept keys, busiest first (ties by key). */
    public synchronized List<Entry> top() {
        List<Entry> out = new ArrayList<>(counters.size());
        counters.forEach((k, c) -> out.add(new Entry(k, c[0], c[1])));
        out.sort(Comparator.comparingLong(Entry::count).reversed().thenComparing(Entry::key));
        return out;
    }

    /** Count estimate of the {@code rank}-th busiest key (1 = busiest), 0 when fewer are kept. */
    public long countAt(int rank) {
        List<Entry> top = top();
        return rank >= 1 && rank <= top.size() ? top.get(rank - 1).count() : 0;
    }

    public synchronized long total() {
        return total;
    }

    /** Busiest key's estimated share of all offers (an upper bound), 0 before any offer. */
    public synchronized double maxShare() {
        if (total == 0) {
            return 0.0;
        }
        long max = 0;
        for (long[] c : counters.values()) {
            max = Math.max(max, c[0]);
        }
        return (double) max / total;
    }

    public int capacity() {
        return capacity;
    }
}
