package io.streamledger.command.bench;

import io.streamledger.command.api.HttpApi;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Arrays;
import java.util.Locale;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

/**
 * Open-loop load generator (its own process) of {@link CommandServiceBenchmark}: sends requests at
 * a fixed arrival rate with unique keys, either accepted_order_v1 commands to the command service
 * (AP08/CS01) or raw 4-item TransactWriteItems to the endpoint, and prints one {@code RESULT} line
 * per phase with its own CPU. Latency is measured from each request's scheduled time, so a stall
 * counts against every request it delays (no coordinated omission).
 *
 * <p>Phases come on the command line as {@code mode:rate:seconds:maxInFlight}, e.g. {@code
 * orders:500:20:512}; {@code mode} is {@code orders} or {@code raw}.
 */
public final class AdmissionLoadGenerator {

    /** The padding of a raw item: about an order item's size (~650 B). */
    private static final String PAD = "x".repeat(560);

    private final HttpClient http =
            HttpClient.newBuilder()
                    .version(HttpClient.Version.HTTP_1_1)
                    .connectTimeout(Duration.ofSeconds(5))
                    .build();
    private final String serviceUrl;
    private final String endpointUrl;
    private final String apiKey;
    private final int accounts;
    private final String rawTable;
    private final String runId = Long.toString(System.currentTimeMillis(), 36);

    AdmissionLoadGenerator(
            String serviceUrl, String endpointUrl, String apiKey, int accounts, String rawTable) {
        this.serviceUrl = serviceUrl;
        this.endpointUrl = endpointUrl;
        this.apiKey = apiKey;
        this.accounts = accounts;
        this.rawTable = rawTable;
    }

    /** Args: serviceUrl endpointUrl apiKey accounts rawTable phase... */
    public static void main(String[] args) throws Exception {
        AdmissionLoadGenerator g =
                new AdmissionLoadGenerator(
                        args[0], args[1], args[2], Integer.parseInt(args[3]), args[4]);
        for (int i = 5; i < args.length; i++) {
            String[] p = args[i].split(":");
            g.phase(
                    p[0],
                    Integer.parseInt(p[1]),
                    Integer.parseInt(p[2]),
                    Integer.parseInt(p[3]),
                    "p" + (i - 4));
        }
        System.exit(0);
    }

    private void phase(String mode, int rate, int seconds, int maxInFlight, String name)
            throws InterruptedException {
        boolean raw = mode.equals("raw");
        int offered = rate * seconds;
        long[] latency = new long[offered];
        AtomicLong lastOkNanos = new AtomicLong();
        AtomicReference<String> firstError = new AtomicReference<>();
        Semaphore inFlight = new Semaphore(maxInFlight);
        System.out.printf(Locale.ROOT, "PHASE_START %s %s rate=%d%n", name, mode, rate);
        System.out.flush();
        long cpu0 = AdmissionBenchmark.processCpuNanos();
        long start = System.nanoTime() + 1_000_000;
        long interval = 1_000_000_000L / rate;
        String prefix = runId + "-" + name + "-";
        long deadline = start + seconds * 1_000_000_000L;
        int total = 0;
        for (int i = 0; i < offered; i++) {
            long due = start + i * interval;
            long wait = due - System.nanoTime();
            if (wait > 0) {
                LockSupport.parkNanos(wait);
            }
            // past the phase's end (the in-flight cap held the schedule back): the rest is not sent
            if (System.nanoTime() >= deadline
                    || !inFlight.tryAcquire(deadline - System.nanoTime(), TimeUnit.NANOSECONDS)) {
                break;
            }
            total++;
            int n = i;
            HttpRequest req = raw ? raw(prefix + n) : order(prefix + n, n);
            http.sendAsync(req, HttpResponse.BodyHandlers.ofString())
                    .whenComplete(
                            (r, e) -> {
                                long now = System.nanoTime();
                                if (e == null && r.statusCode() / 100 == 2) {
                                    latency[n] = now - due;
                                    lastOkNanos.accumulateAndGet(now, Math::max);
                                } else {
                                    latency[n] = -1;
                                    firstError.compareAndSet(
                                            null,
                                            e != null
                                                    ? e.toString()
                                                    : r.statusCode() + " " + r.body());
                                }
                                inFlight.release();
                            });
        }
        long sentAt = System.nanoTime();
        inFlight.acquire(maxInFlight); // every response in
        inFlight.release(maxInFlight);
        long cpu = AdmissionBenchmark.processCpuNanos() - cpu0;
        long end = Math.max(lastOkNanos.get(), sentAt);
        long[] okLat = Arrays.stream(latency, 0, total).filter(l -> l > 0).sorted().toArray();
        double elapsed = (end - start) / 1e9;
        System.out.printf(
                Locale.ROOT,
                "RESULT %s mode=%s rate=%d sent=%d ok=%d errors=%d seconds=%.2f achieved=%.1f"
                        + " sendRate=%.1f p50=%.2f p99=%.2f p999=%.2f max=%.2f generatorCpuMsPerReq=%.3f%n",
                name,
                mode,
                rate,
                total,
                okLat.length,
                total - okLat.length,
                elapsed,
                okLat.length / elapsed,
                total / ((sentAt - start) / 1e9),
                AdmissionBenchmark.pct(okLat, 0.50),
                AdmissionBenchmark.pct(okLat, 0.99),
                AdmissionBenchmark.pct(okLat, 0.999),
                okLat.length == 0 ? Double.NaN : okLat[okLat.length - 1] / 1e6,
                cpu / 1e6 / Math.max(1, total));
        if (firstError.get() != null) {
            System.out.println("FIRST_ERROR " + name + " " + firstError.get());
        }
        System.out.flush();
    }

    private HttpRequest order(String id, int n) {
        String body =
                "{\"clientOrderId\":\""
                        + id
                        + "\",\"accountId\":\""
                        + CommandServiceBenchmark.account(n % accounts)
                        + "\",\"symbol\":\"AAPL\",\"side\":\"BUY\",\"type\":\"LIMIT\","
                        + "\"quantity\":\"1\",\"limitPrice\":\"187.25\",\"currency\":\"USD\"}";
        return HttpRequest.newBuilder(URI.create(serviceUrl + "/v1/orders"))
                .timeout(Duration.ofSeconds(30))
                .header(HttpApi.HEADER_API_KEY, apiKey)
                .header(HttpApi.HEADER_IDEMPOTENCY_KEY, id)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body))
                .build();
    }

    /** Four conditional Puts of ~650 B each, the size class of an accepted order's items. */
    private HttpRequest raw(String id) {
        StringBuilder b = new StringBuilder(3200).append("{\"TransactItems\":[");
        for (int k = 0; k < 4; k++) {
            if (k > 0) {
                b.append(',');
            }
            b.append("{\"Put\":{\"TableName\":\"")
                    .append(rawTable)
                    .append("\",\"Item\":{\"pk\":{\"S\":\"")
                    .append(id)
                    .append('#')
                    .append(k)
                    .append("\"},\"pad\":{\"S\":\"")
                    .append(PAD)
                    .append("\"}},\"ConditionExpression\":\"attribute_not_exists(pk)\"}}");
        }
        b.append("]}");
        return HttpRequest.newBuilder(URI.create(endpointUrl + "/"))
                .timeout(Duration.ofSeconds(30))
                .header("Content-Type", "application/x-amz-json-1.0")
                .header("X-Amz-Target", "DynamoDB_20120810.TransactWriteItems")
                .POST(HttpRequest.BodyPublishers.ofString(b.toString()))
                .build();
    }
}
