package io.streamledger.command.bench;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedStackTrace;
import jdk.jfr.consumer.RecordedThread;
import jdk.jfr.consumer.RecordingFile;

/**
 * Summarises a JFR recording of the command service (a main, not a test; JDK 17 has no {@code jfr
 * view}): execution samples by thread group, top self frames, inclusive share of the libraries, top
 * inclusive project frames; allocation samples by weight per class and per allocating frame; GC
 * pauses. Only samples of threads whose name starts with the optional prefix count.
 *
 * <p>Args: {@code file.jfr [threadPrefix (JettyServerThreadPool)] [rows (25)] [under]}: with {@code
 * under} (a frame, e.g. {@code OrderService.place}) only the samples whose stack holds it count,
 * and the inclusive share of every frame below it is printed as well.
 */
public final class JfrTop {

    /** Library groups for the inclusive shares (first matching prefix wins). */
    private static final Map<String, String> GROUPS = new LinkedHashMap<>();

    static {
        GROUPS.put("software.amazon.awssdk.http.apache", "SDK Apache HTTP client");
        GROUPS.put("software.amazon.awssdk.thirdparty.org.apache", "SDK Apache HTTP client");
        GROUPS.put("org.apache.http", "SDK Apache HTTP client");
        GROUPS.put("software.amazon.awssdk.http.auth", "SDK signing (SigV4)");
        GROUPS.put("software.amazon.awssdk.protocols", "SDK JSON (un)marshalling");
        GROUPS.put("software.amazon.awssdk.core.internal.http", "SDK request pipeline");
        GROUPS.put("software.amazon.awssdk", "AWS SDK v2 (all)");
        GROUPS.put("io.streamledger.aws", "io.streamledger.aws");
        GROUPS.put("io.streamledger", "io.streamledger (all)");
        GROUPS.put("com.fasterxml.jackson", "Jackson");
        GROUPS.put("org.eclipse.jetty", "Jetty");
        GROUPS.put("io.javalin", "Javalin");
        GROUPS.put("io.micrometer", "Micrometer");
        GROUPS.put("io.prometheus", "Micrometer");
        GROUPS.put("org.apache.logging", "log4j");
        GROUPS.put("org.slf4j", "log4j");
        GROUPS.put("sun.security", "JDK security (SHA, MAC)");
        GROUPS.put("java.util.zip", "CRC32/zip");
    }

