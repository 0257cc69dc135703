package io.streamledger.operators.bench;

import io.streamledger.operators.gate.Gate;
import io.streamledger.operators.gate.GateConfig;
import io.streamledger.operators.gate.GateEvent;
import io.streamledger.operators.gate.GateState;
import io.streamledger.operators.gate.GateStreams;
import io.streamledger.operators.gate.SourceKeySelector;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import org.apache.flink.api.common.JobExecutionResult;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.functions.FlatMapFunction;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.sink2.SinkWriter;
import org.apache.flink.api.connector.source.lib.NumberSequenceSource;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.StateBackendOptions;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.util.Collector;

/**
 * Gate throughput (AP13/AP09) beside a pass-through job over the same in-memory source, on a
 * MiniCluster; prints events/s and the ratio. A benchmark, not a test.
 *
 * <p>Run: see operators/README.md. Arguments (all optional): {@code events=4000000 keys=100000
 * parallelism=1,2 backend=hashmap|rocksdb rocksdbTimers=ROCKSDB|HEAP}.
 */
public final class GateBenchmark {

    /** Keys are generated in blocks so one source split holds whole keys (per-key order). */
    static final int KEYS_PER_BLOCK = 1_000;

    /** Percent of adjacent version pairs delivered swapped (each parks one event briefly). */
    static final int SWAPPED_PAIR_PERCENT = 5;

    /** Percent of events delivered twice. */
    static final int DUPLICATE_PERCENT = 1;

    /** Where RocksDB keeps timers: ROCKSDB (Flink's default) or HEAP. */
    private static String rocksDbTimers = "ROCKSDB";

    /** Bloom filters make RocksDB reads of absent keys (every new eventId) cheap. */
    private static boolean rocksDbBloom;

    private GateBenchmark() {}

    public static void main(String[] args) throws Exception {
        Map<String, String> a = new LinkedHashMap<>();
        a.put("events", "4000000");
        a.put("keys", "100000");
        a.put("parallelism", "1,2");
        a.put("backend", "hashmap");
        a.put("rocksdbTimers", "ROCKSDB");
        a.put("rocksdbBloom", "false");
        for (String arg : args) {
            String[] kv = arg.split("=", 2);
            if (kv.length != 2 || !a.containsKey(kv[0])) {
                throw new IllegalArgumentException("unknown argument " + arg + "; known: " + a);
            }
            a.put(kv[0], kv[1]);
        }
        long events = Long.parseLong(a.get("events"));
        int keys = Integer.parseInt(a.get("keys"));
        String backend = a.get("backend");
        rocksDbTimers = a.get("rocksdbTimers");
        rocksDbBloom = Boolean.parseBoolean(a.get("rocksdbBloom"));
        int versions = (int) (events / keys);
        if (versions < 2 || keys % KEYS_PER_BLOCK != 0) {
            throw new IllegalArgumentException(
                    "need events >= 2*keys and keys a multiple of " + KEYS_PER_BLOCK);
        }
        long generated = (long) keys * versions;
        System.out.printf(
                Locale.ROOT,
                "gate benchmark: %,d events (%,d keys x %d versions, %d%% pairs swapped, %d%%"
                        + " duplicated), backend=%s, cores=%d%n",
                generated,
                keys,
                versions,
                SWAPPED_PAIR_PERCENT,
                DUPLICATE_PERCENT,
                backend,
                Runtime.getRuntime().availableProcessors());

        for (String p : a.get("parallelism").split(",")) {
            int parallelism = Integer.parseInt(p.trim());
            // warm-up: JIT and class loading, not measured
            run(false, keys / 10, versions, parallelism, backend);
            run(true, keys / 10, versions, parallelism, backend);

            Result pass = run(false, keys, versions, parallelism, backend);
            Result gate = run(true, keys, versions, parallelism, backend);
            System.out.printf(
                    Locale.ROOT,
                    "parallelism %d, wall clock: pass-through %,.0f ev/s (%.2f s) | gate %,.0f ev/s"
                            + " (%.2f s; %,d applied of %,d unique) | gate/pass %.2f%n",
                    parallelism,
                    pass.eventsPerSecond(),
                    pass.seconds,
                    gate.eventsPerSecond(),
                    gate.seconds,
                    gate.emitted,
                    generated,
                    gate.eventsPerSecond() / pass.eventsPerSecond());
            System.out.printf(
                    Locale.ROOT,
                    "parallelism %d, per CPU second: keyed stage pass-through %,.0f ev/s | gate"
                            + " %,.0f ev/s (gate/pass %.2f) | whole job pass-through %,.0f | gate"
                            + " %,.0f (gate/pass %.2f)%n",
                    parallelism,
                    pass.perStageCpuSecond(),
                    gate.perStageCpuSecond(),
                    gate.perStageCpuSecond() / pass.perStageCpuSecond(),
                    pass.perProcessCpuSecond(),
                    gate.perProcessCpuSecond(),
                    gate.perProcessCpuSecond() / pass.perProcessCpuSecond());
            if (gate.emitted != generated) {
                throw new IllegalStateException(
                        "gate applied " + gate.emitted + " but " + generated + " were unique");
            }
        }
    }

