package io.streamledger.stack.bench;

import io.streamledger.command.outbox.OutboxItems;
import io.streamledger.jobs.posting.PostingJob;
import io.streamledger.jobs.projection.DynamoDbProjectionSinks;
import io.streamledger.jobs.projection.ProjectionJob;
import io.streamledger.jobs.source.ChangeSources;
import io.streamledger.model.change.OutboxEvent;
import io.streamledger.model.keys.AuthorityKey;
import io.streamledger.model.keys.PositionKey;
import io.streamledger.model.projection.ProjectionSchema;
import io.streamledger.model.table.Attr;
import io.streamledger.model.table.Tables;
import io.streamledger.sinks.posting.PostingTransactionSink;
import io.streamledger.stack.it.LocalStack;
import io.streamledger.stack.it.Workload;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import jdk.jfr.Recording;
import org.apache.flink.api.common.restartstrategy.RestartStrategies;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.sink.v2.DiscardingSink;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BatchGetItemResponse;
import software.amazon.awssdk.services.dynamodb.model.KeysAndAttributes;
import software.amazon.awssdk.services.dynamodb.model.TransactionCanceledException;

/**
 * End-to-end AP07 freshness benchmark (a main, not a test): the posting and projection jobs on a
 * local MiniCluster over the local endpoint's DynamoDB Streams, fed with TradeExecuted outbox items
 * at a target rate; prints p50/p95/p99/max time from fill accepted to its Portfolio row (IDX07)
 * visible (goal p99 ≤ 2 s).
 *
 * <p>Fills are written directly with the SDK in the command service's shape ({@code
 * OutboxItems.createPut} of a {@code Workload.tradeExecuted} event, one TransactWriteItems each),
 * not through the command service's HTTP API, which measured ≈ 130 orders/s on this machine.
 * "Accepted" = that TransactWriteItems returned, as when the command service answers a fill.
 *
 * <p>Probes: every {@code sampleEvery}-th fill goes to a fresh account, so version 1 of its cash
 * authority is exactly that fill; it is visible when {@code TEN#t#ACCT#probe-i / POS#CASH:USD}
 * exists with {@code sourceVersion ≥ 1}. A poller reads pending probes with BatchGetItem every
 * {@code pollMs} (the figures include up to that much detection delay). The other fills go to a
 * pool of load accounts; every fill hits the tenant's house accounts, as in production.
 *
 * <p>{@code rates=100,200,…} sweeps: each rate runs on its own fresh stack in this JVM (warm-up +
 * window each) and the closing table has one row per rate. {@code jfr=file} records a JFR profile
 * of each measured window.
 */
public final class FreshnessBenchmark {

    private static final String TENANT = "bench";
    private static final String PROBE = "probe-";
    private static final String WRITER_THREAD = "freshness-writer-";
    private static final String DRIVERS = "benchmark writers + poller";
    private static final String ENDPOINT = "local endpoint";
    private static final String JOBS = "jobs (Flink tasks, their SDK clients, runtime)";

    private final Map<String, String> opts;
    private final List<Integer> rates;
    private final int seconds;
    private final int warmup;
    private final int sampleEvery;
    private final long timeoutMs;
    private final long pollMs;

    // per phase (one rate): reset by newPhase before any of the phase's threads start
    private int rate;

    /** probe account → its probe, until visible or timed out. */
    private Map<String, Probe> pending;

    private List<Long> freshnessMs;
    private List<Long> postedMs;
    private AtomicLong neverVisible;
    private AtomicLong writeErrors;
    private Map<String, AtomicLong> accountSeqs;
    private volatile boolean driving;

    private FreshnessBenchmark(Map<String, String> opts) {
        this.opts = opts;
        this.rates = rates(opts);
        this.seconds = num("seconds", 30);
        this.warmup = num("warmup", 5);
        this.sampleEvery = num("sampleEvery", 10);
        this.timeoutMs = num("timeoutSeconds", 30) * 1000L;
        this.pollMs = num("pollMs", 50);
    }

    /** {@code rates=100,200} (a sweep, one phase per rate) or the single {@code rate}. */
    private static List<Integer> rates(Map<String, String> opts) {
        List<Integer> out = new ArrayList<>();
        for (String r : opts.getOrDefault("rates", opts.getOrDefault("rate", "1000")).split(",")) {
            out.add(Integer.parseInt(r.trim()));
        }
        return out;
    }

