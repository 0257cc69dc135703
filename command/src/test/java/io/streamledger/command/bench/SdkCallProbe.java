package io.streamledger.command.bench;

import io.streamledger.aws.client.DynamoDbClientConfig;
import io.streamledger.aws.metrics.ApTag;
import io.streamledger.command.metrics.CommandMetrics;
import java.lang.management.ManagementFactory;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.http.apache.ApacheHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeDefinition;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.Put;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;
import software.amazon.awssdk.services.dynamodb.model.ReturnConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItemsRequest;

/**
 * CPU per SDK v2 call of the service's client recipes (a main, not a test), against the local
 * endpoint in its own JVM: a bare Apache client, the service's {@link DynamoDbClientConfig}, with
 * the metrics interceptor, with the per-request AP tag; a claim-sized PutItem and a 6-put
 * TransactWriteItems (an order's shape). Prints this JVM's CPU per call (callers, and all threads
 * with GC/JIT), so a client option's cost shows without HTTP, Javalin or the service around it.
 *
 * <p>Args: {@code [calls per variant (4000)] [threads (16)] [rounds (2)]}.
 */
public final class SdkCallProbe {

    private static final String TABLE = "probe";
    private static final String PAD = "x".repeat(560);

    public static void main(String[] args) throws Exception {
        int calls = args.length > 0 ? Integer.parseInt(args[0]) : 4000;
        int threads = args.length > 1 ? Integer.parseInt(args[1]) : 16;
        int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 2;
        Path dir = Files.createTempDirectory("sdk-probe");
        int port = CommandServiceBenchmark.freePort();
        List<Process> started = new ArrayList<>();
        Process endpoint =
                CommandServiceBenchmark.start(
                        started,
                        dir.resolve("endpoint.log"),
                        CommandServiceBenchmark.java(
                                System.getProperty("java.class.path"),
                                "-Dsun.net.httpserver.nodelay=true",
                                "io.streamledger.local.LocalEndpointMain",
                                "--port",
                                Integer.toString(port)));
        try {
            CommandServiceBenchmark.awaitPort(port, endpoint);
            URI uri = URI.create("http://127.0.0.1:" + port);
            Map<String, DynamoDbClient> variants = new java.util.LinkedHashMap<>();
            variants.put("bare apache", bare(uri));
            variants.put(
                    "DynamoDbClientConfig",
                    DynamoDbClientConfig.forEndpoint(uri, "us-east-1")
                            .apacheHttpClient(256)
                            .build()
                            .buildSyncClient());
            variants.put(
                    "DynamoDbClientConfig + metrics",
                    DynamoDbClientConfig.forEndpoint(uri, "us-east-1")
                            .apacheHttpClient(256)
                            .build()
                            .buildSyncClient(CommandMetrics.create().dynamo()));
            variants.values()
                    .iterator()
                    .next()
                    .createTable(
                            b ->
                                    b.tableName(TABLE)
                                            .attributeDefinitions(
                                                    AttributeDefinition.builder()
                                                            .attributeName("PK")
                                                            .attributeType(ScalarAttributeType.S)
                                                            .build())
                                            .keySchema(
                                                    KeySchemaElement.builder()
                                                            .attributeName("PK")
                                                            .keyType(KeyType.HASH)
                                                            .build())
                                            .billingMode(BillingMode.PAY_PER_REQUEST));
            System.out.printf(
                    Locale.ROOT,
                    "SDK call probe: %d calls x %d threads per variant, load %s%n",
                    calls,
                    threads,
                    CommandServiceBenchmark.loadAverage());
            AtomicLong ids = new AtomicLong();
            for (int round = 0; round <= rounds; round++) {
                for (Map.Entry<String, DynamoDbClient> v : variants.entrySet()) {
                    if (!v.getKey().contains(System.getProperty("probe.variant", ""))) {
                        continue;
                    }
                    for (boolean tagged : new boolean[] {false, true}) {
                        for (boolean tx : new boolean[] {false, true}) {
                            String name =
                                    v.getKey()
                                            + (tagged ? " + ApTag" : "")
                                            + (tx ? ", 6-put transaction" : ", claim PutItem");
                            run(name, v.getValue(), tagged, tx, calls, threads, ids, round > 0);
                        }
                    }
                }
            }
        } finally {
            endpoint.destroy();
            endpoint.waitFor();
        }
    }

