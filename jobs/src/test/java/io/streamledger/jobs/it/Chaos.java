package io.streamledger.jobs.it;

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

    static final AtomicLong SEEN = new AtomicLong();
    static final Set<Long> FIRED = ConcurrentHashMap.newKeySet();

    private final long[] thresholds;

    Chaos(long... thresholds) {
        this.thresholds = thresholds;
    }

    static void reset() {
        SEEN.set(0);
        FIRED.clear();
    }

    @Override
    public RawChange map(RawChange r) {
        long n = SEEN.incrementAndGet();
        for (long t : thresholds) {
            if (n >= t && FIRED.add(t)) {
                throw new IllegalStateException("injected job failure at record " + n);
            }
        }
        return r;
    }
}
