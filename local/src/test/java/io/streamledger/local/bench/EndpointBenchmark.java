package io.streamledger.local.bench;

import io.streamledger.local.LocalEndpoint;
import io.streamledger.local.it.Clients;
import io.streamledger.local.it.Tables;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.Put;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;

/**
 * Throughput and latency of the local endpoint over loopback with the real SDK v2 sync client and
 * 16 client threads (targets: ≥10,000 PutItem/s, ≥2,500 four-item TransactWriteItems/s). Not a
 * test: run with {@code mvn -pl local exec:java} as described in local/README.md.
 *
 * <p>Args: [seconds per phase, default 10] [threads, default 16] [--data-dir] [--raw-only]
 */
public final class EndpointBenchmark {
    private interface Op {
        void run(DynamoDbClient ddb, int thread, long i);
    }

    public static void main(String[] args) throws Exception {
        int seconds = args.length > 0 ? Integer.parseInt(args[0]) : 10;
        int threads = args.length > 1 ? Integer.parseInt(args[1]) : 16;
        boolean persistent = Arrays.asList(args).contains("--data-dir");
        Path dir = persistent ? Files.createTempDirectory("bench-wal") : null;
        try (LocalEndpoint endpoint =
                LocalEndpoint.builder().port(0).dataDir(dir).build().start()) {
            URI uri = endpoint.endpoint();
            System.out.printf(
                    "endpoint %s, %d client threads, %d s per phase, persistence %s%n",
                    uri, threads, seconds, persistent ? dir : "off");
            List<DynamoDbClient> clients = new ArrayList<>();
            for (int i = 0; i < threads; i++) {
                clients.add(Clients.dynamo(uri));
            }
            String table = Tables.pkSk(clients.get(0), "Bench");
            String payload = "p".repeat(200);
            boolean rawOnly = Arrays.asList(args).contains("--raw-only");
            if (!rawOnly) {
                run(
                        "warm-up PutItem",
                        clients,
                        Math.max(5, 2 * seconds),
                        (ddb, t, i) -> put(ddb, table, t, i, payload));
                run("PutItem", clients, seconds, (ddb, t, i) -> put(ddb, table, t, i, payload));
                run(
                        "GetItem",
                        clients,
                        seconds,
                        (ddb, t, i) ->
                                ddb.getItem(
                                        b ->
                                                b.tableName(table)
                                                        .key(
                                                                Tables.key(
                                                                        "pk-"
                                                                                + t
                                                                                + "-"
                                                                                + (i % 1000),
                                                                        "sk"))));
                run(
                        "Query",
                        clients,
                        seconds,
                        (ddb, t, i) ->
                                ddb.query(
                                        b ->
                                                b.tableName(table)
                                                        .keyConditionExpression("PK = :p")
                                                        .expressionAttributeValues(
                                                                Map.of(
                                                                        ":p",
                                                                        AttributeValue.fromS(
                                                                                "pk-"
                                                                                        + t
                                                                                        + "-"
                                                                                        + (i
                                                                                                % 1000))))));
                run(
                        "TransactWriteItems x4",
                        clients,
                        seconds,
                        (ddb, t, i) ->
                                ddb.transactWriteItems(
                                        b -> {
                                            List<TransactWriteItem> items = new ArrayList<>();
                                            for (int k = 0; k < 4; k++) {
                                                Map<String, AttributeValue> item =
                                                        Map.of(
                                                                "PK",
                                                                        AttributeValue.fromS(
                                                                                "tx-" + t + "-"
                                                                                        + i),
                                                                "SK",
                                                                        AttributeValue.fromS(
                                                                                "item" + k),
                                                                "d", AttributeValue.fromS(payload));
                                                items.add(
                                                        TransactWriteItem.builder()
                                                                .put(
                                                                        Put.builder()
                                                                                .tableName(table)
                                                                                .item(item)
                                                                                .conditionExpression(
                                                                                        "attribute_not_exists(PK)")
                                                                                .build())
                                                                .build());
                                            }
                                            b.transactItems(items);
                                        }));
            }
            clients.forEach(DynamoDbClient::close);

            System.out.println(
                    "-- raw keep-alive HTTP client (measures the endpoint, not the SDK) --");
            List<RawJsonClient> raw = new ArrayList<>();
            for (int i = 0; i < threads; i++) {
                raw.add(new RawJsonClient(uri));
            }
            String p = payload;
            runRaw(
                    "warm-up PutItem",
                    raw,
                    Math.max(5, 2 * seconds),
                    "PutItem",
                    (t, i) -> putJson(table, "r" + t + "-" + (i % 1000), i, p));
            runRaw(
                    "PutItem",
                    raw,
                    seconds,
                    "PutItem",
                    (t, i) -> putJson(table, "r" + t + "-" + (i % 1000), i, p));
            runRaw(
                    "GetItem",
                    raw,
                    seconds,
                    "GetItem",
                    (t, i) ->
                            "{\"TableName\":\""
                                    + table
                                    + "\",\"Key\":{\"PK\":{\"S\":\"r"
                                    + t
                                    + "-"
                                    + (i % 1000)
                                    + "\"},\"SK\":{\"S\":\"sk\"}}}");
            runRaw(
                    "Query",
                    raw,
                    seconds,
                    "Query",
                    (t, i) ->
                            "{\"TableName\":\""
                                    + table
                                    + "\",\"KeyConditionExpression\":\"PK = :p\","
                                    + "\"ExpressionAttributeValues\":{\":p\":{\"S\":\"r"
                                    + t
                                    + "-"
                                    + (i % 1000)
                                    + "\"}}}");
            runRaw(
                    "TransactWriteItems x4",
                    raw,
                    seconds,
                    "TransactWriteItems",
                    (t, i) -> {
                        StringBuilder sb = new StringBuilder("{\"TransactItems\":[");
                        for (int k = 0; k < 4; k++) {
                            if (k > 0) {
                                sb.append(',');
                            }
                            sb.append("{\"Put\":{\"TableName\":\"")
                                    .append(table)
                                    .append(
                                            "\",\"ConditionExpression\":\"attribute_not_exists(PK)\",\"Item\":{\"PK\":{\"S\":\"rtx-")
                                    .append(t)
                                    .append('-')
                                    .append(i)
                                    .append("\"},\"SK\":{\"S\":\"item")
                                    .append(k)
                                    .append("\"},\"d\":{\"S\":\"")
                                    .append(p)
                                    .append("\"}}}}");
                        }
                        return sb.append("]}").toString();
                    });
            for (RawJsonClient c : raw) {
                c.close();
            }
        } finally {
            if (dir != null) {
                try (var files = Files.walk(dir)) {
                    files.sorted(java.util.Comparator.reverseOrder())
                            .forEach(f -> f.toFile().delete());
                }
            }
        }
    }

