package io.streamledger.stack.bench;

import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** What the benchmark mains read from their host: options, load average, process CPU. */
final class BenchHost {
    private BenchHost() {}

    /** {@code key=value} arguments. */
    static Map<String, String> options(String[] args) {
        Map<String, String> opts = new HashMap<>();
        for (String a : args) {
            String[] kv = a.split("=", 2);
            if (kv.length != 2) {
                throw new IllegalArgumentException("expected key=value, got '" + a + "'");
            }
            opts.put(kv[0], kv[1]);
        }
        return opts;
    }

    /** {@code /proc/loadavg}'s 1/5/15-minute figures ("?" where there is none). */
    static String loadAverage() {
        try {
            String[] f = Files.readString(Path.of("/proc/loadavg")).split(" ");
            return f[0] + " " + f[1] + " " + f[2];
        } catch (java.io.IOException | RuntimeException e) {
            return "?";
        }
    }

    /** CPU time of this JVM, all threads, in ns. */
    static long ownCpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean)
                        ManagementFactory.getOperatingSystemMXBean())
                .getProcessCpuTime();
    }

    /**
     * utime + stime of a process and its descendants in ms (Linux /proc; kinesis-local runs under
     * npx/node).
     */
    static long processTreeCpuMillis(long pid) throws java.io.IOException {
        List<Long> pids = new ArrayList<>();
        pids.add(pid);
        ProcessHandle.of(pid).ifPresent(h -> h.descendants().forEach(d -> pids.add(d.pid())));
        long ticks = 0;
        for (long p : pids) {
            Path stat = Path.of("/proc/" + p + "/stat");
            if (!Files.exists(stat)) {
                continue;
            }
            String s = Files.readString(stat);
            String[] f = s.substring(s.lastIndexOf(')') + 2).split(" ");
            ticks += Long.parseLong(f[11]) + Long.parseLong(f[12]);
        }
        return ticks * 10; // USER_HZ = 100 on Linux
    }
}
