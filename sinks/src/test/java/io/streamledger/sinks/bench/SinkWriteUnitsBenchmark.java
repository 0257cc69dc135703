package io.streamledger.sinks.bench;

import io.streamledger.aws.client.DynamoDbClientConfig;
import io.streamledger.aws.error.DynamoDbErrorClassifier;
import io.streamledger.aws.error.ErrorClass;
import io.streamledger.local.LocalEndpoint;
import io.streamledger.sinks.it.PortfolioTable;
import io.streamledger.sinks.it.PositionEvent;
import io.streamledger.sinks.it.PositionEventConverter;
import io.streamledger.sinks.versioned.ItemRequestFactory;
import io.streamledger.sinks.versioned.VersionedDynamoDbSink;
import io.streamledger.sinks.versioned.VersionedSinkMetrics;
import io.streamledger.sinks.versioned.WriteGuard;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.DoubleAdder;
import java.util.concurrent.atomic.LongAdder;
import org.apache.flink.api.common.JobExecutionResult;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.connector.source.util.ratelimit.RateLimiterStrategy;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.connector.datagen.source.GeneratorFunction;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.Metric;
import org.apache.flink.runtime.testutils.InMemoryReporter;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.ReturnConsumedCapacity;

/**
 * Benchmark (not a test) of write units per event under Zipf-skewed keys (seed AMP04, AP07 goal ≤
 * 0.3× naive): the versioned sink vs a naive conditional UpdateItem per event, both against the
 * project's local endpoint, which reports ConsumedCapacity by DynamoDB's rounding rules.
 *
 * <p>Args: [events=100000] [keys=10000] [s=1.1] [batch sizes, comma separated=100,1000,5000].
 * Rejected conditional writes are billed by DynamoDB (≥ 1 WCU) but not reported in the error, so
 * both sides also print a billed estimate counting each rejection as 1 unit.
 */
public final class SinkWriteUnitsBenchmark {
    /** Concurrent naive calls (each item's calls stay in order). */
    private static final int NAIVE_CONCURRENCY = 64;

    private SinkWriteUnitsBenchmark() {}

    public static void main(String[] args) throws Exception {
        int events = args.length > 0 ? Integer.parseInt(args[0]) : 100_000;
        int keys = args.length > 1 ? Integer.parseInt(args[1]) : 10_000;
        double s = args.length > 2 ? Double.parseDouble(args[2]) : 1.1;
        String batches = args.length > 3 ? args[3] : "100,1000,5000";

        List<PositionEvent> stream = zipfStream(events, keys, s, 42);
        long distinct = stream.stream().map(e -> e.symbol).distinct().count();
        System.out.printf(
                Locale.ROOT,
                "events=%d keys=%d (touched %d) zipf s=%.2f; versions ascend per key%n",
                events,
                keys,
                distinct,
                s);

        try (LocalEndpoint endpoint = LocalEndpoint.builder().port(0).build().start()) {
            DynamoDbClientConfig config =
                    DynamoDbClientConfig.local(endpoint.endpoint().toString());
            try (DynamoDbClient admin = config.buildSyncClient()) {
                Result naive = runNaive(admin, config, stream);
                System.out.println(naive.line("naive per-event conditional UpdateItem", events));
                for (String b : batches.split(",")) {
                    int batch = Integer.parseInt(b.trim());
                    Result sink = runSink(admin, config, stream, batch);
                    System.out.println(sink.line("versioned sink maxBatchSize=" + batch, events));
                    System.out.printf(
                            Locale.ROOT,
                            "  ratio sink/naive: reported %.3f, billed estimate %.3f (goal <= 0.3)%n",
                            sink.units / naive.units,
                            sink.billed() / naive.billed());
                }
            }
        }
    }

    /** Positions SYMk for Zipf-drawn k, each key's versions ascending in stream order. */
    static List<PositionEvent> zipfStream(int events, int keys, double s, long seed) {
        ZipfKeys zipf = new ZipfKeys(keys, s, seed);
        Map<Integer, Long> versions = new HashMap<>();
        List<PositionEvent> out = new ArrayList<>(events);
        for (int i = 0; i < events; i++) {
            int k = zipf.next();
            long v = versions.merge(k, 1L, Long::sum);
            out.add(new PositionEvent("acct" + (k % 97), "SYM" + k, v));
        }
        return out;
    }

