package io.streamledger.local.kinesis;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.kinesis.KinesisClient;
import software.amazon.awssdk.services.kinesis.model.ResourceInUseException;
import software.amazon.awssdk.services.kinesis.model.StreamStatus;

/**
 * A running {@code kinesis-local} (kinesis-mock) process on two free loopback ports: the plain-HTTP
 * port is the endpoint the AWS SDK and Flink's Kinesis source/sink use; stop it with {@link
 * #close()} (by PID, SIGKILL fallback). The Kinesis side of the CS06/CS07 consumer tests.
 */
public final class KinesisLocal implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(KinesisLocal.class);

    public static final String REGION = "us-east-1";
    public static final String ACCOUNT = "000000000000";
    public static final String ACCESS_KEY = "local";
    public static final String SECRET_KEY = "local";

    private static final Duration START_TIMEOUT = Duration.ofSeconds(60);
    private static final int START_ATTEMPTS = 3;
    private static final Duration STOP_GRACE = Duration.ofSeconds(5);
    private static final Duration ACTIVE_TIMEOUT = Duration.ofSeconds(30);

    /**
     * Open shards allowed across all streams (kinesis-mock's default is 50). kinesis-local's
     * PutRecords hashes the target shard's whole record vector once per entry, so its cost grows
     * with the records already in the shard; spreading a large run over many shards keeps each
     * shard short (local/README.md "Kinesis Data Streams for DynamoDB").
     */
    public static final int SHARD_LIMIT = 1_000;

    /**
     * V8's young generation per semi-space, in MB (Node's default is 16). kinesis-local (Scala.js)
     * allocates heavily per record; with the default it spent about a third of its time in the
     * scavenger during a PutRecords run, with 64 MB about a tenth (jobs/README.md "Known issue").
     */
    static final int NODE_SEMI_SPACE_MB = 64;

    private final Process process;
    private final int plainPort;
    private final int tlsPort;
    private final Path logFile;
    private final Thread shutdownHook;
    private volatile KinesisClient client;

    private KinesisLocal(Process process, int plainPort, int tlsPort, Path logFile) {
        this.process = process;
        this.plainPort = plainPort;
        this.tlsPort = tlsPort;
        this.logFile = logFile;
        this.shutdownHook = new Thread(this::stopProcess, "kinesis-local-shutdown-" + plainPort);
        Runtime.getRuntime().addShutdownHook(shutdownHook);
    }

    /** Installs (if needed) and starts kinesis-local in the default cache directory. */
    public static KinesisLocal start() {
        return start(KinesisLocalInstaller.cacheDir());
    }

    /**
     * Installs (if needed) kinesis-local into {@code cacheDir} and starts it; a start that fails
     * (e.g. another process took a probed port before node bound it) is retried with new ports.
     */
    public static KinesisLocal start(Path cacheDir) {
        Path pkg = KinesisLocalInstaller.ensureInstalled(cacheDir);
        RuntimeException last = null;
        for (int attempt = 1; attempt <= START_ATTEMPTS; attempt++) {
            try {
                return startOnce(cacheDir, pkg);
            } catch (IllegalStateException e) {
                last = e;
                LOG.warn("kinesis-local start attempt {} failed: {}", attempt, e.getMessage());
            }
        }
        throw last;
    }

    private static KinesisLocal startOnce(Path cacheDir, Path pkg) {
        int[] ports = freePorts(2);
        Path logFile;
        Process process;
        try {
            Path logs = Files.createDirectories(cacheDir.resolve("logs"));
            logFile = logs.resolve("kinesis-local-" + ports[0] + ".log");
            ProcessBuilder builder =
                    new ProcessBuilder(
                                    List.of(
                                            "node",
                                            "--max-semi-space-size=" + NODE_SEMI_SPACE_MB,
                                            pkg.resolve("main.js").toString()))
                            .directory(pkg.toFile())
                            .redirectErrorStream(true)
                            .redirectOutput(logFile.toFile());
            Map<String, String> env = builder.environment();
            env.put("KINESIS_MOCK_CERT_PATH", pkg.resolve("server.json").toString());
            env.put("KINESIS_MOCK_PLAIN_PORT", Integer.toString(ports[0]));
            env.put("KINESIS_MOCK_TLS_PORT", Integer.toString(ports[1]));
            env.put("LOG_LEVEL", "WARN");
            env.put("SHARD_LIMIT", Integer.toString(SHARD_LIMIT));
            // kinesis-mock's default 500 ms delays make stream creation slow in tests
            env.put("CREATE_STREAM_DURATION", "100ms");
            env.put("DELETE_STREAM_DURATION", "100ms");
            process = builder.start();
        } catch (IOException e) {
            throw new IllegalStateException(
                    "Cannot start kinesis-local. " + KinesisLocalInstaller.PREREQUISITE, e);
        }
        KinesisLocal local = new KinesisLocal(process, ports[0], ports[1], logFile);
        try {
            local.awaitPort();
        } catch (RuntimeException e) {
            local.close();
            throw e;
        }
        LOG.info("kinesis-local pid {} listening on {}", process.pid(), local.endpoint());
        return local;
    }

    /** {@code http://127.0.0.1:<plain port>}; send traffic only to loopback. */
    public URI endpoint() {
        return URI.create("http://127.0.0.1:" + plainPort);
    }

    public int plainPort() {
        return plainPort;
    }

    public int tlsPort() {
        return tlsPort;
    }

    public long pid() {
        return process.pid();
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    public Path logFile() {
        return logFile;
    }

    /** ARN of a stream on this endpoint, as Flink's KinesisStreamsSource expects it. */
    public static String streamArn(String streamName) {
        return "arn:aws:kinesis:" + REGION + ":" + ACCOUNT + ":stream/" + streamName;
    }

    /** A shared SDK v2 client for this endpoint (closed by {@link #close()}). */
    public KinesisClient client() {
        KinesisClient c = client;
        if (c == null) {
            synchronized (this) {
                if (client == null) {
                    client = newClient(endpoint());
                }
                c = client;
            }
        }
        return c;
    }

    /** A new SDK v2 client for any kinesis-local endpoint with the dummy credentials. */
    public static KinesisClient newClient(URI endpoint) {
        return KinesisClient.builder()
                .endpointOverride(endpoint)
                .region(Region.of(REGION))
                .credentialsProvider(
                        StaticCredentialsProvider.create(
                                AwsBasicCredentials.create(ACCESS_KEY, SECRET_KEY)))
                .httpClient(UrlConnectionHttpClient.create())
                .build();
    }

    /** Creates a stream (an existing one is kept) and waits until it is ACTIVE; returns its ARN. */
    public String createStream(String name, int shards) {
        try {
            client().createStream(b -> b.streamName(name).shardCount(shards));
        } catch (ResourceInUseException alreadyThere) {
            LOG.debug("stream {} exists", name);
        }
        waitActive(name);
        return streamArn(name);
    }

    /** Polls DescribeStreamSummary until the stream is ACTIVE. */
    public void waitActive(String name) {
        long deadline = System.nanoTime() + ACTIVE_TIMEOUT.toNanos();
        while (true) {
            StreamStatus status =
                    client().describeStreamSummary(b -> b.streamName(name))
                            .streamDescriptionSummary()
                            .streamStatus();
            if (status == StreamStatus.ACTIVE) {
                return;
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException(
                        "Stream " + name + " still " + status + " after " + ACTIVE_TIMEOUT);
            }
            sleep(100);
        }
    }

    /** Stops the process (destroy, then SIGKILL after a grace period) and closes the client. */
    @Override
    public void close() {
        KinesisClient c = client;
        if (c != null) {
            c.close();
        }
        stopProcess();
        try {
            Runtime.getRuntime().removeShutdownHook(shutdownHook);
        } catch (IllegalStateException shuttingDown) {
            // the hook is running or has run; nothing to remove
        }
    }

    private void stopProcess() {
        if (!process.isAlive()) {
            return;
        }
        List<ProcessHandle> children = process.descendants().toList();
        process.destroy();
        try {
            if (!process.waitFor(STOP_GRACE.toMillis(), TimeUnit.MILLISECONDS)) {
                LOG.warn("kinesis-local pid {} ignored SIGTERM; sending SIGKILL", process.pid());
                process.destroyForcibly();
                process.waitFor(STOP_GRACE.toMillis(), TimeUnit.MILLISECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
        children.forEach(ProcessHandle::destroyForcibly);
    }

    private void awaitPort() {
        long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IllegalStateException(
                        "kinesis-local exited with code "
                                + process.exitValue()
                                + ":\n"
                                + logTail());
            }
            try (Socket socket = new Socket()) {
                socket.connect(
                        new InetSocketAddress(InetAddress.getLoopbackAddress(), plainPort), 200);
                return;
            } catch (IOException notYet) {
                sleep(100);
            }
        }
        throw new IllegalStateException(
                "kinesis-local did not open port "
                        + plainPort
                        + " within "
                        + START_TIMEOUT
                        + ":\n"
                        + logTail());
    }

    private String logTail() {
        try {
            String text = Files.readString(logFile, StandardCharsets.UTF_8);
            return text.length() > 4000 ? text.substring(text.length() - 4000) : text;
        } catch (IOException e) {
            return "(no log: " + e.getMessage() + ")";
        }
    }

    private static int[] freePorts(int n) {
        ServerSocket[] sockets = new ServerSocket[n];
        int[] ports = new int[n];
        try {
            for (int i = 0; i < n; i++) { // hold all open so the ports differ
                sockets[i] = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
                ports[i] = sockets[i].getLocalPort();
            }
        } catch (IOException e) {
            throw new UncheckedIOException("No free loopback port", e);
        } finally {
            for (ServerSocket s : sockets) {
                if (s != null) {
                    try {
                        s.close();
                    } catch (IOException ignored) {
                        // closing a probe socket
                    }
                }
            }
        }
        return ports;
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted", e);
        }
    }
}
