package io.streamledger.local;

import io.streamledger.local.kinesis.KinesisDestinationOptions;
import io.streamledger.local.streams.StreamFeatures;
import io.streamledger.local.streams.StreamsOptions;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** Runs the local endpoint from the command line (the one-command demo stack for CS01–CS09). */
@Command(
        name = "streamledger-local",
        mixinStandardHelpOptions = true,
        description = "Local DynamoDB-compatible endpoint (AWS JSON 1.0 over HTTP).")
public final class LocalEndpointMain implements Callable<Integer> {
    @Option(names = "--port", defaultValue = "8000", description = "Port (0 = random).")
    int port;

    @Option(names = "--host", defaultValue = "127.0.0.1", description = "Address to bind.")
    String host;

    @Option(names = "--data-dir", description = "Persist to this directory (default: in memory).")
    Path dataDir;

    @Option(names = "--fsync", description = "fsync every write-ahead log record.")
    boolean fsync;

    @Option(names = "--stream-shards", defaultValue = "2", description = "Open shards per stream.")
    int streamShards;

    @Option(
            names = "--export-dir",
            description = "Root of table exports (default: <data-dir>/exports or a temp dir).")
    Path exportDir;

    @Option(
            names = "--require-auth",
            description = "Refuse requests without a SigV4 Authorization header, as DynamoDB does.")
    boolean requireAuth;

    @Option(
            names = "--ttl-sweep-seconds",
            defaultValue = "5",
            description =
                    "Seconds between TTL sweeps, the most an expired item outlives its TTL"
                            + " (0 = no background sweeper; POST /__admin/ttl/sweep runs one).")
    long ttlSweepSeconds;

    @Option(
            names = "--kinesis-endpoint",
            description =
                    "Kinesis endpoint for Kinesis streaming destinations, e.g. kinesis-local.")
    URI kinesisEndpoint;

    /** Streams, export and (with --kinesis-endpoint) Kinesis-destination features. */
    StreamFeatures streamFeatures() {
        StreamFeatures f =
                StreamFeatures.defaults()
                        .withStreams(StreamsOptions.builder().shardsPerTable(streamShards).build());
        if (exportDir != null) {
            f = f.withExportRoot(exportDir);
        }
        if (kinesisEndpoint != null) {
            f =
                    f.withKinesisDestination(
                            KinesisDestinationOptions.builder()
                                    .kinesisEndpoint(kinesisEndpoint)
                                    .build());
        }
        return f;
    }

    public static void main(String[] args) {
        System.exit(new CommandLine(new LocalEndpointMain()).execute(args));
    }

    @Override
    public Integer call() throws InterruptedException {
        LocalEndpoint endpoint =
                LocalEndpoint.builder()
                        .host(host)
                        .port(port)
                        .dataDir(dataDir)
                        .fsync(fsync)
                        .requireAuthentication(requireAuth)
                        .ttlSweepInterval(
                                ttlSweepSeconds > 0 ? Duration.ofSeconds(ttlSweepSeconds) : null)
                        .streamFeatures(streamFeatures())
                        .build()
                        .start();
        // machine-readable line for launchers: the port actually bound
        System.out.println("LISTENING " + endpoint.endpoint());
        System.out.flush();
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime()
                .addShutdownHook(
                        new Thread(
                                () -> {
                                    endpoint.close();
                                    stopped.countDown();
                                }));
        stopped.await();
        return 0;
    }
}