    public static void main(String[] args) throws Exception {
        Path file = Path.of(args[0]);
        String prefix = args.length > 1 ? args[1] : "JettyServerThreadPool";
        int rows = args.length > 2 ? Integer.parseInt(args[2]) : 25;
        String under = args.length > 3 ? args[3] : null;
        Map<String, Long> below = new HashMap<>();
        Map<String, Long> byThread = new HashMap<>();
        Map<String, Long> self = new HashMap<>();
        Map<String, Long> groups = new HashMap<>();
        Map<String, Long> ours = new HashMap<>();
        Map<String, Long> allocByClass = new HashMap<>();
        Map<String, Long> allocBySite = new HashMap<>();
        Map<String, Long> allocByThread = new HashMap<>();
        long samples = 0;
        long allocTotal = 0;
        long allSamples = 0;
        int gcs = 0;
        Duration pauses = Duration.ZERO;
        Duration longest = Duration.ZERO;
        try (RecordingFile rf = new RecordingFile(file)) {
            while (rf.hasMoreEvents()) {
                RecordedEvent e = rf.readEvent();
                String type = e.getEventType().getName();
                switch (type) {
                    case "jdk.ExecutionSample" -> {
                        allSamples++;
                        String t = threadName(e, "sampledThread");
                        byThread.merge(threadGroup(t), 1L, Long::sum);
                        if (!t.startsWith(prefix) || e.getStackTrace() == null) {
                            continue;
                        }
                        List<RecordedFrame> frames = e.getStackTrace().getFrames();
                        int at = under == null ? frames.size() : indexOf(frames, under);
                        if (frames.isEmpty() || at < 0) {
                            continue;
                        }
                        Set<String> seenBelow = new HashSet<>();
                        for (int i = 0; i < at; i++) {
                            seenBelow.add(frame(frames.get(i)));
                        }
                        seenBelow.forEach(b -> below.merge(b, 1L, Long::sum));
                        self.merge(frame(frames.get(0)), 1L, Long::sum);
                        Set<String> seenGroups = new HashSet<>();
                        Set<String> seenOurs = new HashSet<>();
                        for (RecordedFrame f : frames) {
                            String cls = f.getMethod().getType().getName();
                            for (Map.Entry<String, String> g : GROUPS.entrySet()) {
                                if (cls.startsWith(g.getKey())) {
                                    seenGroups.add(g.getValue());
                                }
                            }
                            if (cls.startsWith("software.amazon.awssdk")) {
                                seenGroups.add("AWS SDK v2 (all)");
                            }
                            if (cls.startsWith("io.streamledger")) {
                                seenGroups.add("io.streamledger (all)");
                                seenOurs.add(frame(f));
                            }
                        }
                        samples++;
                        seenGroups.forEach(g -> groups.merge(g, 1L, Long::sum));
                        seenOurs.forEach(o -> ours.merge(o, 1L, Long::sum));
                    }
                    case "jdk.ObjectAllocationSample" -> {
                        long w = e.getLong("weight");
                        String t = threadName(e, "eventThread");
                        allocByThread.merge(threadGroup(t), w, Long::sum);
                        if (!t.startsWith(prefix)) {
                            continue;
                        }
                        if (under != null
                                && (e.getStackTrace() == null
                                        || indexOf(e.getStackTrace().getFrames(), under) < 0)) {
                            continue;
                        }
                        allocTotal += w;
                        allocByClass.merge(e.getClass("objectClass").getName(), w, Long::sum);
                        allocBySite.merge(site(e.getStackTrace()), w, Long::sum);
                    }
                    case "jdk.GarbageCollection" -> {
                        gcs++;
                        Duration p = e.getDuration("sumOfPauses");
                        pauses = pauses.plus(p);
                        if (p.compareTo(longest) > 0) {
                            longest = p;
                        }
                    }
                    default -> {}
                }
            }
        }
        System.out.printf(
                Locale.ROOT,
                "execution samples: %d in all, %d on threads %s*%n",
                allSamples,
                samples,
                prefix);
        print("samples by thread group", byThread, allSamples, rows);
        print("top self frames (" + prefix + "*)", self, samples, rows);
        print("inclusive by library (" + prefix + "*)", groups, samples, rows);
        print("inclusive io.streamledger frames (" + prefix + "*)", ours, samples, rows);
        if (under != null) {
            print("inclusive frames below " + under, below, samples, rows * 3);
        }
        System.out.printf(
                Locale.ROOT, "%nallocation samples: %.1f MB on %s*%n", allocTotal / 1e6, prefix);
        print("allocation by thread group (bytes)", allocByThread, sum(allocByThread), rows);
        print("allocation by class (" + prefix + "*)", allocByClass, allocTotal, rows);
        print("allocation by site (" + prefix + "*)", allocBySite, allocTotal, rows);
        System.out.printf(
                Locale.ROOT,
                "%nGC: %d collections, pauses %.2f s in all, longest %.1f ms%n",
                gcs,
                pauses.toNanos() / 1e9,
                longest.toNanos() / 1e6);
    }

    private static int indexOf(List<RecordedFrame> frames, String frame) {
        for (int i = 0; i < frames.size(); i++) {
            if (frame(frames.get(i)).endsWith(frame)) {
                return i;
            }
        }
        return -1;
    }

    private static long sum(Map<String, Long> m) {
        return m.values().stream().mapToLong(Long::longValue).sum();
    }

    private static String threadName(RecordedEvent e, String field) {
        RecordedThread t = e.getThread(field);
        if (t == null) {
            return "?";
        }
        String n = t.getJavaName() != null ? t.getJavaName() : t.getOSName();
        return n == null ? "?" : n;
    }

    private static String threadGroup(String name) {
        return name.replaceAll("[-_ ]?\\d+$", "").replaceAll("-\\d+(-\\d+)*", "-N");
    }

    private static String frame(RecordedFrame f) {
        return f.getMethod().getType().getName() + "." + f.getMethod().getName();
    }

    /** The first frame outside java.*, jdk.* and sun.* (with the JDK frame it called). */
    private static String site(RecordedStackTrace st) {
        if (st == null || st.getFrames().isEmpty()) {
            return "?";
        }
        List<RecordedFrame> frames = st.getFrames();
        String top = frame(frames.get(0));
        for (RecordedFrame f : frames) {
            String cls = f.getMethod().getType().getName();
            if (!cls.startsWith("java.") && !cls.startsWith("jdk.") && !cls.startsWith("sun.")) {
                String s = frame(f);
                return s.equals(top) ? s : s + " <- " + top;
            }
        }
        return top;
    }

    private static void print(String title, Map<String, Long> m, long total, int rows) {
        System.out.printf(Locale.ROOT, "%n%s:%n", title);
        List<Map.Entry<String, Long>> l = new ArrayList<>(m.entrySet());
        l.sort(Map.Entry.<String, Long>comparingByValue().reversed());
        for (Map.Entry<String, Long> e : l.subList(0, Math.min(rows, l.size()))) {
            System.out.printf(
                    Locale.ROOT,
                    "  %5.1f %%  %s%n",
                    100.0 * e.getValue() / Math.max(1, total),
                    e.getKey());
        }
    }
}
