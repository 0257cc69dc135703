package io.streamledger.stack.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.streamledger.aws.retry.RetryPolicy;
import io.streamledger.command.api.HttpApi;
import io.streamledger.command.auth.ApiKeyAuthenticator;
import io.streamledger.command.config.CommandService;
import io.streamledger.command.config.ServiceConfig;
import io.streamledger.jobs.it.CollectSink;
import io.streamledger.jobs.posting.PostingJob;
import io.streamledger.jobs.projection.DynamoDbProjectionSinks;
import io.streamledger.jobs.projection.ProjectionJob;
import io.streamledger.jobs.source.ChangeSources;
import io.streamledger.model.ledger.BuyingPowerPolicy;
import io.streamledger.model.table.Tables;
import io.streamledger.operators.posting.PostingOutcome;
import io.streamledger.sinks.posting.PostingTransactionSink;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import org.apache.flink.api.common.restartstrategy.RestartStrategies;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * The real command service produces the input: deposits and a reservation through POST
 * /v1/ledger/transactions and /reservations (AP12 authority written by command/), orders and fills
 * through the HTTP API (CS04 TradeExecuted outbox events). The posting job then posts the fills
 * into the same ledger (same posting attributes, same account-month counters, ADD on the same
 * authority items) and the projection job mirrors every authority into the Portfolio view, reserved
 * amounts included.
 */
class CommandServicePipelineITCase {

    @RegisterExtension
    static final MiniClusterExtension CLUSTER =
            new MiniClusterExtension(
                    new org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration
                                    .Builder()
                            .setNumberTaskManagers(1)
                            .setNumberSlotsPerTaskManager(2)
                            .build());

    private static final String TENANT = "tenantA";
    private static final String KEY = "key-" + UUID.randomUUID();
    private static final ObjectMapper JSON = new ObjectMapper();

    private final HttpClient web = HttpClient.newHttpClient();

    @Test
    void commandServiceFillsAndLedgerTransactionsFormOneLedgerAndOneView() throws Exception {
        String prefix = "cs" + UUID.randomUUID().toString().substring(0, 6) + "-";
        try (LocalStack stack = new LocalStack(prefix, true, null, true)) {
            CommandService service =
                    new CommandService(
                            stack.ddb, ServiceConfig.defaults(prefix), RetryPolicy.defaults());
            HttpApi http =
                    service.http(ApiKeyAuthenticator.builder().key(TENANT, KEY).build())
                            .start("127.0.0.1", 0);
            try {
                run(stack, http.port());
            } finally {
                http.close();
            }
        }
    }

