package io.streamledger.stack;

import io.streamledger.jobs.ledgercheck.LedgerCheckJob;
import io.streamledger.jobs.posting.PostingJob;
import io.streamledger.jobs.projection.ProjectionJob;
import io.streamledger.model.contract.ContractResources;
import io.streamledger.model.projection.ViewScope;
import io.streamledger.model.table.Tables;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The one-command local stack (DESIGN "Operations"): local DynamoDB endpoint with Streams and the
 * model's tables, the command service, a Flink MiniCluster with its web UI running the posting
 * (AP09+AP10+AP12) and projection (AP07/AP13) jobs, a seeded workload through the HTTP API, and a
 * summary at the end or on Ctrl-C. Flags may also come from a properties file ({@code --config},
 * keys are the long option names without dashes, e.g. {@code rate=20/s}).
 */
@Command(
        name = "streamledger-local",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        description =
                "Runs the whole streamledger stack on loopback with a seeded workload and prints a"
                        + " summary.",
        footer = {
            "",
            "Config file: --config FILE (properties; keys = long option names, e.g."
                    + " 'duration=30s'). Flags on the command line win.",
            "Ctrl-C stops the workload early, prints the summary and shuts everything down."
        })
public final class StackMain implements Callable<Integer> {

    /** How the change records reach the jobs. */
    enum Transport {
        dynamodb_streams,
        kinesis
    }

    @Option(names = "--config", paramLabel = "FILE", description = "properties file with defaults")
    File config;

    @Option(
            names = "--duration",
            defaultValue = "60s",
            converter = Converters.DurationConverter.class,
            description = "workload duration (default: ${DEFAULT-VALUE}; 500ms, 15s, 2m)")
    Duration duration;

    @Option(
            names = "--rate",
            defaultValue = "50/s",
            converter = Converters.RateConverter.class,
            description = "workload requests per second (default: ${DEFAULT-VALUE})")
    double rate;

    @Option(names = "--tenants", defaultValue = "3", description = "default: ${DEFAULT-VALUE}")
    int tenants;

    @Option(
            names = "--accounts",
            defaultValue = "4",
            description = "accounts per tenant (default: ${DEFAULT-VALUE})")
    int accounts;

    @Option(
            names = "--symbols",
            defaultValue = "5",
            description = "symbols traded, at most 10 (default: ${DEFAULT-VALUE})")
    int symbols;

    @Option(names = "--seed", defaultValue = "42", description = "workload seed (default: 42)")
    long seed;

    @Option(
            names = "--clients",
            defaultValue = "8",
            description = "concurrent HTTP clients (default: ${DEFAULT-VALUE})")
    int clients;

    @Option(
            names = "--transport",
            defaultValue = "dynamodb_streams",
            description =
                    "dynamodb_streams (default) or kinesis (starts kinesis-local and the outbox"
                            + " relay; needs Node.js)")
    Transport transport;

    @Option(
            names = "--ui-port",
            defaultValue = "8081",
            description = "Flink web UI / REST port (default: ${DEFAULT-VALUE})")
    int uiPort;

    @Option(
            names = "--endpoint-port",
            defaultValue = "0",
            description = "local DynamoDB endpoint port (default: 0 = free port)")
    int endpointPort;

    @Option(
            names = "--command-port",
            defaultValue = "0",
            description = "command service HTTP port (default: 0 = free port)")
    int commandPort;

    @Option(
            names = "--data-dir",
            defaultValue = ".streamledger-local",
            description = "tables, checkpoints, savepoints, logs (default: ${DEFAULT-VALUE})")
    Path dataDir;

    @Option(names = "--reset", description = "wipe the data dir first (default: reuse it)")
    boolean reset;

    @Option(
            names = "--parallelism",
            defaultValue = "1",
            description = "parallelism of each job (default: ${DEFAULT-VALUE})")
    int parallelism;

    @Option(
            names = "--cluster",
            defaultValue = "mini",
            description =
                    "mini (default: Flink MiniCluster in this JVM) or standalone (JobManager and"
                            + " --task-managers TaskManagers as separate JVMs, jobs over REST)")
    String clusterMode;

    @Option(
            names = "--task-managers",
            defaultValue = "2",
            description = "TaskManager processes with --cluster standalone (default: 2)")
    int taskManagers;