    private static String putJson(String table, String pk, long i, String payload) {
        return "{\"TableName\":\""
                + table
                + "\",\"Item\":{\"PK\":{\"S\":\""
                + pk
                + "\"},\"SK\":{\"S\":\"sk\"},\"n\":{\"N\":\""
                + i
                + "\"},\"d\":{\"S\":\""
                + payload
                + "\"}}}";
    }

    private interface RawOp {
        String body(int thread, long i);
    }

    private static void runRaw(
            String name, List<RawJsonClient> clients, int seconds, String target, RawOp op)
            throws InterruptedException {
        List<DynamoDbClient> none = new ArrayList<>();
        for (int i = 0; i < clients.size(); i++) {
            none.add(null);
        }
        run(
                name,
                none,
                seconds,
                (ignored, t, i) -> {
                    try {
                        int status = clients.get(t).call(target, op.body(t, i));
                        if (status != 200) {
                            throw new IllegalStateException("HTTP " + status);
                        }
                    } catch (java.io.IOException e) {
                        throw new java.io.UncheckedIOException(e);
                    }
                });
    }

    private static void put(DynamoDbClient ddb, String table, int t, long i, String payload) {
        ddb.putItem(
                b ->
                        b.tableName(table)
                                .item(
                                        Map.of(
                                                "PK",
                                                        AttributeValue.fromS(
                                                                "pk-" + t + "-" + (i % 1000)),
                                                "SK", AttributeValue.fromS("sk"),
                                                "n", AttributeValue.fromN(Long.toString(i)),
                                                "d", AttributeValue.fromS(payload))));
    }

    private static void run(String name, List<DynamoDbClient> clients, int seconds, Op op)
            throws InterruptedException {
        int threads = clients.size();
        long deadline = System.nanoTime() + seconds * 1_000_000_000L;
        long[][] latencies = new long[threads][];
        AtomicLong errors = new AtomicLong();
        CountDownLatch done = new CountDownLatch(threads);
        long serverCpu0 = serverCpuNanos();
        long processCpu0 = processCpuNanos();
        long start = System.nanoTime();
        for (int t = 0; t < threads; t++) {
            final int thread = t;
            new Thread(
                            () -> {
                                long[] lat = new long[1 << 16];
                                int n = 0;
                                long i = 0;
                                while (System.nanoTime() < deadline) {
                                    long t0 = System.nanoTime();
                                    try {
                                        op.run(clients.get(thread), thread, i++);
                                    } catch (RuntimeException e) {
                                        errors.incrementAndGet();
                                    }
                                    if (n == lat.length) {
                                        lat = Arrays.copyOf(lat, n * 2);
                                    }
                                    lat[n++] = System.nanoTime() - t0;
                                }
                                latencies[thread] = Arrays.copyOf(lat, n);
                                done.countDown();
                            })
                    .start();
        }
        done.await();
        double elapsed = (System.nanoTime() - start) / 1e9;
        long serverCpu = serverCpuNanos() - serverCpu0;
        long processCpu = processCpuNanos() - processCpu0;
        long[] all = Arrays.stream(latencies).flatMapToLong(Arrays::stream).sorted().toArray();
        double serverUs = serverCpu / 1e3 / all.length;
        System.out.printf(
                "%-24s %9.0f ops/s   p50 %6.2f ms   p99 %6.2f ms   (%d ops, %d errors)"
                        + "   cpu/op: endpoint %5.0f us, whole process %5.0f us"
                        + " -> endpoint alone on 2 cores ~%.0f ops/s%n",
                name,
                all.length / elapsed,
                all[all.length / 2] / 1e6,
                all[(int) (all.length * 0.99)] / 1e6,
                all.length,
                errors.get(),
                serverUs,
                processCpu / 1e3 / all.length,
                2e6 / serverUs);
    }

    /** CPU time of the endpoint's HTTP worker threads (where requests are served). */
    private static long serverCpuNanos() {
        java.lang.management.ThreadMXBean mx =
                java.lang.management.ManagementFactory.getThreadMXBean();
        long sum = 0;
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            if (t.getName().startsWith("local-dynamodb-http")
                    || t.getName().startsWith("HTTP-Dispatcher")) {
                long c = mx.getThreadCpuTime(t.getId());
                if (c > 0) {
                    sum += c;
                }
            }
        }
        return sum;
    }

    private static long processCpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean)
                        java.lang.management.ManagementFactory.getOperatingSystemMXBean())
                .getProcessCpuTime();
    }
}