    /** Options as {@code key=value}: rate, seconds, warmup, sampleEvery, timeoutSeconds, … */
    public static void main(String[] args) throws Exception {
        new FreshnessBenchmark(BenchHost.options(args)).run();
        System.exit(0); // Flink and SDK threads must not keep the JVM alive
    }

    private int num(String key, int dflt) {
        return Integer.parseInt(opts.getOrDefault(key, Integer.toString(dflt)));
    }

    private void run() throws Exception {
        List<Row> rows = new ArrayList<>();
        for (int r : rates) {
            rows.add(phase(r));
        }
        sweep(rows);
    }

    /**
     * One rate on a fresh stack (endpoint, tables, MiniCluster) in this JVM: no backlog, table
     * growth or probe account of an earlier rate reaches it; only the JIT stays warm.
     */
    private Row phase(int phaseRate) throws Exception {
        newPhase(phaseRate);
        String prefix = "fb" + UUID.randomUUID().toString().substring(0, 6) + "-";
        try (LocalStack stack = new LocalStack(prefix, false, null, true)) {
            JobClient job = startJobs(stack);
            try {
                prime(stack);
                System.gc(); // an earlier phase's garbage is not this phase's cost
                String loadBefore = BenchHost.loadAverage();
                Thread poller = new Thread(countedCpu(() -> poll(stack)), "freshness-poller");
                poller.start();
                long receiptsBefore = stack.scan(stack.table(Tables.INBOX)).size();
                long cpu0 = BenchHost.ownCpuNanos();
                ThreadCpu threads = new ThreadCpu(FreshnessBenchmark::cpuGroup);
                long wall0 = System.nanoTime();
                long[] window = drive(stack);
                long cpuDrive = BenchHost.ownCpuNanos() - cpu0;
                long wallDrive = System.nanoTime() - wall0;
                long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
                while (!pending.isEmpty() && System.nanoTime() < deadline) {
                    Thread.sleep(100);
                }
                driving = false;
                poller.join();
                neverVisible.addAndGet(pending.size());
                // CPU before the closing scans: they are the benchmark's, not the pipeline's
                long cpuTotal = BenchHost.ownCpuNanos() - cpu0;
                Map<String, Long> parts = threads.sinceStart();
                // writers and poller have ended: their own count replaces the live-thread view
                parts.put(DRIVERS, driverCpuNanos.get());
                String loadAfter = BenchHost.loadAverage();
                Row row = report(window);
                long posted = progress(stack) - receiptsBefore;
                cpu(cpuDrive, wallDrive, cpuTotal, posted);
                return row.withCpu(cpuByPart(parts, cpuTotal, posted), loadBefore, loadAfter);
            } finally {
                job.cancel().get();
            }
        }
    }

    private void newPhase(int phaseRate) {
        rate = phaseRate;
        pending = new ConcurrentHashMap<>();
        freshnessMs = Collections.synchronizedList(new ArrayList<>());
        postedMs = Collections.synchronizedList(new ArrayList<>());
        neverVisible = new AtomicLong();
        writeErrors = new AtomicLong();
        accountSeqs = new ConcurrentHashMap<>();
        driverCpuNanos.set(0);
        driving = true;
    }

    private JobClient startJobs(LocalStack stack) throws Exception {
        int parallelism = num("parallelism", 2);
        StreamExecutionEnvironment env =
                StreamExecutionEnvironment.createLocalEnvironment(parallelism, new Configuration());
        env.enableCheckpointing(num("checkpointMs", 1000));
        if (!Boolean.parseBoolean(opts.getOrDefault("genericTypes", "true"))) {
            env.getConfig().disableGenericTypes(); // any Kryo fallback fails the submission
        }
        if (Boolean.parseBoolean(opts.getOrDefault("objectReuse", "false"))) {
            env.getConfig().enableObjectReuse(); // what chained copies cost, not a job setting
        }
        env.setRestartStrategy(RestartStrategies.fixedDelayRestart(5, 500));
        Configuration postingConf = jobOptions(stack.configReading(Tables.CONTEXT));
        new PostingJob(
                        ChangeSources.fromConfig(postingConf, PostingJob.ROLE),
                        new PostingJob.Sinks(
                                new PostingTransactionSink(PostingJob.settings(postingConf)),
                                new DiscardingSink<>(),
                                new DiscardingSink<>(),
                                new DiscardingSink<>(),
                                new DiscardingSink<>()),
                        postingConf)
                .build(env);
        Configuration projConf = jobOptions(stack.configReading(Tables.LEDGER));
        new ProjectionJob(
                        ChangeSources.fromConfig(projConf, ProjectionJob.ROLE),
                        new DynamoDbProjectionSinks(projConf),
                        projConf)
                .build(env);
        return env.executeAsync("freshness-benchmark");
    }