    @Option(
            names = "--checkpoint-interval",
            defaultValue = "10s",
            converter = Converters.DurationConverter.class,
            description = "Flink checkpoint interval (default: ${DEFAULT-VALUE})")
    Duration checkpointInterval;

    @Option(
            names = "--state-backend",
            defaultValue = "hashmap",
            description = "hashmap (default) or rocksdb")
    String stateBackend;

    @Option(
            names = "--prometheus-port",
            description = "enable Flink's Prometheus reporter on this port")
    Integer prometheusPort;

    @Option(
            names = "--command-metrics-port",
            description =
                    "serve the command service's GET /metrics (per-AP DynamoDB and HTTP route"
                            + " metrics) on this port (0 = a free port; default: off)")
    Integer commandMetricsPort;

    @Option(
            names = "--drain-timeout",
            defaultValue = "90s",
            converter = Converters.DurationConverter.class,
            description =
                    "after the workload, wait this long for every fill to be posted and projected"
                            + " (default: ${DEFAULT-VALUE})")
    Duration drainTimeout;

    @Option(
            names = "--recon-window",
            defaultValue = "10s",
            converter = Converters.DurationConverter.class,
            description =
                    "AP14 reconciliation window size (event time; default: ${DEFAULT-VALUE}, short"
                            + " enough for a 60 s demo to close batches; production: 15m)")
    Duration reconWindow;

    @Option(
            names = "--recon-lateness",
            defaultValue = "25s",
            converter = Converters.DurationConverter.class,
            description =
                    "allowed lateness: a window's batch closes this long after its end; must cover"
                            + " the fill-to-posting lag (default: ${DEFAULT-VALUE}; production: 5m)")
    Duration reconLateness;

    @Option(
            names = "--recon-out-of-orderness",
            defaultValue = "5s",
            converter = Converters.DurationConverter.class,
            description =
                    "bounded out-of-orderness of business time in the reconciliation"
                            + " (default: ${DEFAULT-VALUE}; production: 30s)")
    Duration reconOutOfOrderness;

    @Option(
            names = "--projection-scope",
            defaultValue = "all",
            description =
                    "accounts the Portfolio view holds: all (default) or clients (house"
                            + " sub-accounts left out; use a fresh --reset data dir, the scope"
                            + " belongs to the namespace)")
    String projectionScope;

    @Option(
            names = "--keep-running",
            description = "after the summary keep everything up until Ctrl-C (to browse the UI)")
    boolean keepRunning;

    @Option(names = "--no-progress", description = "no progress bar (CI logs)")
    boolean noProgress;

    @Option(
            names = "--summary-json",
            paramLabel = "FILE",
            description = "also write the summary as JSON")
    Path summaryJson;

    @Option(
            names = "--measured-lanes",
            paramLabel = "FILE",
            description =
                    "write the measured lane file (rate, units per op, max-key share per LANE row"
                            + " the command service served) for bin/capacity lanes --measured")
    Path measuredLanes;

    private final AtomicBoolean interrupted = new AtomicBoolean();
    private final CountDownLatch finished = new CountDownLatch(1);
    private volatile WorkloadGenerator generator;