    /**
     * One measured run. The machine may be shared, so besides wall-clock rate it reports events per
     * CPU second: of the keyed stage's task threads (the per-core cost of the gate itself) and of
     * the whole process (source, network, runtime, GC included).
     */
    record Result(
            long input, long emitted, double seconds, long stageCpuNanos, long processCpuNanos) {
        double eventsPerSecond() {
            return input / seconds;
        }

        double perStageCpuSecond() {
            return input / (stageCpuNanos / 1e9);
        }

        double perProcessCpuSecond() {
            return input / (processCpuNanos / 1e9);
        }
    }

    private static Result run(
            boolean gated, int keys, int versions, int parallelism, String backend)
            throws Exception {
        Configuration conf = new Configuration();
        conf.set(StateBackendOptions.STATE_BACKEND, backend);
        conf.setString("state.backend.rocksdb.timer-service.factory", rocksDbTimers);
        conf.setString("state.backend.rocksdb.use-bloom-filter", String.valueOf(rocksDbBloom));
        StreamExecutionEnvironment env =
                StreamExecutionEnvironment.createLocalEnvironment(parallelism, conf);
        env.getConfig().disableGenericTypes();

        long n = (long) keys * versions;
        DataStream<GateEvent> events =
                env.fromSource(
                                new NumberSequenceSource(0, n - 1),
                                WatermarkStrategy.noWatermarks(),
                                "sequence")
                        .flatMap(new Generate(keys, versions), GateState.GATE_EVENT)
                        .name("generate");
        DataStream<GateEvent> out;
        if (gated) {
            GateStreams gate =
                    Gate.apply(
                            events,
                            GateConfig.of(Duration.ofHours(1), Duration.ofMinutes(5), 1_000));
            out = gate.applied();
        } else {
            out =
                    events.keyBy(new SourceKeySelector(), GateState.SOURCE_KEY)
                            .map(e -> e)
                            .returns(GateState.GATE_EVENT)
                            .name("pass-through");
        }
        CountingDiscard.COUNT.reset();
        out.sinkTo(new CountingDiscard()).name("discard");

        String stage = gated ? GateState.NEXT_VERSION_NAME : "pass-through";
        ThreadCpu cpu = ThreadCpu.start(stage);
        JobExecutionResult r;
        try {
            r = env.execute(gated ? "gate" : "pass-through");
        } finally {
            cpu.stop();
        }
        long input = n + n * DUPLICATE_PERCENT / 100;
        return new Result(
                input,
                CountingDiscard.COUNT.sum(),
                r.getNetRuntime() / 1000.0,
                cpu.stageNanos(),
                cpu.processNanos());
    }

    /** Sequence number to event: keys in blocks, versions in order, a few swaps and duplicates. */
    static final class Generate implements FlatMapFunction<Long, GateEvent> {

        private static final long serialVersionUID = 1L;

