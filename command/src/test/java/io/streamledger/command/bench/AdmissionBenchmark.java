package io.streamledger.command.bench;

import io.streamledger.aws.retry.RetryPolicy;
import io.streamledger.command.api.HttpApi;
import io.streamledger.command.auth.ApiKeyAuthenticator;
import io.streamledger.command.config.CommandService;
import io.streamledger.command.config.ServiceConfig;
import io.streamledger.command.config.TableProvisioner;
import io.streamledger.command.testing.CommandFixture;
import io.streamledger.local.LocalEndpoint;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * Benchmark (a main, not a test) of accepted_order_v1 over HTTP against the local endpoint:
 * accepted orders/s and p50/p99 latency for 16 and 64 concurrent clients (seed AP08 peak: 2,000/s).
 *
 * <p>Run: {@code mvn -q -pl command -am test-compile exec:java -Dexec.classpathScope=test
 * -Dexec.mainClass=io.streamledger.command.bench.AdmissionBenchmark [-Dexec.args="8"]}
 */
public final class AdmissionBenchmark {

    public static void main(String[] args) throws Exception {
        int seconds = args.length > 0 ? Integer.parseInt(args[0]) : 8;
        // the local endpoint serves with the JDK HttpServer, which delays small responses by the
        // TCP delayed-ACK interval (~40 ms) unless told to set TCP_NODELAY
        System.setProperty("sun.net.httpserver.nodelay", "true");
        try (LocalEndpoint endpoint = LocalEndpoint.builder().port(0).build().start()) {
            DynamoDbClient client = CommandFixture.client(endpoint.endpoint());
            String prefix = "bench-";
            TableProvisioner.createAll(client, prefix);
            System.out.println("tables created at " + java.time.Instant.now());
            CommandService service =
                    new CommandService(
                            client,
                            // unfunded bench accounts: held without cover, same writes (AP12)
                            ServiceConfig.defaults(prefix)
                                    .withOverdraftExemptPrefixes(java.util.Set.of("BENCH-")),
                            RetryPolicy.defaults());
            String key = "bench-key";
            try (HttpApi http =
                    service.http(ApiKeyAuthenticator.builder().key("bench", key).build())
                            .start("127.0.0.1", 0)) {
                HttpClient web =
                        HttpClient.newBuilder()
                                .version(HttpClient.Version.HTTP_1_1)
                                .executor(Executors.newFixedThreadPool(8))
                                .build();
                System.out.printf(
                        "accepted_order_v1 over HTTP -> command service -> local endpoint (%d cores)%n",
                        Runtime.getRuntime().availableProcessors());
                // JIT warm-up matters a lot on a starved 2-core machine
                run(web, http.port(), key, 16, Math.max(5, seconds), "warmup");
                for (int clients : new int[] {16, 64}) {
                    long retriesBefore = service.ddb().retrying().retries();
                    run(web, http.port(), key, clients, seconds, "measure");
                    System.out.printf(
                            "  DynamoDB retries (throttle/5xx/conflict) during the run: %d%n",
                            service.ddb().retrying().retries() - retriesBefore);
                }
            }
            client.close();
        }
        // the endpoint's and clients' pools need not linger once the figures are printed
        System.exit(0);
    }

    private static void run(
            HttpClient web, int port, String key, int clients, int seconds, String phase)
            throws Exception {
        long end = System.nanoTime() + Duration.ofSeconds(seconds).toNanos();
        AtomicLong seq = new AtomicLong();
        AtomicLong errors = new AtomicLong();
        ExecutorService pool = Executors.newFixedThreadPool(clients);
        List<Future<long[]>> futures = new ArrayList<>();
        URI uri = URI.create("http://127.0.0.1:" + port + "/v1/orders");
        String run = phase + clients + "-" + System.nanoTime();
        for (int c = 0; c < clients; c++) {
            futures.add(
                    pool.submit(
                            () -> {
                                long[] lat = new long[200_000];
                                int n = 0;
                                while (System.nanoTime() < end && n < lat.length) {
                                    long id = seq.incrementAndGet();
                                    String body =
                                            CommandFixture.order(
                                                    run + "-" + id, "BENCH-" + (id % 512), "1");
                                    HttpRequest req =
                                            HttpRequest.newBuilder(uri)
                                                    .header(HttpApi.HEADER_API_KEY, key)
                                                    .header(
                                                            HttpApi.HEADER_IDEMPOTENCY_KEY,
                                                            run + "-" + id)
                                                    .header("Content-Type", "application/json")
                                                    .POST(HttpRequest.BodyPublishers.ofString(body))
                                                    .build();
                                    long t0 = System.nanoTime();
                                    HttpResponse<String> r =
                                            web.send(req, HttpResponse.BodyHandlers.ofString());
                                    long t = System.nanoTime() - t0;
                                    if (r.statusCode() == 201) {
                                        lat[n++] = t;
                                    } else {
                                        errors.incrementAndGet();
                                    }
                                }
                                return Arrays.copyOf(lat, n);
                            }));
        }
        long start = System.nanoTime();
        long cpu0 = processCpuNanos();
        System.out.println(phase + " " + clients + " started at " + java.time.Instant.now());
        List<long[]> all = new ArrayList<>();
        for (Future<long[]> f : futures) {
            all.add(f.get());
        }
        double elapsed = (System.nanoTime() - start) / 1e9;
        System.out.println(phase + " " + clients + " ended at " + java.time.Instant.now());
        pool.shutdown();
        long[] merged = all.stream().flatMapToLong(Arrays::stream).sorted().toArray();
        if ("measure".equals(phase)) {
            System.out.printf(
                    "clients=%d accepted=%d errors=%d orders/s=%.0f p50=%.1fms p99=%.1fms%n",
                    clients,
                    merged.length,
                    errors.get(),
                    merged.length / elapsed,
                    pct(merged, 0.50),
                    pct(merged, 0.99));
            // CPU of client + service + endpoint, all in this JVM: the machine-independent cost
            double cpuMsPerOrder = (processCpuNanos() - cpu0) / 1e6 / Math.max(1, merged.length);
            int cores = Runtime.getRuntime().availableProcessors();
            System.out.printf(
                    "  process CPU per accepted order: %.2f ms -> at most %.0f orders/s on %d"
                            + " dedicated cores%n",
                    cpuMsPerOrder, cores * 1000 / cpuMsPerOrder, cores);
        }
    }

    static long processCpuNanos() {
        var os = java.lang.management.ManagementFactory.getOperatingSystemMXBean();
        return os instanceof com.sun.management.OperatingSystemMXBean sun
                ? sun.getProcessCpuTime()
                : 0;
    }

    static double pct(long[] sorted, double p) {
        if (sorted.length == 0) {
            return Double.NaN;
        }
        return sorted[Math.min(sorted.length - 1, (int) Math.ceil(p * sorted.length) - 1)] / 1e6;
    }
}