    @Override
    public Integer call() throws Exception {
        if (!List.of("mini", "standalone").contains(clusterMode)) {
            throw new CommandLine.ParameterException(
                    new CommandLine(this), "--cluster must be mini or standalone");
        }
        if (!List.of("hashmap", "rocksdb").contains(stateBackend)) {
            throw new CommandLine.ParameterException(
                    new CommandLine(this), "--state-backend must be hashmap or rocksdb");
        }
        long launchMillis = Long.getLong("streamledger.launch.epochMillis", -1L);
        long jvmStartNanos = System.nanoTime();
        dataDir = dataDir.toAbsolutePath().normalize();
        if (reset) {
            wipe(dataDir);
        }
        Files.createDirectories(dataDir);
        System.setProperty("streamledger.log.file", dataDir.resolve("stack.log").toString());
        Thread hook = new Thread(this::onShutdownSignal, "streamledger-local-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);

        Map<String, String> keys = WorkloadGenerator.demoKeys(tenants);
        boolean kinesis = transport == Transport.kinesis;
        System.out.printf(
                Locale.ROOT,
                "streamledger local stack: transport %s, data %s%s%n",
                transport,
                dataDir,
                reset ? " (reset)" : "");
        StackServices services = null;
        StackCluster cluster = null;
        FreshnessProbe probe = null;
        int exit = 0;
        try {
            services =
                    new StackServices(
                            dataDir, endpointPort, commandPort, commandMetricsPort, keys, kinesis);
            System.out.println("  DynamoDB endpoint  " + services.endpoint.endpoint());
            System.out.println("  command service    " + services.commandUrl());
            if (services.metricsServer != null) {
                System.out.println("  command metrics    " + services.commandMetricsUrl());
            }
            if (services.kinesis != null) {
                System.out.println("  kinesis-local      " + services.kinesis.endpoint());
            }
            cluster =
                    new StackCluster(
                            new StackCluster.Settings(
                                    uiPort,
                                    parallelism,
                                    checkpointInterval,
                                    stateBackend,
                                    prometheusPort,
                                    dataDir,
                                    !reset,
                                    clusterMode.equals("standalone") ? taskManagers : 0));
            services.viewScope(ViewScope.parse(projectionScope));
            cluster.submitPosting(services.jobConfig(Tables.CONTEXT, true));
            cluster.submitProjection(services.jobConfig(Tables.LEDGER, false));
            cluster.submitLedgerCheck(services.streamsConfig(Tables.LEDGER));
            StackServices.ReconWindow window =
                    new StackServices.ReconWindow(reconWindow, reconLateness, reconOutOfOrderness);
            cluster.submitReconciliation(services.reconConfig(window));
            System.out.println("  Flink web UI       " + cluster.uiUrl());
            if (prometheusPort != null) {
                System.out.println("  Prometheus         http://127.0.0.1:" + prometheusPort);
            }
            cluster.restoredFrom()
                    .forEach((role, p) -> System.out.println("  " + role + " restored from " + p));
            keys.forEach((t, k) -> System.out.println("  API key            " + t + " -> " + k));
            System.out.println(
                    "  ops (auditor) key  "
                            + OpsLinks.auditorKey("<tenant>")
                            + "  e.g. "
                            + services.commandUrl()
                            + "/v1/ops/breaks");

            awaitTasksRunning(cluster);
            probe = new FreshnessProbe(services.ddb, services.portfolioTable(), 500);
            generator =
                    new WorkloadGenerator(
                            new WorkloadGenerator.Shape(
                                    seed, tenants, accounts, symbols, rate, duration, clients),
                            services.commandUrl(),
                            keys);
            generator.probe(probe);
            ConsoleProgress progress =
                    new ConsoleProgress(generator, probe, jvmStartNanos, !noProgress);
            progress.start();
            try {
                generator.run();
            } finally {
                progress.close();
            }
            LedgerAudit audit = new LedgerAudit(services.ddb, services);
            drain(audit, cluster);
            StackSummary summary =
                    StackSummary.collect(
                            generator,
                            cluster,
                            audit,
                            probe,
                            services,
                            dataDir,
                            transport.name(),
                            window,
                            launchMillis,
                            jvmStartNanos);
            System.out.println(summary.render());
            if (measuredLanes != null) {
                MeasuredLaneFile.write(
                        measuredLanes,
                        MeasuredLaneFile.measure(
                                ContractResources.contract(), services.commandMetrics, duration));
                System.out.println(
                        "measured lanes written to "
                                + measuredLanes
                                + " (bin/capacity lanes --measured "
                                + measuredLanes
                                + ")");
            }
            if (summaryJson != null) {
                summary.writeJson(summaryJson);
            }
            if (keepRunning && !interrupted.get()) {
                System.out.println("everything is still up; Ctrl-C to stop");
                while (!interrupted.get()) {
                    Thread.sleep(500);
                }
            }
        } catch (Exception e) {
            System.err.println("streamledger-local failed: " + e);
            e.printStackTrace();
            exit = 1;
        } finally {
            System.out.println("shutting down ...");
            if (probe != null) {
                probe.close();
            }
            if (cluster != null) {
                cluster.close();
            }
            if (services != null) {
                services.close();
            }
            System.out.println("stopped; data kept in " + dataDir + " (--reset wipes it)");
            finished.countDown();
        }
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException alreadyShuttingDown) {
            // Ctrl-C path: the hook is waiting for us
        }
        return exit;
    }

