package io.streamledger.stack;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.flink.api.common.JobID;
import org.apache.flink.client.deployment.StandaloneClusterId;
import org.apache.flink.client.program.rest.RestClusterClient;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.CoreOptions;
import org.apache.flink.runtime.jobgraph.JobGraph;

/**
 * A real multi-process Flink standalone session cluster: one JobManager and N TaskManagers as
 * separate JVMs started from this classpath with Flink's own entry points, jobs submitted over
 * REST. The project's classes are on every process's classpath, so no jar is uploaded. Used by the
 * TaskManager-kill test (CS09-style recovery from a checkpoint).
 */
final class StandaloneCluster implements AutoCloseable {

    static final String JOBMANAGER_MAIN =
            "org.apache.flink.runtime.entrypoint.StandaloneSessionClusterEntrypoint";
    static final String TASKMANAGER_MAIN =
            "org.apache.flink.runtime.taskexecutor.TaskManagerRunner";

    private static final List<String> JVM_OPENS =
            List.of(
                    "--add-opens=java.base/java.lang=ALL-UNNAMED",
                    "--add-opens=java.base/java.util=ALL-UNNAMED",
                    "--add-opens=java.base/java.lang.reflect=ALL-UNNAMED",
                    "--add-opens=java.base/java.io=ALL-UNNAMED",
                    "--add-opens=java.base/java.nio=ALL-UNNAMED",
                    "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED",
                    "--add-opens=java.base/java.net=ALL-UNNAMED",
                    "--add-opens=java.base/java.time=ALL-UNNAMED",
                    "--add-opens=java.base/java.math=ALL-UNNAMED",
                    "--add-opens=java.base/java.util.concurrent=ALL-UNNAMED",
                    "--add-opens=java.base/java.util.concurrent.atomic=ALL-UNNAMED",
                    "--add-opens=java.base/java.text=ALL-UNNAMED");

    private static final ObjectMapper JSON = new ObjectMapper();

    private final Path dir;
    private final String classpath;
    private final int restPort;
    private final Configuration conf;
    private final HttpClient http = HttpClient.newHttpClient();
    private Process jobManager;
    private final List<Process> taskManagers = new ArrayList<>();

    /**
     * @param dir conf dir, logs, checkpoints
     * @param clusterConf Flink options (checkpointing, state backend, restart strategy ...)
     */
    StandaloneCluster(Path dir, String classpath, Configuration clusterConf) throws IOException {
        this(dir, classpath, clusterConf, 0);
    }

    /** With a fixed REST/web UI port ({@code 0} = a free one). */
    StandaloneCluster(Path dir, String classpath, Configuration clusterConf, int restPort)
            throws IOException {
        this.dir = dir;
        this.classpath = classpath;
        this.restPort = restPort > 0 ? restPort : freePort();
        this.conf = new Configuration(clusterConf);
        conf.setString("jobmanager.rpc.address", "127.0.0.1");
        conf.setString("jobmanager.rpc.port", Integer.toString(freePort()));
        conf.setString("jobmanager.bind-host", "127.0.0.1");
        conf.setString("taskmanager.bind-host", "127.0.0.1");
        conf.setString("taskmanager.host", "127.0.0.1");
        conf.setString("rest.address", "127.0.0.1");
        conf.setString("rest.bind-address", "127.0.0.1");
        conf.setString("rest.port", Integer.toString(this.restPort));
        conf.setString("jobmanager.memory.process.size", "768m");
        // what Flink's start scripts compute (BashJavaUtils) and pass to TaskManagerRunner
        conf.setString("taskmanager.cpu.cores", "4");
        conf.setString("taskmanager.memory.framework.heap.size", "64m");
        conf.setString("taskmanager.memory.task.heap.size", "256m");
        conf.setString("taskmanager.memory.managed.size", "128m");
        conf.setString("taskmanager.memory.framework.off-heap.size", "64m");
        conf.setString("taskmanager.memory.task.off-heap.size", "0m");
        conf.setString("taskmanager.memory.network.min", "64m");
        conf.setString("taskmanager.memory.network.max", "64m");
        conf.setString("taskmanager.memory.jvm-metaspace.size", "128m");
        conf.setString("taskmanager.memory.jvm-overhead.min", "96m");
        conf.setString("taskmanager.memory.jvm-overhead.max", "96m");
        conf.setString("taskmanager.numberOfTaskSlots", "4");
        // a killed TaskManager is noticed within seconds, not the default 50 s
        conf.setString("heartbeat.interval", "1000");
        conf.setString("heartbeat.timeout", "6000");
        JobMetrics.configure(conf);
        Files.createDirectories(dir.resolve("conf"));
        Files.createDirectories(dir.resolve("log"));
        StringBuilder yaml = new StringBuilder();
        conf.toMap().forEach((k, v) -> yaml.append(k).append(": ").append(v).append('\n'));
        Files.writeString(dir.resolve("conf/config.yaml"), yaml.toString());
    }

