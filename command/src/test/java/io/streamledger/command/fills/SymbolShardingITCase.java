package io.streamledger.command.fills;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.streamledger.aws.retry.RetryPolicy;
import io.streamledger.command.api.HttpApi;
import io.streamledger.command.auth.ApiKeyAuthenticator;
import io.streamledger.command.config.CommandService;
import io.streamledger.command.config.ServiceConfig;
import io.streamledger.command.dynamo.CapacityMeter;
import io.streamledger.command.testing.CommandFixture;
import io.streamledger.command.testing.CommandFixture.Reply;
import io.streamledger.local.LocalDynamoDbExtension;
import io.streamledger.model.keys.KeyOrder;
import io.streamledger.model.keys.KeyTime;
import io.streamledger.model.keys.TradeKey;
import io.streamledger.model.shard.SymbolSharding;
import io.streamledger.model.table.Attr;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * AP06 write sharding on the local endpoint: a hot symbol cut over from unsharded to N=4 is listed
 * newest first across the cutover, every execution exactly once, in small pages; a writer that had
 * not yet taken the configuration is still found; read units per page against an unsharded symbol.
 */
class SymbolShardingITCase {

    @RegisterExtension static LocalDynamoDbExtension local = new LocalDynamoDbExtension();

    static final String HOT = "HOTX";
    static final String COLD = "COLDX";
    static final int BEFORE = 8;

    /** Executions after the cutover per symbol; the README's 100-item pages used 400. */
    static final int AFTER = Integer.getInteger("streamledger.it.ap06.after", 16);

    static Instant cutover;
    static CommandFixture f;
    static CommandService stale;
    static HttpApi staleHttp;
    static final HttpClient web = HttpClient.newHttpClient();

    /** sort key of each execution written, by symbol */
    static final Map<String, List<String>> written = new java.util.concurrent.ConcurrentHashMap<>();

    @BeforeAll
    static void start() throws Exception {
        cutover = Instant.now().truncatedTo(ChronoUnit.SECONDS).minusSeconds(600);
        String cfg =
                "{\"symbols\":{\""
                        + HOT
                        + "\":[{\"shards\":4,\"version\":2,\"from\":\""
                        + cutover
                        + "\"}]}}";
        f =
                new CommandFixture(
                        local.endpoint(), c -> c.withSymbolSharding(SymbolSharding.parse(cfg)));
        // a second instance over the same tables that has not yet taken the configuration
        stale =
                new CommandService(
                        f.client,
                        ServiceConfig.defaults(f.prefix).withClock(f.clock),
                        RetryPolicy.defaults());
        staleHttp =
                stale.http(
                                ApiKeyAuthenticator.builder()
                                        .key(CommandFixture.TENANT_A, CommandFixture.KEY_A)
                                        .build())
                        .start("127.0.0.1", 0);

        // one writer per order (and account), in parallel: orders do not contend with each other
        ExecutorService pool = Executors.newFixedThreadPool(4);
        List<Future<?>> writers = new ArrayList<>();
        for (String symbol : List.of(HOT, COLD)) {
            for (int w = 0; w < 2; w++) {
                String account = "ACC-" + symbol + w;
                f.fundUsd(account);
                String orderId = order(symbol, account);
                int parity = w;
                writers.add(
                        pool.submit(
                                () -> {
                                    for (int i = parity; i < BEFORE; i += 2) {
                                        fill(
                                                f.http.port(),
                                                orderId,
                                                symbol,
                                                "b" + i,
                                                cutover.minusMillis(5_000 - 300L * i));
                                    }
                                    // pairs at one millisecond on the two orders: ties by trade id
                                    for (int i = parity; i < AFTER; i += 2) {
                                        fill(
                                                f.http.port(),
                                                orderId,
                                                symbol,
                                                "a" + i,
                                                cutover.plusMillis(20L * (i / 2)));
                                    }
                                    if (parity == 0) {
                                        fill(
                                                staleHttp.port(),
                                                orderId,
                                                symbol,
                                                "late",
                                                cutover.plusMillis(115));
                                    }
                                    return null;
                                }));
            }
        }
        for (Future<?> w : writers) {
            w.get();
        }
        pool.shutdown();
    }

    @AfterAll
    static void stop() {
        staleHttp.close();
        f.close();
    }

    static String order(String symbol, String account) {
        String body =
                "{\"clientOrderId\":\"c-"
                        + account
                        + "\",\"accountId\":\""
                        + account
                        + "\",\"symbol\":\""
                        + symbol
                        + "\",\"side\":\"BUY\",\"type\":\"LIMIT\",\"quantity\":\"1000\","
                        + "\"limitPrice\":\"10.00\",\"currency\":\"USD\"}";
        Reply r = f.post("/v1/orders", CommandFixture.KEY_A, "k-" + account, body);
        assertThat(r.status()).as(r.raw()).isEqualTo(201);
        return r.json().at("/order/orderId").asText();
    }