    /**
     * Starts the workload only once every job's tasks run: records admitted before the posting job
     * reads would be posted long after their reconciliation window, as late records and breaks.
     */
    private void awaitTasksRunning(StackCluster cluster) throws InterruptedException {
        JobMetrics rest = new JobMetrics(cluster.uiUrl());
        long started = System.nanoTime();
        long deadline = started + drainTimeout.toNanos();
        while (System.nanoTime() < deadline && !interrupted.get()) {
            boolean all = true;
            for (var id : cluster.jobs().values()) {
                try {
                    all &= rest.allTasksRunning(id);
                } catch (java.io.IOException e) {
                    all = false; // the REST endpoint is not up yet
                }
            }
            if (all) {
                System.out.printf(
                        Locale.ROOT,
                        "  jobs running        after %.1f s; starting the workload%n",
                        (System.nanoTime() - started) / 1e9);
                return;
            }
            Thread.sleep(250);
        }
        System.out.println("  jobs not all running after --drain-timeout; starting the workload");
    }

    /** Waits until every admitted fill has its inbox receipt and the view equals the authority. */
    private void drain(LedgerAudit audit, StackCluster cluster) throws InterruptedException {
        long fills = generator.routes.get(WorkloadGenerator.ROUTE_FILL).admitted.sum();
        long deadline = System.nanoTime() + drainTimeout.toNanos();
        System.out.printf(
                Locale.ROOT, "draining: waiting for %d fills to be projected ...%n", fills);
        while (System.nanoTime() < deadline && !interrupted.get()) {
            try {
                if (audit.inboxReceipts() >= fills && audit.run().viewMatchesAuthority()) {
                    return;
                }
            } catch (RuntimeException e) {
                // a busy endpoint: try again
            }
            if (cluster.statuses().values().stream().anyMatch(s -> s.equals("FAILED"))) {
                System.out.println("a job FAILED: " + cluster.statuses());
                return;
            }
            Thread.sleep(1000);
        }
        System.out.println("drain ended before everything was projected (see summary)");
    }

    /** Ctrl-C: stop the workload, let the main thread print the summary and close everything. */
    private void onShutdownSignal() {
        interrupted.set(true);
        WorkloadGenerator g = generator;
        if (g != null) {
            g.stop();
        }
        try {
            finished.await(120, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void wipe(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> all = Files.walk(dir)) {
            for (Path p : (Iterable<Path>) all.sorted(Comparator.reverseOrder())::iterator) {
                Files.delete(p);
            }
        }
    }

    /** {@code --config FILE} from the raw arguments, so its values become picocli defaults. */
    static CommandLine commandLine(String[] args) {
        StackMain main = new StackMain();
        CommandLine cmd = new CommandLine(main).setCaseInsensitiveEnumValuesAllowed(true);
        for (int i = 0; i < args.length; i++) {
            String file = null;
            if (args[i].equals("--config") && i + 1 < args.length) {
                file = args[i + 1];
            } else if (args[i].startsWith("--config=")) {
                file = args[i].substring("--config=".length());
            }
            if (file != null) {
                File f = new File(file);
                if (!f.isFile()) {
                    throw new CommandLine.ParameterException(
                            cmd, "--config: no such file '" + file + "'");
                }
                cmd.setDefaultValueProvider(new CommandLine.PropertiesDefaultProvider(f));
            }
        }
        return cmd;
    }

    /** Ids of the jobs the stack runs, for tests and docs. */
    static Map<String, String> jobNames() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put(PostingJob.ROLE, "streamledger posting");
        m.put(ProjectionJob.ROLE, "streamledger projection");
        m.put(LedgerCheckJob.ROLE, "streamledger ledger check");
        m.put(StackCluster.RECON_ROLE, "streamledger reconciliation");
        return m;
    }

    public static void main(String[] args) {
        int code;
        try {
            code = commandLine(args).execute(args);
        } catch (CommandLine.ParameterException e) {
            System.err.println(e.getMessage());
            code = 2;
        }
        System.exit(code);
    }
}