    private static Result runNaive(
            DynamoDbClient admin, DynamoDbClientConfig config, List<PositionEvent> stream)
            throws Exception {
        PortfolioTable table = PortfolioTable.create(admin, table("naive"));
        PositionEventConverter converter = new PositionEventConverter(table.name());
        ItemRequestFactory requests =
                new ItemRequestFactory(WriteGuard.versionGuard(), ReturnConsumedCapacity.TOTAL);
        DoubleAdder units = new DoubleAdder();
        LongAdder rejected = new LongAdder();
        List<Throwable> failures = new CopyOnWriteArrayList<>();
        Semaphore permits = new Semaphore(NAIVE_CONCURRENCY);
        Map<String, CompletableFuture<Void>> tails = new HashMap<>();
        long start = System.nanoTime();
        try (DynamoDbAsyncClient client = config.buildAsyncClient(NAIVE_CONCURRENCY)) {
            for (PositionEvent e : stream) {
                permits.acquire();
                String item = e.pk() + "|" + e.sk();
                // chain per item: one call per event, each item's calls in version order
                CompletableFuture<Void> tail =
                        tails.getOrDefault(item, CompletableFuture.completedFuture(null))
                                .thenCompose(
                                        x ->
                                                client.updateItem(
                                                        requests.updateItem(
                                                                converter.apply(e, null))))
                                .handle(
                                        (r, err) -> {
                                            if (err == null) {
                                                units.add(r.consumedCapacity().capacityUnits());
                                            } else if (DynamoDbErrorClassifier.classify(err)
                                                    == ErrorClass.CONDITION_FAILED) {
                                                rejected.increment();
                                            } else {
                                                failures.add(err);
                                            }
                                            permits.release();
                                            return null;
                                        });
                tails.put(item, tail);
            }
            CompletableFuture.allOf(tails.values().toArray(new CompletableFuture[0])).join();
        }
        if (!failures.isEmpty()) {
            throw new IllegalStateException(
                    failures.size() + " naive writes failed", failures.get(0));
        }
        verify(table, stream);
        return new Result(
                units.sum(),
                stream.size() - rejected.sum(),
                rejected.sum(),
                0,
                System.nanoTime() - start);
    }

    private static Result runSink(
            DynamoDbClient admin,
            DynamoDbClientConfig config,
            List<PositionEvent> stream,
            int batch)
            throws Exception {
        PortfolioTable table = PortfolioTable.create(admin, table("sink" + batch));
        InMemoryReporter reporter = InMemoryReporter.createWithRetainedMetrics();
        Configuration conf = reporter.addToConfiguration(new Configuration());
        StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(1, conf);
        env.getConfig().disableGenericTypes();
        List<PositionEvent> data = new ArrayList<>(stream);
        GeneratorFunction<Long, PositionEvent> byIndex = i -> data.get(i.intValue());
        env.fromSource(
                        new DataGeneratorSource<>(
                                byIndex,
                                data.size(),
                                RateLimiterStrategy.noOp(),
                                TypeInformation.of(PositionEvent.class)),
                        WatermarkStrategy.noWatermarks(),
                        "zipf-positions",
                        TypeInformation.of(PositionEvent.class))
                .sinkTo(
                        VersionedDynamoDbSink.<PositionEvent>builder()
                                .elementConverter(new PositionEventConverter(table.name()))
                                .clientConfig(config)
                                .maxBatchSize(batch)
                                .maxBufferedRequests(Math.max(10_000, 4 * batch))
                                .maxInFlightRequests(4)
                                .maxConcurrentWritesPerBatch(16)
                                .build());
        long start = System.nanoTime();
        JobExecutionResult result = env.execute("write-units-benchmark-" + batch);
        long nanos = System.nanoTime() - start;
        Map<String, Long> counters = new HashMap<>();
        for (String name :
                List.of(
                        VersionedSinkMetrics.CONSUMED_WRITE_UNITS,
                        VersionedSinkMetrics.APPLIED_WRITES,
                        VersionedSinkMetrics.STALE_WRITES,
                        VersionedSinkMetrics.COALESCED_WRITES)) {
            long sum = 0;
            for (Map.Entry<String, Metric> e :
                    reporter.findMetrics(result.getJobID(), name).entrySet()) {
                if (e.getKey().endsWith("." + name) && e.getValue() instanceof Counter) {
                    sum += ((Counter) e.getValue()).getCount();
                }
            }
            counters.put(name, sum);
        }
        verify(table, stream);
        return new Result(
                counters.get(VersionedSinkMetrics.CONSUMED_WRITE_UNITS),
                counters.get(VersionedSinkMetrics.APPLIED_WRITES),
                counters.get(VersionedSinkMetrics.STALE_WRITES),
                counters.get(VersionedSinkMetrics.COALESCED_WRITES),
                nanos);
    }

    /** The figures mean nothing unless the table ended right: every key at its max version. */
    private static void verify(PortfolioTable table, List<PositionEvent> stream) {
        Map<String, Long> expected = new HashMap<>();
        for (PositionEvent e : stream) {
            expected.merge(e.pk() + "|" + e.sk(), e.version, Math::max);
        }
        Map<String, long[]> actual = table.readAll();
        if (actual.size() != expected.size()) {
            throw new IllegalStateException(
                    "table has " + actual.size() + " items, expected " + expected.size());
        }
        expected.forEach(
                (id, v) -> {
                    if (actual.get(id)[0] != v) {
                        throw new IllegalStateException(id + " ended at " + actual.get(id)[0]);
                    }
                });
    }

    private static String table(String what) {
        return "Bench_" + what + "_" + UUID.randomUUID().toString().substring(0, 6);
    }

    /** One run's figures. */
    private static final class Result {
        final double units;
        final long applied;
        final long rejected;
        final long coalesced;
        final long nanos;

        Result(double units, long applied, long rejected, long coalesced, long nanos) {
            this.units = units;
            this.applied = applied;
            this.rejected = rejected;
            this.coalesced = coalesced;
            this.nanos = nanos;
        }

        double billed() {
            return units + rejected;
        }

        String line(String name, int events) {
            return String.format(
                    Locale.ROOT,
                    "%s: applied=%d rejected=%d coalesced=%d units=%.0f units/event=%.3f"
                            + " billed/event=%.3f (%.1f s)",
                    name,
                    applied,
                    rejected,
                    coalesced,
                    units,
                    units / events,
                    billed() / events,
                    nanos / 1e9);
        }
    }
}
