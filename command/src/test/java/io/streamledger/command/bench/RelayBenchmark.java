package io.streamledger.command.bench;

import io.streamledger.aws.retry.RetryPolicy;
import io.streamledger.command.config.CommandService;
import io.streamledger.command.config.ServiceConfig;
import io.streamledger.command.config.TableProvisioner;
import io.streamledger.command.dynamo.CapacityMeter;
import io.streamledger.command.outbox.KinesisPublisher;
import io.streamledger.command.outbox.OutboxItems;
import io.streamledger.command.outbox.OutboxRelay;
import io.streamledger.command.outbox.RelayCapacity;
import io.streamledger.command.testing.CommandFixture;
import io.streamledger.command.testing.KinesisRecords;
import io.streamledger.local.LocalEndpoint;
import io.streamledger.local.kinesis.KinesisLocal;
import io.streamledger.model.change.AttributeValue;
import io.streamledger.model.change.OutboxEvent;
import io.streamledger.model.change.OutboxEventCodec;
import io.streamledger.model.contract.AmplificationRow;
import io.streamledger.model.contract.ContractResources;
import java.lang.management.ManagementFactory;
import java.math.BigDecimal;
import java.math.MathContext;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;
import software.amazon.awssdk.services.kinesis.KinesisClient;
import software.amazon.awssdk.services.kinesis.model.Record;

/**
 * Benchmark (a main, not a test) of the AP16 outbox relay against the local endpoint and
 * kinesis-local: N READY events (1-3 per aggregate) → published and COMPLETED, events/s, CPU and
 * consumed capacity per event beside AMP12/AMP15/AMP16, with the one-at-a-time path as the baseline
 * in the same run; the stream is read back to check every event arrived in per-aggregate order.
 *
 * <p>Run (see command/README.md): {@code java -cp <test classpath>
 * io.streamledger.command.bench.RelayBenchmark [events=20000] [baselineEvents=1000] [runs=1]
 * [window=1000] [concurrency=16] [shards=64] [publishCalls=4]}
 */
public final class RelayBenchmark {

    private static final String STREAM = "relay-bench";
    // 2,000 events/s of ~0.7 KiB need >= 2 shards at AWS's 1,000 records/s and 1 MiB/s per shard;
    // kinesis-local hashes a shard's whole record vector per entry put, so more shards cost less
    private static final int DEFAULT_SHARDS = 64;

    public static void main(String[] args) throws Exception {
        int events = arg(args, 0, 20_000);
        int baselineEvents = arg(args, 1, 1_000);
        int runs = arg(args, 2, 1);
        int window = arg(args, 3, 1_000);
        int concurrency = arg(args, 4, 16);
        int shards = arg(args, 5, DEFAULT_SHARDS);
        int publishCalls = arg(args, 6, OutboxRelay.Tuning.defaults().publishCalls());
        OutboxRelay.Tuning tuning =
                OutboxRelay.Tuning.defaults()
                        .withConcurrency(concurrency)
                        .withPublishCalls(publishCalls);
        System.setProperty("sun.net.httpserver.nodelay", "true");
        try (LocalEndpoint endpoint = LocalEndpoint.builder().port(0).build().start();
                KinesisLocal kinesis = KinesisLocal.start()) {
            DynamoDbClient client = CommandFixture.client(endpoint.endpoint());
            KinesisClient kc = KinesisLocal.newClient(kinesis.endpoint());
            System.out.printf(
                    "AP16 relay: local endpoint (in this JVM) + kinesis-local (pid %d, %d shards per"
                            + " run's stream); window %d, %d DynamoDB calls and %d PutRecords in"
                            + " flight; %d cores; load average %s%n",
                    kinesis.pid(),
                    shards,
                    window,
                    concurrency,
                    publishCalls,
                    Runtime.getRuntime().availableProcessors(),
                    CommandServiceBenchmark.loadAverage());
            Bench b = new Bench(client, kinesis, kc, shards, tuning);
            // JIT warm-up of both paths, not reported
            b.run("warmup-batched", Math.min(2_000, events), false, window, false);
            b.run("warmup-serial", 200, true, window, false);
            if (baselineEvents > 0) {
                b.run("baseline serial", baselineEvents, true, window, true);
            }
            for (int r = 1; r <= runs; r++) {
                b.run("batched run " + r, events, false, window, true);
            }
            kc.close();
            client.close();
        }
        System.exit(0);
    }

    private static int arg(String[] args, int i, int dflt) {
        return args.length > i ? Integer.parseInt(args[i]) : dflt;
    }