    private static DynamoDbClient bare(URI uri) {
        return DynamoDbClient.builder()
                .endpointOverride(uri)
                .region(Region.US_EAST_1)
                .credentialsProvider(
                        StaticCredentialsProvider.create(AwsBasicCredentials.create("l", "l")))
                .httpClient(ApacheHttpClient.builder().maxConnections(256).build())
                .overrideConfiguration(o -> o.retryStrategy(AwsRetryStrategy.doNotRetry()))
                .build();
    }

    private static void run(
            String name,
            DynamoDbClient client,
            boolean tagged,
            boolean tx,
            int calls,
            int threads,
            AtomicLong ids,
            boolean print)
            throws Exception {
        var mx = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        AtomicLong threadCpu = new AtomicLong();
        AtomicLong threadAlloc = new AtomicLong();
        long cpu0 = AdmissionBenchmark.processCpuNanos();
        long t0 = System.nanoTime();
        List<Future<?>> done = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            done.add(
                    pool.submit(
                            () -> {
                                long c0 = mx.getCurrentThreadCpuTime();
                                long a0 = mx.getCurrentThreadAllocatedBytes();
                                for (int i = 0; i < calls / threads; i++) {
                                    long id = ids.incrementAndGet();
                                    if (tx) {
                                        client.transactWriteItems(transaction(id, tagged));
                                    } else {
                                        client.putItem(claim(id, tagged));
                                    }
                                }
                                threadCpu.addAndGet(mx.getCurrentThreadCpuTime() - c0);
                                threadAlloc.addAndGet(mx.getCurrentThreadAllocatedBytes() - a0);
                            }));
        }
        for (Future<?> f : done) {
            f.get();
        }
        double secs = (System.nanoTime() - t0) / 1e9;
        long cpu = AdmissionBenchmark.processCpuNanos() - cpu0;
        pool.shutdown();
        if (print) {
            int n = calls / threads * threads;
            System.out.printf(
                    Locale.ROOT,
                    "%-62s %6.0f calls/s  CPU ms/call: callers %.3f, JVM %.3f; KB allocated/call %.1f%n",
                    name,
                    n / secs,
                    threadCpu.get() / 1e6 / n,
                    cpu / 1e6 / n,
                    threadAlloc.get() / 1024.0 / n);
        }
    }

    private static PutItemRequest claim(long id, boolean tagged) {
        Map<String, AttributeValue> item = new HashMap<>();
        item.put("PK", AttributeValue.fromS("REQ#probe#" + id));
        for (String a :
                List.of(
                        "tenant",
                        "requestKey",
                        "operation",
                        "fingerprint",
                        "state",
                        "leaseOwner",
                        "command",
                        "effectId",
                        "createdAt",
                        "updatedAt")) {
            item.put(a, AttributeValue.fromS(a + "-" + id + "-0123456789abcdef0123456789"));
        }
        item.put("leaseUntil", AttributeValue.fromN(Long.toString(id)));
        item.put("attempt", AttributeValue.fromN("1"));
        PutItemRequest.Builder b =
                PutItemRequest.builder()
                        .tableName(TABLE)
                        .item(item)
                        .conditionExpression("attribute_not_exists(#pk)")
                        .expressionAttributeNames(Map.of("#pk", "PK"))
                        .returnConsumedCapacity(ReturnConsumedCapacity.INDEXES);
        if (tagged) {
            b.overrideConfiguration(ApTag.override("AP08"));
        }
        return b.build();
    }

    private static TransactWriteItemsRequest transaction(long id, boolean tagged) {
        List<TransactWriteItem> items = new ArrayList<>();
        for (int k = 0; k < 6; k++) {
            items.add(
                    TransactWriteItem.builder()
                            .put(
                                    Put.builder()
                                            .tableName(TABLE)
                                            .item(
                                                    Map.of(
                                                            "PK",
                                                            AttributeValue.fromS(
                                                                    "TX#" + id + "#" + k),
                                                            "pad",
                                                            AttributeValue.fromS(PAD)))
                                            .conditionExpression("attribute_not_exists(#pk)")
                                            .expressionAttributeNames(Map.of("#pk", "PK"))
                                            .build())
                            .build());
        }
        TransactWriteItemsRequest.Builder b =
                TransactWriteItemsRequest.builder()
                        .transactItems(items)
                        .clientRequestToken(Long.toString(id))
                        .returnConsumedCapacity(ReturnConsumedCapacity.INDEXES);
        if (tagged) {
            b.overrideConfiguration(ApTag.override("CS01"));
        }
        return b.build();
    }
}
