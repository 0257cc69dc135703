package io.streamledger.stack.bench;

import io.streamledger.jobs.config.JobOptions;
import io.streamledger.jobs.source.ChangeSources;
import io.streamledger.jobs.source.RawChange;
import io.streamledger.local.kinesis.KinesisLocal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.sink.SinkFunction;
import software.amazon.awssdk.core.SdkBytes;

/**
 * What an idle Kinesis stream costs the jobs' source (connector 4.3.0 polls an empty shard in a
 * loop, FLINK-36947) with and without the reader's idle pause ({@code
 * streamledger.source.kinesis.idle-pause}), in one run: per pause, a fresh kinesis-local stream, a
 * job reading it into a discarding sink, CPU of this JVM and of the kinesis-local processes over an
 * idle window, then the latency of single records put into the idle stream.
 *
 * <p>Options ({@code key=value}): {@code shards} (8), {@code parallelism} (2), {@code seconds}
 * (20), {@code warmup} (10), {@code probes} (10), {@code pauses} (0,200 ms).
 */
public final class KinesisIdleBenchmark {
    static final ConcurrentHashMap<String, Long> SEEN_NANOS = new ConcurrentHashMap<>();

    public static void main(String[] args) throws Exception {
        Map<String, String> opts = BenchHost.options(args);
        int shards = Integer.parseInt(opts.getOrDefault("shards", "8"));
        int parallelism = Integer.parseInt(opts.getOrDefault("parallelism", "2"));
        int seconds = Integer.parseInt(opts.getOrDefault("seconds", "20"));
        int warmup = Integer.parseInt(opts.getOrDefault("warmup", "10"));
        int probes = Integer.parseInt(opts.getOrDefault("probes", "10"));
        List<Long> pauses =
                Arrays.stream(opts.getOrDefault("pauses", "0,200").split(","))
                        .map(Long::parseLong)
                        .toList();
        System.out.printf(
                "KinesisIdleBenchmark: %d shards, parallelism %d, %d s idle after %d s, %d probes%n",
                shards, parallelism, seconds, warmup, probes);
        List<String> rows = new ArrayList<>();
        for (long pause : pauses) {
            rows.add(phase(shards, parallelism, seconds, warmup, probes, pause));
        }
        System.out.println();
        System.out.println(
                "| idle pause | JVM CPU ms/s idle | kinesis-local CPU ms/s idle | probe latency p50 / max ms | load before → after |");
        System.out.println("|---|---|---|---|---|");
        rows.forEach(System.out::println);
    }

    private static String phase(
            int shards, int parallelism, int seconds, int warmup, int probes, long pauseMs)
            throws Exception {
        try (KinesisLocal kinesis = KinesisLocal.start()) {
            String stream = "idle-" + pauseMs;
            kinesis.createStream(stream, shards);
            Configuration conf = new Configuration();
            conf.set(JobOptions.TRANSPORT, JobOptions.TransportKind.KINESIS);
            conf.set(JobOptions.STREAM_ARN, KinesisLocal.streamArn(stream));
            conf.set(JobOptions.KINESIS_ENDPOINT, kinesis.endpoint().toString());
            conf.set(JobOptions.REGION, KinesisLocal.REGION);
            conf.set(JobOptions.CREDENTIALS, JobOptions.CredentialsKind.BASIC);
            conf.set(JobOptions.ACCESS_KEY_ID, KinesisLocal.ACCESS_KEY);
            conf.set(JobOptions.SECRET_ACCESS_KEY, KinesisLocal.SECRET_KEY);
            conf.set(JobOptions.KINESIS_IDLE_PAUSE, Duration.ofMillis(pauseMs));
            StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
            env.setParallelism(parallelism);
            ChangeSources.fromConfig(conf, "bench").open(env).addSink(new Seen()).name("seen");
            JobClient job = env.executeAsync("kinesis-idle-" + pauseMs);
            try {
                Thread.sleep(warmup * 1000L); // measuring idle time itself: the clock is the point
                String load = BenchHost.loadAverage();
                long jvm0 = BenchHost.ownCpuNanos();
                long kl0 = BenchHost.processTreeCpuMillis(kinesis.pid());
                Thread.sleep(seconds * 1000L);
                double jvmPerS = (BenchHost.ownCpuNanos() - jvm0) / 1e6 / seconds;
                double klPerS =
                        (BenchHost.processTreeCpuMillis(kinesis.pid()) - kl0) / (double) seconds;
                List<Long> latencies = new ArrayList<>();
                var client = kinesis.client();
                for (int i = 0; i < probes; i++) {
                    String key = "probe-" + pauseMs + "-" + i;
                    long t0 = System.nanoTime();
                    client.putRecord(
                            b ->
                                    b.streamName(stream)
                                            .partitionKey(key)
                                            .data(SdkBytes.fromUtf8String(key)));
                    while (!SEEN_NANOS.containsKey(key)) {
                        if (System.nanoTime() - t0 > 30_000_000_000L) {
                            throw new IllegalStateException(key + " not seen in 30 s");
                        }
                        Thread.sleep(1);
                    }
                    latencies.add((SEEN_NANOS.get(key) - t0) / 1_000_000);
                    Thread.sleep(1000); // back to idle between probes
                }
                latencies.sort(Long::compare);
                String row =
                        String.format(
                                "| %d ms | %.0f | %.0f | %d / %d | %s → %s |",
                                pauseMs,
                                jvmPerS,
                                klPerS,
                                latencies.get(latencies.size() / 2),
                                latencies.get(latencies.size() - 1),
                                load,
                                BenchHost.loadAverage());
                System.out.println(row);
                return row;
            } finally {
                job.cancel().get();
            }
        }
    }

    /** Marks each record's data (the probe key) with the time it reached the sink. */
    static final class Seen implements SinkFunction<RawChange> {
        @Override
        public void invoke(RawChange value, Context context) {
            SEEN_NANOS.putIfAbsent(
                    new String(value.getData(), java.nio.charset.StandardCharsets.UTF_8),
                    System.nanoTime());
        }
    }
}