    static void fill(int port, String orderId, String symbol, String fillId, Instant at) {
        String body =
                "{\"fillId\":\""
                        + fillId
                        + "\",\"quantity\":\"1\",\"price\":\"10.00\",\"fee\":\"0.01\","
                        + "\"executedAt\":\""
                        + at
                        + "\"}";
        HttpResponse<String> r;
        try {
            r =
                    web.send(
                            HttpRequest.newBuilder(
                                            URI.create(
                                                    "http://127.0.0.1:"
                                                            + port
                                                            + "/v1/orders/"
                                                            + orderId
                                                            + "/fills"))
                                    .header("Content-Type", "application/json")
                                    .header(HttpApi.HEADER_API_KEY, CommandFixture.KEY_A)
                                    .POST(HttpRequest.BodyPublishers.ofString(body))
                                    .build(),
                            HttpResponse.BodyHandlers.ofString());
        } catch (java.io.IOException | InterruptedException e) {
            throw new IllegalStateException(e);
        }
        assertThat(r.statusCode()).as(r.body()).isEqualTo(201);
        String tradeId = orderId + ":" + fillId;
        written.computeIfAbsent(
                        symbol, k -> java.util.Collections.synchronizedList(new ArrayList<>()))
                .add("TRADE#" + KeyTime.format(at) + "#" + tradeId);
    }

    /** All pages of a symbol: the trade sort keys in page order and the read units of each page. */
    record Listing(List<String> keys, List<Double> unitsPerPage) {}

    static Listing list(String symbol, int limit) {
        List<String> keys = new ArrayList<>();
        List<Double> units = new ArrayList<>();
        String cursor = null;
        for (int pages = 0; pages < 200; pages++) {
            Reply r =
                    f.get(
                            "/v1/symbols/"
                                    + symbol
                                    + "/trades?limit="
                                    + limit
                                    + (cursor == null ? "" : "&cursor=" + cursor),
                            CommandFixture.KEY_A);
            assertThat(r.status()).as(r.raw()).isEqualTo(200);
            assertThat(r.json().get("trades").size()).isLessThanOrEqualTo(limit);
            for (JsonNode t : r.json().get("trades")) {
                keys.add(
                        "TRADE#"
                                + KeyTime.format(Instant.parse(t.get("executedAt").asText()))
                                + "#"
                                + t.get("tradeId").asText());
            }
            units.add(r.json().at("/meta/consumedCapacity/total").asDouble());
            JsonNode c = r.json().get("cursor");
            if (c == null || c.isNull()) {
                return new Listing(keys, units);
            }
            cursor = c.asText();
        }
        throw new AssertionError("listing did not end");
    }

    static List<String> newestFirst(String symbol) {
        List<String> all = new ArrayList<>(written.get(symbol));
        all.sort(Comparator.comparing((String s) -> s, KeyOrder.STRING).reversed());
        return all;
    }

    @Test
    void aHotSymbolIsListedCompleteOrderedAndOnceAcrossTheCutover() {
        List<String> expected = newestFirst(HOT);
        assertThat(expected).hasSize(BEFORE + AFTER + 1).doesNotHaveDuplicates();
        for (int limit : AFTER >= 100 ? new int[] {7} : new int[] {1, 3, 5}) {
            Listing l = list(HOT, limit);
            assertThat(l.keys()).as("limit " + limit).isEqualTo(expected);
        }
    }

    @Test
    void executionsLiveUnderTheKeyTheirGenerationNames() {
        Map<String, AttributeValue> before = trade(HOT, "b0", cutover.minusMillis(5_000));
        Map<String, AttributeValue> after = trade(HOT, "a0", cutover);
        Map<String, AttributeValue> late = trade(HOT, "late", cutover.plusMillis(115));
        Map<String, AttributeValue> cold = trade(COLD, "a0", cutover);

        assertThat(before.get(Attr.GSI2PK).s()).isEqualTo("TEN#tenantA#SYM#" + HOT);
        assertThat(before).doesNotContainKey(Attr.SHARD_MAP_VERSION);
        assertThat(after.get(Attr.GSI2PK).s()).matches("TEN#tenantA#SYM#" + HOT + "#SHARD#[0-3]");
        assertThat(after.get(Attr.SHARD_MAP_VERSION).n()).isEqualTo("2");
        assertThat(after.get(Attr.HASH_VERSION).n()).isEqualTo("1");
        // the stale writer's entry is unsharded although it is after the cutover
        assertThat(late.get(Attr.GSI2PK).s()).isEqualTo("TEN#tenantA#SYM#" + HOT);
        assertThat(cold.get(Attr.GSI2PK).s()).isEqualTo("TEN#tenantA#SYM#" + COLD);
    }

