package io.streamledger.stack.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Function;

/**
 * CPU time of the live threads grouped by a naming rule, between two snapshots: which part of a
 * one-JVM benchmark (local endpoint, drivers, the jobs) spent the CPU. Threads that end between the
 * snapshots are missing from the groups; GC and JIT threads are not Java threads here — the caller
 * reports what the groups do not explain (process CPU minus their sum) separately.
 */
final class ThreadCpu {

    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    private final Function<String, String> group;
    private final Map<Long, Long> start = new LinkedHashMap<>();

    /** Snapshot now; {@code group} maps a thread name to its group label. */
    ThreadCpu(Function<String, String> group) {
        this.group = group;
        for (long id : THREADS.getAllThreadIds()) {
            long t = THREADS.getThreadCpuTime(id);
            if (t >= 0) {
                start.put(id, t);
            }
        }
    }

    /** CPU nanoseconds per group since the snapshot (threads born since count from zero). */
    Map<String, Long> sinceStart() {
        Map<String, Long> out = new LinkedHashMap<>();
        for (var info : THREADS.getThreadInfo(THREADS.getAllThreadIds())) {
            if (info == null) {
                continue;
            }
            long now = THREADS.getThreadCpuTime(info.getThreadId());
            if (now < 0) {
                continue;
            }
            long used = now - start.getOrDefault(info.getThreadId(), 0L);
            out.merge(group.apply(info.getThreadName()), used, Long::sum);
        }
        return out;
    }
}
