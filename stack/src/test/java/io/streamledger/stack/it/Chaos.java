package io.streamledger.stack.it;

import io.streamledger.jobs.source.RawChange;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.flink.api.common.functions.MapFunction;

/**
 * Injects job failures mid-stream: throws once when the JVM-wide count of records it has seen
 * reaches each threshold (the MiniCluster runs in the test JVM), so the job restarts from its last
 * checkpoint and replays.
 */
final class Chaos implements MapFunction<RawChange, RawChange> {
    private static final long serialVersionUID = 1L;

    private static final ConcurrentHashMap<String, AtomicLong> SEEN = new ConcurrentHashMap<>();

    /** "name@threshold" of every failure injected so far. */
    static final Set<String> FIRED = ConcurrentHashMap.newKeySet();

    private final String name;
    private final long[] thresholds;

    Chaos(String name, long... thresholds) {
        this.name = name;
        this.thresholds = thresholds;
    }

    static void reset() {
        SEEN.clear();
        FIRED.clear();
    }

    @Override
    public RawChange map(RawChange r) {
        long n = SEEN.computeIfAbsent(name, k -> new AtomicLong()).incrementAndGet();
        for (long t : thresholds) {
            if (n >= t && FIRED.add(name + "@" + t)) {
                throw new IllegalStateException("injected job failure at record " + n);
            }
        }
        return r;
    }
}