    @Test
    void anUnshardedSymbolKeepsTodaysSingleQueryListing() {
        Listing l = list(COLD, 5);
        assertThat(l.keys()).isEqualTo(newestFirst(COLD));
        Reply first = f.get("/v1/symbols/" + COLD + "/trades?limit=5", CommandFixture.KEY_A);
        assertThat(first.json().has("shardVersion")).isFalse();
    }

    @Test
    void aTamperedOrForeignCursorIs400() {
        Reply first = f.get("/v1/symbols/" + HOT + "/trades?limit=3", CommandFixture.KEY_A);
        String c = first.json().get("cursor").asText();
        String flipped = c.substring(0, 10) + (c.charAt(10) == 'A' ? 'B' : 'A') + c.substring(11);
        Reply bad =
                f.get(
                        "/v1/symbols/" + HOT + "/trades?limit=3&cursor=" + flipped,
                        CommandFixture.KEY_A);
        assertThat(bad.status()).isEqualTo(400);
        assertThat(bad.json().at("/error/code").asText()).isEqualTo("INVALID_CURSOR");
        Reply other =
                f.get("/v1/symbols/" + COLD + "/trades?limit=3&cursor=" + c, CommandFixture.KEY_A);
        assertThat(other.status()).isEqualTo(400);
        Reply tenantB =
                f.get("/v1/symbols/" + HOT + "/trades?limit=3&cursor=" + c, CommandFixture.KEY_B);
        assertThat(tenantB.status()).isEqualTo(400);
    }

    @Test
    void fromBoundsTheListingOnBothPaths() {
        String from = cutover.toString();
        for (String symbol : List.of(HOT, COLD)) {
            Reply r =
                    f.get(
                            "/v1/symbols/" + symbol + "/trades?limit=100&from=" + from,
                            CommandFixture.KEY_A);
            assertThat(r.status()).as(r.raw()).isEqualTo(200);
            assertThat(r.json().get("trades").size()).as(symbol).isEqualTo(AFTER + 1);
        }
        Reply bad = f.get("/v1/symbols/" + HOT + "/trades?from=yesterday", CommandFixture.KEY_A);
        assertThat(bad.status()).isEqualTo(400);
    }

    @Test
    void readUnitsPerPageUnshardedAgainstFourShards() {
        for (int limit : AFTER >= 100 ? new int[] {5, 25, 100} : new int[] {5, 25}) {
            Listing hot = list(HOT, limit);
            Listing cold = list(COLD, limit);
            double hotAvg = hot.unitsPerPage().stream().mapToDouble(d -> d).average().orElse(0);
            double coldAvg = cold.unitsPerPage().stream().mapToDouble(d -> d).average().orElse(0);
            System.out.printf(
                    "AP06 read units/page limit=%d: unsharded %s (avg %.2f over %d pages),"
                            + " N=4 after cutover %s (avg %.2f over %d pages)%n",
                    limit,
                    cold.unitsPerPage(),
                    coldAvg,
                    cold.unitsPerPage().size(),
                    hot.unitsPerPage(),
                    hotAvg,
                    hot.unitsPerPage().size());
            // the fan-out reads every partition's head: never cheaper than one Query
            assertThat(hotAvg).isGreaterThanOrEqualTo(coldAvg);
        }
    }

    static Map<String, AttributeValue> trade(String symbol, String fillId, Instant at) {
        String tradeId = null;
        for (String sk : written.get(symbol)) {
            if (sk.startsWith("TRADE#" + KeyTime.format(at) + "#") && sk.endsWith(":" + fillId)) {
                tradeId = sk.substring(("TRADE#" + KeyTime.format(at) + "#").length());
            }
        }
        assertThat(tradeId).as(symbol + " " + fillId).isNotNull();
        String orderId = tradeId.substring(0, tradeId.indexOf(':'));
        TradeKey k = new TradeKey(CommandFixture.TENANT_A, orderId, at, tradeId);
        return f.service
                .ddb()
                .getStrong(
                        f.service.tables().execution(),
                        Map.of(
                                Attr.PK, AttributeValue.fromS(k.pk()),
                                Attr.SK, AttributeValue.fromS(k.sk())),
                        new CapacityMeter());
    }
}