    /** Benchmark options named {@code streamledger.*} are job options (README table). */
    private Configuration jobOptions(Configuration conf) {
        opts.forEach(
                (k, v) -> {
                    if (k.startsWith("streamledger.")) {
                        conf.setString(k, v);
                    }
                });
        return conf;
    }

    /**
     * Paced writers: fill i is due at start + i / rate; a writer that is late writes at once, so
     * the achieved rate shows what the endpoint and client accept. Returns the measured window
     * [first, last] accept nanoTime after warm-up and the count of fills accepted in it.
     */
    private long[] drive(LocalStack stack) throws Exception {
        String context = stack.table(Tables.CONTEXT);
        long total = (long) rate * (warmup + seconds);
        AtomicLong next = new AtomicLong();
        AtomicLong measured = new AtomicLong();
        long[] window = {Long.MAX_VALUE, Long.MIN_VALUE};
        long start = System.nanoTime();
        // fills not written by then were offered but not accepted: the achieved rate shows it
        long end = start + TimeUnit.SECONDS.toNanos(warmup + seconds);
        // warm-up by the clock, not by fill count: an overloaded run still gets a window
        long measureFrom = start + TimeUnit.SECONDS.toNanos(warmup);
        int writers = num("writers", 32);
        AtomicLong threadIds = new AtomicLong();
        ExecutorService pool =
                Executors.newFixedThreadPool(
                        writers, r -> new Thread(r, WRITER_THREAD + threadIds.incrementAndGet()));
        for (int w = 0; w < writers; w++) {
            pool.execute(
                    countedCpu(
                            () -> {
                                for (long i = next.getAndIncrement();
                                        i < total && System.nanoTime() < end; ) {
                                    long due = start + i * 1_000_000_000L / rate;
                                    long wait = due - System.nanoTime();
                                    if (wait > 0) {
                                        java.util.concurrent.locks.LockSupport.parkNanos(wait);
                                    }
                                    boolean probe = i % sampleEvery == 0;
                                    String account =
                                            probe
                                                    ? PROBE + rate + "-" + i
                                                    : "acct-"
                                                            + ThreadLocalRandom.current()
                                                                    .nextInt(
                                                                            num(
                                                                                    "loadAccounts",
                                                                                    200));
                                    // stamped as FillService does (CS04): the posting job's
                                    // execution-order gate sees the production path
                                    long seq =
                                            accountSeqs
                                                    .computeIfAbsent(account, a -> new AtomicLong())
                                                    .incrementAndGet();
                                    if (!writeSequenced(stack, context, fill(account, i, seq))) {
                                        i = next.getAndIncrement();
                                        continue;
                                    }
                                    long accepted = System.nanoTime();
                                    if (accepted >= measureFrom) {
                                        measured.incrementAndGet();
                                        synchronized (window) {
                                            window[0] = Math.min(window[0], accepted);
                                            window[1] = Math.max(window[1], accepted);
                                        }
                                        if (probe) {
                                            pending.put(account, new Probe(accepted));
                                        }
                                    }
                                    i = next.getAndIncrement();
                                }
                            }));
        }
        pool.shutdown();
        Recording jfr = null;
        String jfrFile = opts.get("jfr");
        if (jfrFile != null) {
            // the measured window only: warm-up (JIT, first shards) is not the steady state
            long toWindow = measureFrom - System.nanoTime();
            if (toWindow > 0) {
                pool.awaitTermination(toWindow, TimeUnit.NANOSECONDS);
            }
            jfr = new Recording(jdk.jfr.Configuration.getConfiguration("profile"));
            jfr.setDestination(
                    java.nio.file.Path.of(
                            rates.size() == 1
                                    ? jfrFile
                                    : jfrFile.replaceFirst("(\\.jfr)?$", "-" + rate + ".jfr")));
            jfr.start();
        }
        pool.awaitTermination(1, TimeUnit.DAYS);
        if (jfr != null) {
            jfr.stop(); // writes the destination
            jfr.close();
        }
        return new long[] {window[0], window[1], measured.get()};
    }

