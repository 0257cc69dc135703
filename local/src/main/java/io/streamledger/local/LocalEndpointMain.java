package io.streamledger.local;

import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** Runs the local endpoint from the command line (the one-command demo stack, CS10). */
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