        private final int keys;
        private final int versions;

        Generate(int keys, int versions) {
            this.keys = keys;
            this.versions = versions;
        }

        @Override
        public void flatMap(Long seq, Collector<GateEvent> out) {
            long i = seq;
            long blockSize = (long) KEYS_PER_BLOCK * versions;
            long block = i / blockSize;
            long j = i % blockSize;
            long key = block * KEYS_PER_BLOCK + j % KEYS_PER_BLOCK;
            int slot = (int) (j / KEYS_PER_BLOCK);
            int partner = slot ^ 1;
            if (partner < versions && mix(key * 31 + slot / 2) % 100 < SWAPPED_PAIR_PERCENT) {
                slot = partner;
            }
            long version = slot + 1L;
            long now = System.currentTimeMillis();
            GateEvent e =
                    new GateEvent(
                            "ACCT#" + key,
                            version,
                            "e" + key + "-" + version,
                            now,
                            now,
                            "TradeExecuted",
                            "{}");
            out.collect(e);
            if (mix(i) % 100 < DUPLICATE_PERCENT) {
                out.collect(e);
            }
        }

        private static long mix(long x) {
            x = (x ^ (x >>> 33)) * 0xff51afd7ed558ccdL;
            x = (x ^ (x >>> 33)) * 0xc4ceb9fe1a85ec53L;
            return (x ^ (x >>> 33)) & Long.MAX_VALUE;
        }
    }

    /**
     * Samples the CPU time of the task threads whose name starts with a stage's name (Flink names a
     * task thread after its chain's first operator) and of the whole process.
     */
    static final class ThreadCpu implements Runnable {

        private static final long SAMPLE_MILLIS = 20;

        private final String prefix;
        private final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        private final com.sun.management.OperatingSystemMXBean os =
                (com.sun.management.OperatingSystemMXBean)
                        ManagementFactory.getOperatingSystemMXBean();
        private final Map<Long, Long> lastSeen = new ConcurrentHashMap<>();
        private final long processStart;
        private volatile long processEnd;
        private volatile boolean running = true;
        private final Thread sampler;

        private ThreadCpu(String prefix) {
            this.prefix = prefix;
            this.processStart = os.getProcessCpuTime();
            this.sampler = new Thread(this, "bench-cpu-sampler");
            sampler.setDaemon(true);
        }

        static ThreadCpu start(String prefix) {
            ThreadCpu t = new ThreadCpu(prefix);
            t.sampler.start();
            return t;
        }

        @Override
        public void run() {
            while (running) {
                sample();
                try {
                    Thread.sleep(SAMPLE_MILLIS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        }

        private void sample() {
            for (ThreadInfo info : threads.getThreadInfo(threads.getAllThreadIds())) {
                if (info != null && info.getThreadName().startsWith(prefix)) {
                    long cpu = threads.getThreadCpuTime(info.getThreadId());
                    if (cpu > 0) {
                        lastSeen.merge(info.getThreadId(), cpu, Math::max);
                    }
                }
            }
        }

        void stop() throws InterruptedException {
            running = false;
            sampler.join();
            processEnd = os.getProcessCpuTime();
        }

        /** Lower bound: up to one sample interval per thread is lost when it ends. */
        long stageNanos() {
            return lastSeen.values().stream().mapToLong(Long::longValue).sum();
        }

        long processNanos() {
            return processEnd - processStart;
        }
    }

    /** Discards records and counts them in this JVM (the MiniCluster runs in-process). */
    static final class CountingDiscard implements Sink<GateEvent> {

        private static final long serialVersionUID = 1L;
        static final LongAdder COUNT = new LongAdder();

        @Override
        @SuppressWarnings("deprecation")
        public SinkWriter<GateEvent> createWriter(InitContext context) {
            return new SinkWriter<>() {
                @Override
                public void write(GateEvent element, Context ctx) {
                    COUNT.increment();
                }

                @Override
                public void flush(boolean endOfInput) {}

                @Override
                public void close() {}
            };
        }
    }
}