    /** utime + stime of another process in ms (Linux, USER_HZ = 100). */
    private static long processCpuMillis(long pid) {
        return CommandServiceBenchmark.cpuTicks(pid) * 10;
    }

    /** CPU ms of live Java threads by part (relay pool, endpoint, main, other). */
    static Map<String, Long> threadCpuMillis(String relayThreads) {
        java.lang.management.ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        Map<String, Long> out = new LinkedHashMap<>();
        for (String part : List.of("relay", "endpoint", "main", "other")) {
            out.put(part, 0L);
        }
        for (java.lang.management.ThreadInfo t : mx.getThreadInfo(mx.getAllThreadIds())) {
            if (t == null) {
                continue;
            }
            long ns = mx.getThreadCpuTime(t.getThreadId());
            if (ns < 0) {
                continue;
            }
            String n = t.getThreadName();
            String part =
                    n.startsWith(relayThreads)
                            ? "relay"
                            : n.startsWith("local-dynamodb") || n.startsWith("HTTP-Dispatcher")
                                    ? "endpoint"
                                    : n.equals("main") ? "main" : "other";
            out.merge(part, ns / 1_000_000, Long::sum);
        }
        return out;
    }

    static final class Bench {
        final DynamoDbClient client;
        final KinesisLocal kinesis;
        final KinesisClient kc;
        final long kinesisPid;
        final int shards;
        final OutboxRelay.Tuning tuning;
        int runNo;
        String stream;

        Bench(
                DynamoDbClient client,
                KinesisLocal kinesis,
                KinesisClient kc,
                int shards,
                OutboxRelay.Tuning tuning) {
            this.client = client;
            this.kinesis = kinesis;
            this.kc = kc;
            this.kinesisPid = kinesis.pid();
            this.shards = shards;
            this.tuning = tuning;
        }

        void run(String name, int n, boolean serial, int window, boolean report) throws Exception {
            String prefix = "relay" + (++runNo) + "-";
            TableProvisioner.createAll(client, prefix);
            // a fresh stream per run: kinesis-local slows down as a stream fills, real Kinesis not
            stream = STREAM + "-" + runNo;
            kinesis.createStream(stream, shards);
            CommandService service =
                    new CommandService(
                            client, ServiceConfig.defaults(prefix), RetryPolicy.defaults());
            String table = service.tables().context();
            long seedStart = System.nanoTime();
            CapacityMeter seed = seed(service, table, n);
            double seedSeconds = (System.nanoTime() - seedStart) / 1e9;

            OutboxRelay relay =
                    new OutboxRelay(
                            service.ddb(),
                            table,
                            "bench-" + runNo,
                            Clock.systemUTC(),
                            new KinesisPublisher(kc, stream),
                            Duration.ofSeconds(30),
                            serial ? 100 : window,
                            Duration.ofSeconds(1),
                            Duration.ofSeconds(30),
                            tuning);
            String loadBefore = CommandServiceBenchmark.loadAverage();
            String relayThreads = "outbox-relay-bench-" + runNo + "-";
            Map<String, Long> threads0 = threadCpuMillis(relayThreads);
            long cpu0 = AdmissionBenchmark.processCpuNanos() / 1_000_000;
            long kcpu0 = processCpuMillis(kinesisPid);
            long t0 = System.nanoTime();
            long done = 0;
            while (done < n) {
                int k = serial ? relay.pollOnceSerially() : relay.pollOnce();
                done = relay.metrics().get("completed");
                if (k == 0) {
                    Thread.sleep(50); // only re-queued events left: wait for their backoff
                }
            }
            double seconds = (System.nanoTime() - t0) / 1e9;
            long cpu = AdmissionBenchmark.processCpuNanos() / 1_000_000 - cpu0;
            Map<String, Long> threads = threadCpuMillis(relayThreads);
            long javaThreads = 0;
            StringBuilder parts = new StringBuilder();
            for (var e : threads.entrySet()) {
                long ms = e.getValue() - threads0.get(e.getKey());
                javaThreads += ms;
                parts.append(String.format("%s %.2f, ", e.getKey(), (double) ms / n));
            }
            parts.append(String.format("VM (GC, JIT) %.2f", (double) (cpu - javaThreads) / n));
            long kcpu = processCpuMillis(kinesisPid) - kcpu0;
            String loadAfter = CommandServiceBenchmark.loadAverage();
            relay.close();
            if (!report) {
                System.out.printf("%s: %d events in %.1f s%n", name, n, seconds);
                return;
            }
            System.out.printf(
                    "%n%s: %d READY events (%d aggregates) published and COMPLETED in %.2f s"
                            + " = %.0f events/s (load average %s before, %s after)%n",
                    name, n, aggregates(n), seconds, n / seconds, loadBefore, loadAfter);
            System.out.printf(
                    "  CPU per event: relay + local endpoint JVM %.2f ms, kinesis-local %.2f ms%n",
                    (double) cpu / n, kcpu < 0 ? Double.NaN : (double) kcpu / n);
            System.out.printf("    by part (ms per event): %s%n", parts);
            System.out.printf("  relay metrics: %s%n", relay.metrics());
            printTimings(relay.metrics(), seconds);
            printCapacity(seed, n, seedSeconds, relay.capacity().snapshot());
            verifyStream(table, service, n);
        }