    private void run(LocalStack stack, int port) throws Exception {
        Map<String, BigDecimal> expectedCash = new HashMap<>();
        Map<String, BigDecimal> expectedSec = new HashMap<>();
        List<String> accounts = List.of("ACC-1", "ACC-2", "ACC-3");
        for (String a : accounts) {
            JsonNode dep =
                    post(
                            port,
                            "/v1/ledger/transactions",
                            null,
                            "{\"sourceId\":\"dep-"
                                    + a
                                    + "\",\"postings\":[{\"accountId\":\"SYS-BANK\",\"currency\":\"USD\",\"amount\":\"-1000000.00\"},"
                                    + "{\"accountId\":\""
                                    + a
                                    + "\",\"currency\":\"USD\",\"amount\":\"1000000.00\"}]}",
                            201);
            assertThat(dep.at("/transaction/txnId").asText()).startsWith("t-");
            expectedCash.put(a, new BigDecimal("1000000.00"));
        }
        post(
                port,
                "/v1/ledger/reservations",
                null,
                "{\"reservationId\":\"res-1\",\"accountId\":\"ACC-1\",\"currency\":\"USD\",\"amount\":\"500.00\"}",
                201);

        // ACC-1's reserved: the ledger reservation + what its open orders still hold (AP12)
        BigDecimal acc1Reserved = new BigDecimal("500.00");
        Random r = new Random(3);
        int fills = 0;
        Instant now = Instant.now().truncatedTo(ChronoUnit.MILLIS);
        for (int o = 0; o < 12; o++) {
            String account = accounts.get(o % accounts.size());
            JsonNode order =
                    post(
                            port,
                            "/v1/orders",
                            "k-ord-" + o,
                            "{\"clientOrderId\":\"c-"
                                    + o
                                    + "\",\"accountId\":\""
                                    + account
                                    + "\",\"symbol\":\"AAPL\",\"side\":\"BUY\",\"type\":\"LIMIT\",\"quantity\":\"10\",\"limitPrice\":\"187.25\",\"currency\":\"USD\"}",
                            201);
            String orderId = order.at("/order/orderId").asText();
            if (account.equals("ACC-1")) {
                acc1Reserved =
                        acc1Reserved.add(
                                BuyingPowerPolicy.DEFAULT.buyReservation(
                                        new BigDecimal("187.25"), BigDecimal.TEN, "USD"));
            }
            int n = 1 + r.nextInt(3);
            for (int i = 0; i < n; i++) {
                BigDecimal qty = BigDecimal.valueOf(1 + r.nextInt(3));
                BigDecimal price = BigDecimal.valueOf(18_000 + r.nextInt(700), 2);
                BigDecimal fee = new BigDecimal("0.35");
                post(
                        port,
                        "/v1/orders/" + orderId + "/fills",
                        null,
                        "{\"fillId\":\"f-"
                                + i
                                + "\",\"quantity\":\""
                                + qty
                                + "\",\"price\":\""
                                + price.toPlainString()
                                + "\",\"fee\":\"0.35\",\"executedAt\":\""
                                + now
                                + "\"}",
                        201);
                fills++;
                BigDecimal consideration = price.multiply(qty).setScale(2, RoundingMode.HALF_EVEN);
                expectedCash.merge(account, consideration.add(fee).negate(), BigDecimal::add);
                if (account.equals("ACC-1")) {
                    // the order never completes: each fill consumes exactly its cost
                    acc1Reserved = acc1Reserved.subtract(consideration.add(fee));
                }
                expectedSec.merge(account, qty, BigDecimal::add);
            }
        }

        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(2);
        env.enableCheckpointing(500);
        env.setRestartStrategy(RestartStrategies.fixedDelayRestart(5, 200));
        Configuration postingConf = stack.configReading(Tables.CONTEXT);
        new PostingJob(
                        ChangeSources.fromConfig(postingConf, PostingJob.ROLE),
                        new PostingJob.Sinks(
                                new PostingTransactionSink(
                                        PostingJob.settings(postingConf),
                                        CollectSink.listener("cs-outcomes")),
                                new CollectSink<>("cs-outcomes"),
                                new CollectSink<>("cs-dead-letters"),
                                new CollectSink<>("cs-gap-breaks"),
                                new CollectSink<>("cs-gate-dead-letters")),
                        postingConf)
                .build(env);
        Configuration projConf = stack.configReading(Tables.LEDGER);
        new ProjectionJob(
                        ChangeSources.fromConfig(projConf, ProjectionJob.ROLE),
                        new DynamoDbProjectionSinks(projConf),
                        projConf)
                .build(env);
        JobClient job = env.executeAsync("command-service-pipeline");
        try {
            long deadline = System.currentTimeMillis() + 90_000;
            while (true) {
                long posted =
                        CollectSink.<PostingOutcome>values("cs-outcomes").stream()
                                .map(PostingOutcome::getEventId)
                                .distinct()
                                .count();
                if (posted == fills && authorities(stack).equals(view(stack))) {
                    break;
                }
                assertThat(System.currentTimeMillis()).as("converged in time").isLessThan(deadline);
                Thread.sleep(1000);
            }
        } finally {
            job.cancel().get();
        }

        Map<String, Map<String, AttributeValue>> auth = authorityItems(stack);
        for (String a : accounts) {
            Map<String, AttributeValue> cash = auth.get(TENANT + "/" + a + "/CASH/USD");
            assertThat(new BigDecimal(cash.get("posted").n()))
                    .as("cash of %s", a)
                    .isEqualByComparingTo(expectedCash.get(a));
            assertThat(new BigDecimal(auth.get(TENANT + "/" + a + "/SEC/AAPL").get("posted").n()))
                    .isEqualByComparingTo(expectedSec.get(a));
        }
        // the command's reservation survives the job's ADD updates: available = posted - reserved
        Map<String, AttributeValue> acc1 = auth.get(TENANT + "/ACC-1/CASH/USD");
        assertThat(new BigDecimal(acc1.get("reserved").n())).isEqualByComparingTo(acc1Reserved);
        assertThat(new BigDecimal(acc1.get("available").n()))
                .isEqualByComparingTo(expectedCash.get("ACC-1").subtract(acc1Reserved));
        assertThat(acc1.get("reservations").m()).containsKey("res-1");

        // the view row carries the same posted/reserved/available/version (and never authorizes)
        for (var row : stack.scan(stack.portfolioTable())) {
            var a = auth.get(key(row));
            for (String f : List.of("posted", "reserved", "available")) {
                assertThat(new BigDecimal(row.get(f).n()))
                        .as("%s of %s", f, key(row))
                        .isEqualByComparingTo(new BigDecimal(a.get(f).n()));
            }
        }

        // one counter per account-month shared by both writers: monthCount == posting rows
        Map<String, Long> rows = new HashMap<>();
        Map<String, Long> counted = new HashMap<>();
        for (var item : stack.scan(stack.table(Tables.LEDGER))) {
            String sk = item.get("SK").s();
            if (sk.startsWith("POST#")) {
                rows.merge(item.get("accountId").s(), 1L, Long::sum);
            } else if (sk.startsWith("SEQ#MONTH#")) {
                counted.put(item.get("accountId").s(), Long.parseLong(item.get("monthCount").n()));
            }
        }
        assertThat(counted).isEqualTo(rows);
    }