    /** Starts the JobManager and {@code n} TaskManagers and waits until all registered. */
    StandaloneCluster start(int n, Duration timeout) throws Exception {
        try {
            return startProcesses(n, timeout);
        } catch (Exception | Error e) {
            // the caller never gets the instance to close: leave no process behind
            close();
            throw e;
        }
    }

    private StandaloneCluster startProcesses(int n, Duration timeout) throws Exception {
        jobManager = launch(JOBMANAGER_MAIN, "jobmanager");
        for (int i = 0; i < n; i++) {
            taskManagers.add(launch(TASKMANAGER_MAIN, "taskmanager-" + i));
        }
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            try {
                if (get("/taskmanagers").path("taskmanagers").size() == n) {
                    return this;
                }
            } catch (IOException notYet) {
                // REST endpoint not up yet
            }
            if (!jobManager.isAlive()) {
                throw new IllegalStateException(
                        "JobManager exited; see " + dir.resolve("log/jobmanager.out"));
            }
            Thread.sleep(500);
        }
        throw new IllegalStateException(
                "TaskManagers did not register within " + timeout + "; " + logTails());
    }

    /** The last lines of every process's output, for failure messages (temp dirs vanish). */
    String logTails() {
        StringBuilder b = new StringBuilder();
        try (var files = Files.list(dir.resolve("log"))) {
            for (Path f : (Iterable<Path>) files.sorted()::iterator) {
                List<String> lines = Files.readAllLines(f);
                b.append("\n--- ").append(f.getFileName()).append('\n');
                lines.subList(Math.max(0, lines.size() - 15), lines.size())
                        .forEach(l -> b.append(l).append('\n'));
            }
        } catch (IOException e) {
            b.append("(logs unreadable: ").append(e).append(')');
        }
        return b.toString();
    }

    private Process launch(String main, String name) throws IOException {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.add("-Xmx384m");
        cmd.add("-XX:MaxDirectMemorySize=384m");
        cmd.addAll(JVM_OPENS);
        // Flink's own option for extra JVM flags of every process (the launcher scripts read it)
        for (String opt : conf.get(CoreOptions.FLINK_JVM_OPTIONS).trim().split("\\s+")) {
            if (!opt.isEmpty()) {
                cmd.add(opt);
            }
        }
        String log4j = System.getProperty("log4j2.configurationFile");
        if (log4j != null) {
            cmd.add("-Dlog4j2.configurationFile=" + log4j);
        }
        cmd.add("-Dstreamledger.log.file=" + dir.resolve("log/" + name + ".log"));
        cmd.add("-cp");
        cmd.add(classpath);
        cmd.add(main);
        cmd.add("--configDir");
        cmd.add(dir.resolve("conf").toString());
        if (main.equals(TASKMANAGER_MAIN)) {
            // the REST API names TaskManagers by resource id: make it the process name
            cmd.add("-Dtaskmanager.resource-id=" + name);
        }
        return new ProcessBuilder(cmd)
                .redirectErrorStream(true)
                .redirectOutput(dir.resolve("log/" + name + ".out").toFile())
                .start();
    }

    /** Submits a job graph over REST (classes are on the cluster's classpath: no jar upload). */
    JobID submit(JobGraph graph) throws Exception {
        try (RestClusterClient<StandaloneClusterId> client =
                new RestClusterClient<>(conf, StandaloneClusterId.getInstance())) {
            return client.submitJob(graph).get(60, TimeUnit.SECONDS);
        }
    }

    /** Stops a job with a savepoint under {@code dir}; the savepoint path. */
    String stopWithSavepoint(JobID id, String dir) throws Exception {
        try (RestClusterClient<StandaloneClusterId> client =
                new RestClusterClient<>(conf, StandaloneClusterId.getInstance())) {
            return client.stopWithSavepoint(
                            id,
                            false,
                            dir,
                            org.apache.flink.core.execution.SavepointFormatType.CANONICAL)
                    .get(60, TimeUnit.SECONDS);
        }
    }

    String restUrl() {
        return "http://127.0.0.1:" + restPort;
    }

    List<Process> taskManagers() {
        return taskManagers;
    }

    /** Index of a TaskManager that runs tasks (fewest free slots). */
    int busiestTaskManager() throws IOException, InterruptedException {
        int best = 0;
        int fewest = Integer.MAX_VALUE;
        for (JsonNode tm : get("/taskmanagers").path("taskmanagers")) {
            String id = tm.path("id").asText();
            int free = tm.path("freeSlots").asInt();
            if (id.startsWith("taskmanager-") && free < fewest) {
                fewest = free;
                best = Integer.parseInt(id.substring("taskmanager-".length()));
            }
        }
        return best;
    }

    /** Kills one TaskManager process by its PID (SIGKILL): no clean shutdown. */
    long killTaskManager(int index) throws InterruptedException {
        Process p = taskManagers.get(index);
        long pid = p.pid();
        p.destroyForcibly();
        p.waitFor(10, TimeUnit.SECONDS);
        return pid;
    }

    /** Job status, restarts and checkpoint counts from the REST API. */
    Map<String, Object> jobFacts(JobID id) throws IOException, InterruptedException {
        Map<String, Object> out = new LinkedHashMap<>();
        JsonNode job = get("/jobs/" + id);
        out.put("state", job.path("state").asText());
        JsonNode cps = get("/jobs/" + id + "/checkpoints");
        out.put("completedCheckpoints", cps.path("counts").path("completed").asLong());
        out.put("restored", cps.path("latest").path("restored").path("id").asLong(-1));
        JsonNode restarts = get("/jobs/" + id + "/metrics?get=numRestarts");
        long n = 0;
        for (JsonNode m : restarts) {
            n = Math.round(m.path("value").asDouble());
        }
        out.put("numRestarts", n);
        // the exception history is read live; numRestarts comes from the sampled metric store
        JsonNode failures = get("/jobs/" + id + "/exceptions");
        out.put("failovers", (long) failures.path("exceptionHistory").path("entries").size());
        return out;
    }

    JsonNode get(String path) throws IOException, InterruptedException {
        HttpResponse<String> r =
                http.send(
                        HttpRequest.newBuilder(URI.create(restUrl() + path))
                                .timeout(Duration.ofSeconds(10))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() != 200) {
            throw new IOException("GET " + path + " -> " + r.statusCode());
        }
        return JSON.readTree(r.body());
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    /** Stops every process (TaskManagers first), waiting for each; nothing is left running. */
    @Override
    public void close() {
        List<Process> all = new ArrayList<>(taskManagers);
        if (jobManager != null) {
            all.add(jobManager);
        }
        for (Process p : all) {
            p.destroy();
        }
        for (Process p : all) {
            try {
                if (!p.waitFor(15, TimeUnit.SECONDS)) {
                    p.destroyForcibly();
                    p.waitFor(10, TimeUnit.SECONDS);
                }
            } catch (InterruptedException e) {
                p.destroyForcibly();
                Thread.currentThread().interrupt();
            }
        }
    }
}
