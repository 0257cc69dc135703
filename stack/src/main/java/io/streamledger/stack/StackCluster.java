package io.streamledger.stack;

import io.streamledger.jobs.deadletter.DeadLetters;
import io.streamledger.jobs.ledgercheck.LedgerCheckJob;
import io.streamledger.jobs.posting.PostingJob;
import io.streamledger.jobs.projection.DynamoDbProjectionSinks;
import io.streamledger.jobs.projection.ProjectionJob;
import io.streamledger.jobs.recon.BreakSinks;
import io.streamledger.jobs.recon.ReconOptions;
import io.streamledger.jobs.recon.ReconciliationJob;
import io.streamledger.jobs.source.ChangeSources;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import javax.annotation.Nullable;
import org.apache.flink.api.common.JobID;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.execution.SavepointFormatType;
import org.apache.flink.runtime.jobgraph.JobGraph;
import org.apache.flink.runtime.jobgraph.SavepointRestoreSettings;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.runtime.minicluster.MiniClusterConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * A local Flink MiniCluster with its web UI (DESIGN "Operations") running every job of the stack —
 * posting (AP09+AP10+AP12) and projection (AP07/AP13) — each as its own Flink job with a fixed
 * JobID, checkpoints under the data dir, and a stop-with-savepoint on close so a reused data dir
 * resumes from where the last run stopped.
 */
final class StackCluster implements AutoCloseable {

    /** Settings of the cluster and its jobs. */
    record Settings(
            int uiPort,
            int parallelism,
            Duration checkpointInterval,
            String stateBackend,
            @Nullable Integer prometheusPort,
            Path dataDir,
            boolean restore,
            int standaloneTaskManagers) {

        /** MiniCluster in this JVM (0) or a standalone session cluster of separate JVMs. */
        boolean standalone() {
            return standaloneTaskManagers > 0;
        }
    }

    /** Role name of the reconciliation job in the stack (its sources have their own roles). */
    static final String RECON_ROLE = "reconciliation";

    /** Fixed ids so checkpoints of successive runs land in the same folder per job. */
    static final Map<String, JobID> JOB_IDS =
            Map.of(
                    PostingJob.ROLE,
                    new JobID(0x53544B4CL, 1L),
                    ProjectionJob.ROLE,
                    new JobID(0x53544B4CL, 2L),
                    LedgerCheckJob.ROLE,
                    new JobID(0x53544B4CL, 3L),
                    RECON_ROLE,
                    new JobID(0x53544B4CL, 4L));

    private final Settings settings;
    private final MiniCluster cluster;
    private final StandaloneCluster standalone;
    private final Map<String, JobID> running = new LinkedHashMap<>();
    private final Map<String, String> restoredFrom = new LinkedHashMap<>();

    StackCluster(Settings settings) throws Exception {
        this.settings = settings;
        Configuration conf = clusterConfig(settings);
        if (settings.standalone()) {
            cluster = null;
            standalone =
                    new StandaloneCluster(
                                    settings.dataDir().resolve("cluster"),
                                    System.getProperty("java.class.path"),
                                    conf,
                                    settings.uiPort())
                            .start(settings.standaloneTaskManagers(), Duration.ofSeconds(120));
        } else {
            standalone = null;
            cluster =
                    new MiniCluster(
                            new MiniClusterConfiguration.Builder()
                                    .setConfiguration(conf)
                                    .setNumTaskManagers(1)
                                    .setNumSlotsPerTaskManager(4 * settings.parallelism() + 2)
                                    .build());
            cluster.start();
        }
    }

    static Configuration clusterConfig(Settings s) {
        Configuration c = new Configuration();
        c.setString("rest.bind-address", "127.0.0.1");
        c.setString("rest.address", "127.0.0.1");
        c.setString("rest.port", Integer.toString(s.uiPort()));
        JobMetrics.configure(c);
        c.setString("execution.checkpointing.interval", s.checkpointInterval().toMillis() + " ms");
        c.setString(
                "execution.checkpointing.externalized-checkpoint-retention",
                "RETAIN_ON_CANCELLATION");
        c.setString("execution.checkpointing.num-retained", "2");
        c.setString("state.backend.type", s.stateBackend());
        c.setString(
                "execution.checkpointing.dir",
                s.dataDir().resolve("checkpoints").toUri().toString());
        c.setString(
                "execution.checkpointing.savepoint-dir",
                s.dataDir().resolve("savepoints").toUri().toString());
        c.setString("restart-strategy.type", "fixed-delay");
        c.setString("restart-strategy.fixed-delay.attempts", "20");
        c.setString("restart-strategy.fixed-delay.delay", "2 s");
        c.setString("taskmanager.memory.network.min", "64 mb");
        c.setString("taskmanager.memory.network.max", "64 mb");
        if (s.prometheusPort() != null) {
            c.setString(
                    "metrics.reporter.prom.factory.class",
                    "org.apache.flink.metrics.prometheus.PrometheusReporterFactory");
            c.setString("metrics.reporter.prom.port", Integer.toString(s.prometheusPort()));
        }
        return c;
    }