        /** Mean latency per call kind and what the round thread waited for (share of the run). */
        static void printTimings(Map<String, Long> m, double seconds) {
            long puts = Math.max(1, m.get("putCalls"));
            double wall = seconds * 1e6;
            System.out.printf(
                    "  per call: claim %.2f ms, complete %.2f ms, PutRecords %.1f ms for %.0f"
                            + " records (%d calls, at most %d in flight)%n",
                    m.get("claimCallMicros") / 1e3 / Math.max(1, m.get("claimed")),
                    m.get("completeCallMicros") / 1e3 / Math.max(1, m.get("completed")),
                    m.get("putCallMicros") / 1e3 / puts,
                    (double) m.get("published") / puts,
                    m.get("putCalls"),
                    m.get("putsInFlightMax"));
            System.out.printf(
                    "  round thread: %.0f%% waiting on claims only, %.0f%% on PutRecords only, %.0f%%"
                            + " on both, %.0f%% reading READY pages%n",
                    100 * m.get("waitClaimsMicros") / wall,
                    100 * m.get("waitPutsMicros") / wall,
                    100 * m.get("waitBothMicros") / wall,
                    100 * m.get("readyReadMicros") / wall);
        }

        /** Per aggregate 1-3 events (versions 1..k), created as in accepted_order_v1/CS04. */
        CapacityMeter seed(CommandService service, String table, int n) {
            CapacityMeter meter = new CapacityMeter();
            Instant t = Instant.now().minusSeconds(60);
            List<TransactWriteItem> tx = new ArrayList<>();
            int made = 0;
            for (int agg = 0; made < n; agg++) {
                int count = Math.min(1 + agg % 3, n - made);
                String aggregate = "o-bench-" + runNo + "-" + agg;
                for (int v = 1; v <= count; v++) {
                    OutboxEvent e = event(aggregate, v, t.plusMillis(made));
                    tx.add(OutboxItems.createPut(table, "bench", e));
                    made++;
                    if (tx.size() == 100) {
                        service.ddb().transact(tx, "seed-" + runNo + "-" + made, meter);
                        tx = new ArrayList<>();
                    }
                }
            }
            if (!tx.isEmpty()) {
                service.ddb().transact(tx, "seed-" + runNo + "-" + made, meter);
            }
            return meter;
        }

        static int aggregates(int n) {
            int made = 0;
            int agg = 0;
            while (made < n) {
                made += Math.min(1 + agg % 3, n - made);
                agg++;
            }
            return agg;
        }

        static OutboxEvent event(String aggregate, int version, Instant at) {
            Map<String, AttributeValue> payload = new LinkedHashMap<>();
            payload.put("tenant", AttributeValue.s("bench"));
            payload.put("orderId", AttributeValue.s(aggregate));
            payload.put("tradeId", AttributeValue.s("t-" + aggregate + "-" + version));
            payload.put("accountId", AttributeValue.s("ACC-BENCH-" + (aggregate.hashCode() & 63)));
            payload.put("symbol", AttributeValue.s("AAPL"));
            payload.put("side", AttributeValue.s("BUY"));
            payload.put("quantity", AttributeValue.n(new BigDecimal("4")));
            payload.put("price", AttributeValue.n(new BigDecimal("187.20")));
            payload.put("fee", AttributeValue.n(new BigDecimal("0.35")));
            payload.put("currency", AttributeValue.s("USD"));
            payload.put("executedAt", AttributeValue.s(at.toString()));
            return new OutboxEvent(
                    "ev-" + aggregate + "-" + version,
                    "Order",
                    aggregate,
                    version,
                    version == 1 ? "OrderAccepted" : "TradeExecuted",
                    1,
                    at,
                    "trace-" + aggregate,
                    version == 1 ? null : "ev-" + aggregate + "-" + (version - 1),
                    payload);
        }

