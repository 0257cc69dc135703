package io.streamledger.stack.bench;

import java.io.IOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedStackTrace;
import jdk.jfr.consumer.RecordedThread;
import jdk.jfr.consumer.RecordingFile;

/**
 * Summarizes a {@link FreshnessBenchmark} JFR recording (a main, not a test): execution samples per
 * thread group ({@code FreshnessBenchmark}'s naming rule), and for one group the top frames, the
 * inclusive share of each code area and the top allocation sites by sampled weight.
 *
 * <p>{@code java -cp <stack test classpath> io.streamledger.stack.bench.JfrTop x.jfr [group]
 * [top]}; group is a prefix of a group name ({@code jobs} by default).
 */
public final class JfrTop {

    /** Code areas, first matching class-name prefix wins (shaded connector code before Flink). */
    private static final List<String[]> AREAS =
            List.of(
                    new String[] {"org.apache.flink.kinesis.shaded.", "connector (shaded SDK v1)"},
                    new String[] {"software.amazon.awssdk.", "AWS SDK v2"},
                    new String[] {"io.netty.", "Netty (SDK v2 async client)"},
                    new String[] {"com.fasterxml.jackson.", "Jackson"},
                    new String[] {"com.esotericsoftware.kryo.", "Kryo"},
                    new String[] {"org.apache.flink.", "Flink"},
                    new String[] {"io.streamledger.local.", "local endpoint"},
                    new String[] {"io.streamledger.operators.gate.", "gate"},
                    new String[] {"io.streamledger.jobs.source.", "source parse (jobs)"},
                    new String[] {"io.streamledger.model.change.", "change model parse"},
                    new String[] {"io.streamledger.sinks.posting.", "posting sink"},
                    new String[] {"io.streamledger.sinks.", "other sinks"},
                    new String[] {"io.streamledger.aws.", "aws module"},
                    new String[] {"io.streamledger.", "streamledger (other)"},
                    new String[] {"org.apache.http.", "Apache HTTP client"},
                    new String[] {"sun.security.", "JDK crypto"},
                    new String[] {"java.util.zip.", "JDK zip/CRC"},
                    new String[] {"java.", "JDK"},
                    new String[] {"jdk.", "JDK"},
                    new String[] {"sun.", "JDK"});

    private JfrTop() {}

    public static void main(String[] args) throws IOException {
        Path file = Path.of(args[0]);
        String want = args.length > 1 ? args[1] : "jobs";
        int top = args.length > 2 ? Integer.parseInt(args[2]) : 25;
        Map<String, Long> samplesByGroup = new HashMap<>();
        Map<String, Long> self = new HashMap<>();
        Map<String, Long> inclusive = new HashMap<>();
        Map<String, Long> allocClass = new HashMap<>();
        Map<String, Long> allocSite = new HashMap<>();
        long samples = 0;
        long allocWeight = 0;
        for (RecordedEvent e : RecordingFile.readAllEvents(file)) {
            String type = e.getEventType().getName();
            if (type.equals("jdk.ExecutionSample")) {
                String group = group(e.getThread("sampledThread"));
                samplesByGroup.merge(group, 1L, Long::sum);
                if (!group.startsWith(want) || e.getStackTrace() == null) {
                    continue;
                }
                samples++;
                List<RecordedFrame> frames = e.getStackTrace().getFrames();
                if (!frames.isEmpty()) {
                    self.merge(method(frames.get(0)), 1L, Long::sum);
                }
                Set<String> seen = new LinkedHashSet<>();
                for (RecordedFrame f : frames) {
                    seen.add(area(f));
                }
                seen.forEach(a -> inclusive.merge(a, 1L, Long::sum));
            } else if (type.equals("jdk.ObjectAllocationSample")) {
                if (!group(e.getThread("eventThread")).startsWith(want)) {
                    continue;
                }
                long w = e.getLong("weight");
                allocWeight += w;
                allocClass.merge(e.getClass("objectClass").getName(), w, Long::sum);
                allocSite.merge(site(e.getStackTrace()), w, Long::sum);
            }
        }
        long all = samplesByGroup.values().stream().mapToLong(Long::longValue).sum();
        System.out.printf("%s: %,d execution samples%n", file, all);
        print("samples by thread group", samplesByGroup, all, top);
        print("top frames (self) of " + want, self, samples, top);
        print("inclusive share by code area of " + want, inclusive, samples, top);
        print("allocated bytes by class (sampled weight) of " + want, allocClass, allocWeight, top);
        print("allocation sites (first non-JDK frame) of " + want, allocSite, allocWeight, top);
    }

    private static String group(RecordedThread t) {
        String name = t == null || t.getJavaName() == null ? "?" : t.getJavaName();
        return FreshnessBenchmark.cpuGroup(name);
    }

    private static String method(RecordedFrame f) {
        return f.getMethod().getType().getName() + "." + f.getMethod().getName();
    }

    private static String area(RecordedFrame f) {
        String type = f.getMethod().getType().getName();
        for (String[] a : AREAS) {
            if (type.startsWith(a[0])) {
                return a[1];
            }
        }
        return "other";
    }

    /** The first frame outside the JDK: who allocated, not which collection grew. */
    private static String site(RecordedStackTrace st) {
        if (st == null || st.getFrames().isEmpty()) {
            return "?";
        }
        for (RecordedFrame f : st.getFrames()) {
            String type = f.getMethod().getType().getName();
            if (!type.startsWith("java.") && !type.startsWith("jdk.") && !type.startsWith("sun.")) {
                return method(f);
            }
        }
        return method(st.getFrames().get(0));
    }

    private static void print(String title, Map<String, Long> counts, long total, int top) {
        System.out.printf("%n%s (of %,d)%n", title, total);
        counts.entrySet().stream()
                .sorted(Map.Entry.<String, Long>comparingByValue().reversed())
                .limit(top)
                .forEach(
                        en ->
                                System.out.printf(
                                        "  %5.1f %%  %s%n",
                                        100.0 * en.getValue() / Math.max(1, total), en.getKey()));
    }
}