    private JsonNode post(int port, String path, String idemKey, String body, int expected)
            throws Exception {
        HttpRequest.Builder b =
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                        .timeout(Duration.ofSeconds(30))
                        .header("Content-Type", "application/json")
                        .header(HttpApi.HEADER_API_KEY, KEY)
                        .POST(HttpRequest.BodyPublishers.ofString(body));
        if (idemKey != null) {
            b.header(HttpApi.HEADER_IDEMPOTENCY_KEY, idemKey);
        }
        HttpResponse<String> r = web.send(b.build(), HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).as(path + " -> " + r.body()).isEqualTo(expected);
        return JSON.readTree(r.body());
    }

    private static String key(Map<String, AttributeValue> item) {
        return item.get("tenant").s()
                + "/"
                + item.get("accountId").s()
                + "/"
                + item.get("assetType").s()
                + "/"
                + item.get("asset").s();
    }

    private static Map<String, Map<String, AttributeValue>> authorityItems(LocalStack stack) {
        Map<String, Map<String, AttributeValue>> out = new HashMap<>();
        for (var item : stack.scan(stack.table(Tables.LEDGER))) {
            if (item.get("SK").s().startsWith("AUTH#")) {
                out.put(key(item), item);
            }
        }
        return out;
    }

    private static Map<String, String> authorities(LocalStack stack) {
        Map<String, String> out = new HashMap<>();
        authorityItems(stack).forEach((k, v) -> out.put(k, v.get("version").n()));
        return out;
    }

    private static Map<String, String> view(LocalStack stack) {
        Map<String, String> out = new HashMap<>();
        for (var row : stack.scan(stack.portfolioTable())) {
            out.put(key(row), row.get("sourceVersion").n());
        }
        return out;
    }
}