        static void printCapacity(
                CapacityMeter seed,
                int n,
                double seedSeconds,
                Map<RelayCapacity.Use, RelayCapacity.Sum> sums) {
            var contract = ContractResources.contract();
            System.out.printf(
                    "  capacity units per event (measured, ReturnConsumedCapacity=INDEXES; seed"
                            + " figures are for its 1.6 KiB planning item):%n");
            System.out.printf(
                    "    create (TransactWriteItems, seeding, %.0f events/s): %s   [AMP12 %s]%n",
                    n / seedSeconds,
                    perEvent(seed.total(), seed.indexUnits(), n),
                    amp(contract, "AMP12"));
            line(sums, RelayCapacity.Use.CLAIM, n, "AMP15", contract);
            line(sums, RelayCapacity.Use.COMPLETE, n, "AMP16", contract);
            line(sums, RelayCapacity.Use.REQUEUE, n, "AMP17", contract);
            line(sums, RelayCapacity.Use.RESCHEDULE, n, "AMP18", contract);
            RelayCapacity.Sum q = sums.get(RelayCapacity.Use.READY_QUERY);
            System.out.printf(
                    "    READY queries: %d calls, %s RCU per event%n",
                    q.calls(), q.units().divide(BigDecimal.valueOf(n), MathContext.DECIMAL32));
            BigDecimal relayWrites =
                    sums.get(RelayCapacity.Use.CLAIM)
                            .units()
                            .add(sums.get(RelayCapacity.Use.COMPLETE).units())
                            .add(sums.get(RelayCapacity.Use.REQUEUE).units());
            System.out.printf(
                    "    relay writes total: %s WCU per event   [AMP15+AMP16 = %s]%n",
                    relayWrites.divide(BigDecimal.valueOf(n), MathContext.DECIMAL32),
                    contract.amplification("AMP15")
                            .orElseThrow()
                            .totalUnits()
                            .add(contract.amplification("AMP16").orElseThrow().totalUnits()));
        }

        static void line(
                Map<RelayCapacity.Use, RelayCapacity.Sum> sums,
                RelayCapacity.Use use,
                int n,
                String ampId,
                io.streamledger.model.contract.Contract contract) {
            RelayCapacity.Sum s = sums.get(use);
            System.out.printf(
                    "    %-8s (%d calls): %s   [%s %s]%n",
                    use.name().toLowerCase(),
                    s.calls(),
                    perEvent(s.units(), s.indexUnits(), n),
                    ampId,
                    amp(contract, ampId));
        }

        static String perEvent(BigDecimal total, BigDecimal index, int n) {
            BigDecimal count = BigDecimal.valueOf(n);
            return String.format(
                    "%s (base %s + index %s)",
                    total.divide(count, MathContext.DECIMAL32).stripTrailingZeros().toPlainString(),
                    total.subtract(index)
                            .divide(count, MathContext.DECIMAL32)
                            .stripTrailingZeros()
                            .toPlainString(),
                    index.divide(count, MathContext.DECIMAL32)
                            .stripTrailingZeros()
                            .toPlainString());
        }

        static String amp(io.streamledger.model.contract.Contract c, String id) {
            AmplificationRow r = c.amplification(id).orElseThrow();
            return r.totalUnits().toPlainString()
                    + " = base "
                    + r.baseUnits().toPlainString()
                    + "x"
                    + r.baseMultiplier().toPlainString()
                    + " + index "
                    + r.gsiUnits().toPlainString();
        }

        /** Reads the stream back: each event of this run once, per aggregate in version order. */
        void verifyStream(String table, CommandService service, int n) {
            String runTag = "o-bench-" + runNo + "-";
            Map<String, Long> lastVersion = new HashMap<>();
            int seen = 0;
            int outOfOrder = 0;
            for (Record rec : KinesisRecords.readAll(kc, stream)) {
                if (!rec.partitionKey().startsWith(runTag)) {
                    continue;
                }
                OutboxEvent e =
                        OutboxEventCodec.fromJson(rec.data().asString(StandardCharsets.UTF_8));
                seen++;
                Long prev = lastVersion.put(e.aggregateId(), e.aggregateVersion());
                if (prev != null && prev >= e.aggregateVersion()) {
                    outOfOrder++;
                }
            }
            System.out.printf(
                    "  stream check: %d records of this run for %d events, %d out of"
                            + " per-aggregate order%n",
                    seen, n, outOfOrder);
        }
    }
}