    /** Submits the posting job reading {@code conf}'s source. */
    void submitPosting(Configuration conf) throws Exception {
        submit(
                PostingJob.ROLE,
                postingGraph(clusterConfig(settings), settings.parallelism(), conf));
    }

    /** Submits the projection job; gap breaks and dead letters go to their tables. */
    void submitProjection(Configuration conf) throws Exception {
        submit(
                ProjectionJob.ROLE,
                projectionGraph(clusterConfig(settings), settings.parallelism(), conf));
    }

    /** Submits the ledger-check job (CS11 → AP15 break rows) reading the Ledger stream. */
    void submitLedgerCheck(Configuration conf) throws Exception {
        submit(
                LedgerCheckJob.ROLE,
                ledgerCheckGraph(clusterConfig(settings), settings.parallelism(), conf));
    }

    /** Submits the reconciliation job (AP14/AP15) reading the Execution and Ledger streams. */
    void submitReconciliation(Configuration conf) throws Exception {
        submit(RECON_ROLE, reconGraph(clusterConfig(settings), settings.parallelism(), conf));
    }

    /** The ledger-check job's graph with its production sinks. */
    static JobGraph ledgerCheckGraph(
            Configuration clusterConf, int parallelism, Configuration conf) {
        StreamExecutionEnvironment env = env(clusterConf, parallelism, conf);
        new LedgerCheckJob(
                        ChangeSources.fromConfig(conf, LedgerCheckJob.ROLE),
                        BreakSinks.dynamoDb(conf),
                        DeadLetters.sink(
                                conf,
                                DeadLetters.fromSource(
                                        LedgerCheckJob.ROLE, LedgerCheckJob.PARSE_UID)),
                        conf)
                .build(env);
        return graph(env, LedgerCheckJob.ROLE, "streamledger ledger check");
    }

    /** The reconciliation job's graph ({@code conf} names its stream ARNs in ReconOptions). */
    static JobGraph reconGraph(Configuration clusterConf, int parallelism, Configuration conf) {
        StreamExecutionEnvironment env = env(clusterConf, parallelism, conf);
        new ReconciliationJob(
                        ChangeSources.fromConfig(
                                ReconciliationJob.reading(
                                        conf, conf.get(ReconOptions.EXECUTION_STREAM_ARN)),
                                ReconciliationJob.ROLE_EXECUTION),
                        ChangeSources.fromConfig(
                                ReconciliationJob.reading(
                                        conf, conf.get(ReconOptions.LEDGER_STREAM_ARN)),
                                ReconciliationJob.ROLE_LEDGER),
                        ReconciliationJob.ordersSource(conf),
                        ReconciliationJob.Sinks.dynamoDb(conf),
                        ReconciliationJob.positions(conf),
                        conf)
                .build(env);
        return graph(env, RECON_ROLE, "streamledger reconciliation");
    }

    /** The posting job's graph with its production sinks and its fixed JobID. */
    static JobGraph postingGraph(Configuration clusterConf, int parallelism, Configuration conf) {
        StreamExecutionEnvironment env = env(clusterConf, parallelism, conf);
        new PostingJob(
                        ChangeSources.fromConfig(conf, PostingJob.ROLE),
                        PostingJob.Sinks.dynamoDb(conf),
                        conf)
                .build(env);
        return graph(env, PostingJob.ROLE, "streamledger posting");
    }

    /** The projection job's graph with its production sinks. */
    static JobGraph projectionGraph(
            Configuration clusterConf, int parallelism, Configuration conf) {
        StreamExecutionEnvironment env = env(clusterConf, parallelism, conf);
        new ProjectionJob(
                        ChangeSources.fromConfig(conf, ProjectionJob.ROLE),
                        new DynamoDbProjectionSinks(conf),
                        conf)
                .build(env);
        return graph(env, ProjectionJob.ROLE, "streamledger projection");
    }