    /**
     * Writes a stamped fill, retrying a failed call (its sequence is taken: a fill left out would
     * park its account's later fills); a cancelled retry means the first call had committed.
     */
    private boolean writeSequenced(LocalStack stack, String context, OutboxEvent fill) {
        for (int attempt = 1; ; attempt++) {
            try {
                write(stack, context, fill);
                return true;
            } catch (RuntimeException e) {
                if (attempt > 1 && e instanceof TransactionCanceledException) {
                    return true; // the outbox item's create-once condition: already written
                }
                if (writeErrors.getAndIncrement() == 0) {
                    System.err.println("first write error: " + e);
                }
                if (attempt == 5) {
                    System.err.println("fill " + fill.eventId() + " not written: its account gaps");
                    return false;
                }
            }
        }
    }

    private static void write(LocalStack stack, String context, OutboxEvent fill) {
        stack.ddb.transactWriteItems(
                b -> b.transactItems(OutboxItems.createPut(context, TENANT, fill)));
    }

    /**
     * One fill through the whole pipeline before the clock starts: the MiniCluster, the shard
     * discovery of both sources and the sinks are up, so the warm-up measures steady state.
     */
    private void prime(LocalStack stack) throws InterruptedException {
        write(stack, stack.table(Tables.CONTEXT), fill("prime", -1, 1));
        Map<String, AttributeValue> key = viewKey("prime");
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(180);
        while (!stack.ddb.getItem(b -> b.tableName(stack.portfolioTable()).key(key)).hasItem()) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("pipeline did not project a fill in 180 s");
            }
            Thread.sleep(200);
        }
    }

    /** The IDX07 key of an account's cash row. */
    private static Map<String, AttributeValue> viewKey(String account) {
        PositionKey k =
                new PositionKey(TENANT, account, ProjectionSchema.CASH_SYMBOL_PREFIX + "USD");
        return Map.of(Attr.PK, AttributeValue.fromS(k.pk()), Attr.SK, AttributeValue.fromS(k.sk()));
    }

    /**
     * A buy or sell of 1–100 shares at 10.00–999.99 with a fee of 0.00–2.99 (exact decimals), the
     * account's execution sequence {@code seq}.
     */
    private static OutboxEvent fill(String account, long i, long seq) {
        ThreadLocalRandom r = ThreadLocalRandom.current();
        OutboxEvent e =
                Workload.tradeExecuted(
                        TENANT,
                        account,
                        "SYM" + r.nextInt(8),
                        r.nextInt(3) != 0,
                        BigDecimal.valueOf(1 + r.nextInt(100)),
                        BigDecimal.valueOf(1_000 + r.nextInt(99_000), 2),
                        BigDecimal.valueOf(r.nextInt(300), 2),
                        "o-bench-" + i,
                        0,
                        Instant.now());
        return Workload.withAccountExecSeq(e, seq);
    }

    /** A sampled fill: accepted, then its authority written (posted), then its view row seen. */
    private static final class Probe {
        final long accepted;
        volatile long posted;

        Probe(long accepted) {
            this.accepted = accepted;
        }
    }

    /**
     * Every {@code pollMs}: BatchGetItem of the pending probes' AP12 cash authorities (posting
     * stage) and IDX07 cash view rows (end to end), until driving ends.
     */
    private void poll(LocalStack stack) {
        String ledger = stack.table(Tables.LEDGER);
        String view = stack.portfolioTable();
        while (driving) {
            List<String> unposted = new ArrayList<>();
            pending.forEach(
                    (a, p) -> {
                        if (p.posted == 0) {
                            unposted.add(a);
                        }
                    });
            for (var item : batchGet(stack, ledger, unposted, FreshnessBenchmark::authorityKey)) {
                Probe p = pending.get(item.get("accountId").s());
                if (p != null && p.posted == 0) {
                    p.posted = System.nanoTime();
                }
            }
            List<String> all = new ArrayList<>(pending.keySet());
            for (var item : batchGet(stack, view, all, FreshnessBenchmark::viewKey)) {
                // a fresh account's row exists only once version 1 (this fill) is projected
                long now = System.nanoTime();
                Probe p = pending.remove(item.get("accountId").s());
                if (p != null && Long.parseLong(item.get(Attr.SOURCE_VERSION).n()) >= 1) {
                    long posted = p.posted == 0 ? now : p.posted;
                    freshnessMs.add(TimeUnit.NANOSECONDS.toMillis(now - p.accepted));
                    postedMs.add(TimeUnit.NANOSECONDS.toMillis(posted - p.accepted));
                }
            }
            long now = System.nanoTime();
            long timeout = TimeUnit.MILLISECONDS.toNanos(timeoutMs);
            pending.values()
                    .removeIf(
                            p -> now - p.accepted > timeout && neverVisible.incrementAndGet() > 0);
            try {
                Thread.sleep(pollMs);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    private static List<Map<String, AttributeValue>> batchGet(
            LocalStack stack,
            String table,
            List<String> accounts,
            java.util.function.Function<String, Map<String, AttributeValue>> key) {
        List<Map<String, AttributeValue>> out = new ArrayList<>();
        for (int from = 0; from < accounts.size(); from += 100) {
            List<Map<String, AttributeValue>> keys = new ArrayList<>();
            for (String a : accounts.subList(from, Math.min(from + 100, accounts.size()))) {
                keys.add(key.apply(a));
            }
            BatchGetItemResponse resp =
                    stack.ddb.batchGetItem(
                            b ->
                                    b.requestItems(
                                            Map.of(
                                                    table,
                                                    KeysAndAttributes.builder()
                                                            .keys(keys)
                                                            .build())));
            // unprocessed keys are simply asked again at the next poll
            out.addAll(resp.responses().getOrDefault(table, List.of()));
        }
        return out;
    }

    /** The AP12 key of an account's cash authority. */
    private static Map<String, AttributeValue> authorityKey(String account) {
        AuthorityKey k = AuthorityKey.cash(TENANT, account, "USD");
        return Map.of(Attr.PK, AttributeValue.fromS(k.pk()), Attr.SK, AttributeValue.fromS(k.sk()));
    }

    private Row report(long[] window) {
        List<Long> ms = sorted(freshnessMs);
        List<Long> posted = sorted(postedMs);
        double secs = window[2] > 1 ? (window[1] - window[0]) / 1e9 : 0;
        System.out.printf(
                "FreshnessBenchmark: fills written directly as command-service-shaped"
                        + " TradeExecuted outbox items (SDK TransactWriteItems), DynamoDB Streams"
                        + " transport, parallelism %d, checkpoint %d ms%n",
                num("parallelism", 2), num("checkpointMs", 1000));
        System.out.println("options           " + new java.util.TreeMap<>(opts));
        System.out.printf(
                "offered rate      %,d fills/s (%d s after %d s warm-up, %d writers)%n",
                rate, seconds, warmup, num("writers", 32));
        System.out.printf(
                "achieved rate     %,.0f fills/s (%,d fills accepted in %.1f s; %d write"
                        + " errors)%n",
                secs > 0 ? window[2] / secs : 0.0, window[2], secs, writeErrors.get());
        System.out.printf(
                "samples           %,d visible, %,d never visible within %d s (1 in %d fills,"
                        + " poll every %d ms)%n",
                ms.size(), neverVisible.get(), timeoutMs / 1000, sampleEvery, pollMs);
        if (!ms.isEmpty()) {
            System.out.printf(
                    "freshness ms      p50 %,d  p95 %,d  p99 %,d  max %,d  (goal p99 ≤ 2,000)%n",
                    pct(ms, 50), pct(ms, 95), pct(ms, 99), ms.get(ms.size() - 1));
            System.out.printf(
                    "  of which posted p50 %,d  p95 %,d  p99 %,d  max %,d  (accept → AP12"
                            + " authority; the rest is Ledger stream → gate → view sink)%n",
                    pct(posted, 50),
                    pct(posted, 95),
                    pct(posted, 99),
                    posted.get(posted.size() - 1));
        }
        return new Row(
                rate,
                secs > 0 ? window[2] / secs : 0.0,
                ms.isEmpty() ? -1 : pct(ms, 50),
                ms.isEmpty() ? -1 : pct(ms, 99),
                neverVisible.get(),
                null,
                null,
                null);
    }

    /**
     * One rate's figures: ms CPU per fill by part = jobs, local endpoint, writers + poller, GC /
     * JIT / other (null before the CPU is known).
     */
    private record Row(
            int offered,
            double achieved,
            long p50,
            long p99,
            long never,
            double[] cpu,
            String loadBefore,
            String loadAfter) {

        Row withCpu(double[] parts, String before, String after) {
            return new Row(offered, achieved, p50, p99, never, parts, before, after);
        }
    }

    /** The table of every phase, one row per rate (also for a single rate). */
    private static void sweep(List<Row> rows) {
        System.out.println();
        System.out.println(
                "| offered | achieved | p50 ms | p99 ms | never visible | ms CPU per fill: jobs"
                        + " / endpoint / writers+poller / GC+JIT+other (total) | load before →"
                        + " after |");
        System.out.println("|---|---|---|---|---|---|---|");
        for (Row r : rows) {
            double[] c = r.cpu() == null ? new double[4] : r.cpu();
            System.out.printf(
                    "| %,d/s | %,.0f/s | %,d | %,d | %,d | %.2f / %.2f / %.2f / %.2f (%.2f) | %s"
                            + " → %s |%n",
                    r.offered(),
                    r.achieved(),
                    r.p50(),
                    r.p99(),
                    r.never(),
                    c[0],
                    c[1],
                    c[2],
                    c[3],
                    c[0] + c[1] + c[2] + c[3],
                    r.loadBefore(),
                    r.loadAfter());
        }
    }

    /**
     * CPU of the whole process (endpoint, both jobs, writers, poller): cores busy while driving,
     * and CPU per fill posted from the drive's start to the end — the figure that says how many
     * cores a rate needs on this stack, whatever else the machine runs.
     */
    private static void cpu(long cpuDrive, long wallDrive, long cpuTotal, long posted) {
        System.out.printf(
                "process CPU       %.2f cores busy while driving (of %d); %.2f ms CPU per fill"
                        + " posted (%,d fills, endpoint + jobs + writers in one JVM)%n",
                cpuDrive / (double) wallDrive,
                Runtime.getRuntime().availableProcessors(),
                posted > 0 ? cpuTotal / 1e6 / posted : Double.NaN,
                posted);
    }

    /** CPU of the benchmark's own threads (writers, poller), counted by each as it ends. */
    private final AtomicLong driverCpuNanos = new AtomicLong();

    private Runnable countedCpu(Runnable body) {
        return () -> {
            var mx = java.lang.management.ManagementFactory.getThreadMXBean();
            long c0 = mx.getCurrentThreadCpuTime();
            try {
                body.run();
            } finally {
                driverCpuNanos.addAndGet(mx.getCurrentThreadCpuTime() - c0);
            }
        };
    }

    /** Which part of the one-JVM stack a thread belongs to (names set by each part). */
    static String cpuGroup(String thread) {
        if (thread.startsWith("local-dynamodb-http")) {
            return ENDPOINT;
        }
        if (thread.startsWith(WRITER_THREAD) || thread.equals("freshness-poller")) {
            return DRIVERS;
        }
        return JOBS;
    }

    /**
     * CPU per fill by part: what the product's jobs cost, apart from the local endpoint (on AWS,
     * DynamoDB's CPU is not ours) and the benchmark's own writers and poller.
     */
    private static double[] cpuByPart(Map<String, Long> parts, long cpuTotal, long posted) {
        if (posted <= 0) {
            return new double[4];
        }
        long named = 0;
        for (Map.Entry<String, Long> e : parts.entrySet()) {
            named += e.getValue();
            System.out.printf(
                    "  cpu by part     %-48s %6.2f ms per fill%n",
                    e.getKey(), e.getValue() / 1e6 / posted);
        }
        double other = Math.max(0, cpuTotal - named) / 1e6 / posted;
        System.out.printf(
                "  cpu by part     %-48s %6.2f ms per fill%n",
                "GC, JIT, other ended threads", other);
        return new double[] {
            parts.getOrDefault(JOBS, 0L) / 1e6 / posted,
            parts.getOrDefault(ENDPOINT, 0L) / 1e6 / posted,
            parts.getOrDefault(DRIVERS, 0L) / 1e6 / posted,
            other
        };
    }

    /** Where the pipeline stands at the end: fills posted (inbox receipts) and rows projected. */
    private static long progress(LocalStack stack) {
        long probes =
                stack.scan(stack.portfolioTable()).stream()
                        .filter(r -> r.get("accountId").s().startsWith(PROBE))
                        .count();
        long receipts = stack.scan(stack.table(Tables.INBOX)).size();
        System.out.printf(
                "pipeline at end   %,d fills posted (receipts), %,d probe rows projected%n",
                receipts, probes / 2);
        return receipts;
    }

    private static List<Long> sorted(List<Long> values) {
        List<Long> out = new ArrayList<>(values);
        Collections.sort(out);
        return out;
    }

    private static long pct(List<Long> sorted, int p) {
        int idx = (int) Math.ceil(p / 100.0 * sorted.size()) - 1;
        return sorted.get(Math.max(0, idx));
    }
}