    private static StreamExecutionEnvironment env(
            Configuration clusterConf, int parallelism, Configuration jobConf) {
        Configuration c = new Configuration(clusterConf);
        c.addAll(jobConf);
        StreamExecutionEnvironment env = new StreamExecutionEnvironment(c);
        env.setParallelism(parallelism);
        return env;
    }

    private static JobGraph graph(StreamExecutionEnvironment env, String role, String name) {
        var streamGraph = env.getStreamGraph();
        streamGraph.setJobName(name);
        JobGraph graph = streamGraph.getJobGraph();
        graph.setJobID(JOB_IDS.get(role));
        return graph;
    }

    private void submit(String role, JobGraph graph) throws Exception {
        if (settings.restore()) {
            Optional<Path> latest = latestSnapshot(role);
            if (latest.isPresent()) {
                graph.setSavepointRestoreSettings(
                        SavepointRestoreSettings.forPath(latest.get().toString(), true));
                restoredFrom.put(role, latest.get().toString());
            }
        }
        if (standalone != null) {
            standalone.submit(graph);
        } else {
            cluster.submitJob(graph).get(60, TimeUnit.SECONDS);
        }
        running.put(role, graph.getJobID());
    }

    /** The newest savepoint or retained checkpoint of a role's job, if any. */
    Optional<Path> latestSnapshot(String role) throws IOException {
        List<Path> candidates = new ArrayList<>();
        Path checkpoints =
                settings.dataDir().resolve("checkpoints").resolve(JOB_IDS.get(role).toString());
        Path savepoints = settings.dataDir().resolve("savepoints").resolve(role);
        for (Path root : List.of(checkpoints, savepoints)) {
            if (Files.isDirectory(root)) {
                try (Stream<Path> dirs = Files.list(root)) {
                    dirs.filter(d -> Files.isRegularFile(d.resolve("_metadata")))
                            .forEach(candidates::add);
                }
            }
        }
        return candidates.stream()
                .max(Comparator.comparingLong(d -> d.resolve("_metadata").toFile().lastModified()));
    }

    Map<String, JobID> jobs() {
        return running;
    }

    Map<String, String> restoredFrom() {
        return restoredFrom;
    }

    String uiUrl() {
        try {
            return standalone != null
                    ? standalone.restUrl()
                    : cluster.getRestAddress().get(10, TimeUnit.SECONDS).toString();
        } catch (Exception e) {
            return "http://127.0.0.1:" + settings.uiPort();
        }
    }

    /** Status of each job, e.g. {@code posting=RUNNING}. */
    Map<String, String> statuses() {
        Map<String, String> out = new LinkedHashMap<>();
        running.forEach(
                (role, id) -> {
                    try {
                        out.put(
                                role,
                                standalone != null
                                        ? String.valueOf(standalone.jobFacts(id).get("state"))
                                        : cluster.getJobStatus(id).get(5, TimeUnit.SECONDS).name());
                    } catch (Exception e) {
                        out.put(role, "UNKNOWN");
                    }
                });
        return out;
    }

    /**
     * Stops every job with a savepoint under {@code savepoints/<role>} (falls back to cancel, whose
     * retained checkpoint is then the restore point) and closes the cluster.
     */
    @Override
    public void close() {
        running.forEach(
                (role, id) -> {
                    String dir =
                            settings.dataDir()
                                    .resolve("savepoints")
                                    .resolve(role)
                                    .toUri()
                                    .toString();
                    try {
                        String sp =
                                standalone != null
                                        ? standalone.stopWithSavepoint(id, dir)
                                        : cluster.stopWithSavepoint(
                                                        id,
                                                        dir,
                                                        false,
                                                        SavepointFormatType.CANONICAL)
                                                .get(60, TimeUnit.SECONDS);
                        System.out.printf(
                                Locale.ROOT, "  %s job stopped, savepoint %s%n", role, sp);
                    } catch (Exception e) {
                        System.out.printf(
                                Locale.ROOT,
                                "  %s job: savepoint failed (%s); cancelling%n",
                                role,
                                e.getClass().getSimpleName());
                        try {
                            if (cluster != null) {
                                cluster.cancelJob(id).get(30, TimeUnit.SECONDS);
                            }
                        } catch (Exception ignored) {
                            // the cluster close below ends it anyway
                        }
                    }
                });
        running.clear();
        try {
            if (standalone != null) {
                standalone.close();
            } else {
                cluster.close();
            }
        } catch (Exception e) {
            System.err.println("cluster close failed: " + e);
        }
    }
}
