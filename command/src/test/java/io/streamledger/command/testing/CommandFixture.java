package io.streamledger.command.testing;

import com.fasterxml.jackson.databind.JsonNode;
import io.streamledger.aws.retry.RetryPolicy;
import io.streamledger.command.api.HttpApi;
import io.streamledger.command.api.StrictJson;
import io.streamledger.command.auth.ApiKeyAuthenticator;
import io.streamledger.command.config.CommandService;
import io.streamledger.command.config.ServiceConfig;
import io.streamledger.command.config.TableProvisioner;
import io.streamledger.local.LocalEndpoint;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import java.util.function.UnaryOperator;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.apache.ApacheHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * One command service over the local endpoint: real SDK client, tables created from the model's
 * TableSpecs under a unique prefix, the HTTP API on a random loopback port, two tenants' keys.
 */
public final class CommandFixture implements AutoCloseable {

    public static final String TENANT_A = "tenantA";
    public static final String TENANT_B = "tenantB";
    public static final String KEY_A = "key-a-" + UUID.randomUUID();
    public static final String KEY_B = "key-b-" + UUID.randomUUID();

    public final DynamoDbClient client;
    public final CommandService service;
    public final HttpApi http;
    public final MutableClock clock;
    public final String prefix;
    private final HttpClient web =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    public CommandFixture(LocalEndpoint endpoint, UnaryOperator<ServiceConfig> tweak) {
        this(endpoint, MutableClock.startingNow(), tweak);
    }

    /** A service whose clock starts at {@code clock}'s instant and moves only when driven. */
    public CommandFixture(
            LocalEndpoint endpoint, MutableClock clock, UnaryOperator<ServiceConfig> tweak) {
        this.client = client(endpoint.endpoint());
        this.prefix = "t" + UUID.randomUUID().toString().substring(0, 8) + "-";
        TableProvisioner.createAll(client, prefix);
        this.clock = clock;
        ServiceConfig cfg = tweak.apply(ServiceConfig.defaults(prefix).withClock(clock));
        this.service = new CommandService(client, cfg, RetryPolicy.defaults());
        this.http =
                service.http(
                                ApiKeyAuthenticator.builder()
                                        .key(TENANT_A, KEY_A)
                                        .key(TENANT_B, KEY_B)
                                        .build())
                        .start("127.0.0.1", 0);
    }

    public CommandFixture(LocalEndpoint endpoint) {
        this(endpoint, UnaryOperator.identity());
    }

    public static DynamoDbClient client(URI endpoint) {
        return DynamoDbClient.builder()
                .endpointOverride(endpoint)
                .region(Region.US_EAST_1)
                .credentialsProvider(
                        StaticCredentialsProvider.create(
                                AwsBasicCredentials.create("test", "test")))
                .httpClient(ApacheHttpClient.builder().maxConnections(256).build())
                // one retry policy decides: the service's, not the SDK's as well
                .overrideConfiguration(
                        o ->
                                o.retryStrategy(
                                        software.amazon.awssdk.awscore.retry.AwsRetryStrategy
                                                .doNotRetry()))
                .build();
    }

    /** An HTTP response with its parsed JSON body. */
    public record Reply(
            int status, Map<String, java.util.List<String>> headers, JsonNode json, String raw) {
        public String header(String name) {
            return headers.entrySet().stream()
                    .filter(e -> e.getKey().equalsIgnoreCase(name))
                    .map(e -> e.getValue().get(0))
                    .findFirst()
                    .orElse(null);
        }

        /** The body without its per-request "meta" member: what must be identical on replay. */
        public JsonNode data() {
            JsonNode copy = json.deepCopy();
            ((com.fasterxml.jackson.databind.node.ObjectNode) copy).remove("meta");
            return copy;
        }
    }

    public Reply post(String path, String apiKey, String idempotencyKey, String body) {
        HttpRequest.Builder b =
                HttpRequest.newBuilder(uri(path))
                        .timeout(Duration.ofSeconds(30))
                        .header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString(body));
        if (apiKey != null) {
            b.header(HttpApi.HEADER_API_KEY, apiKey);
        }
        if (idempotencyKey != null) {
            b.header(HttpApi.HEADER_IDEMPOTENCY_KEY, idempotencyKey);
        }
        return send(b.build());
    }

    public Reply get(String path, String apiKey) {
        HttpRequest.Builder b =
                HttpRequest.newBuilder(uri(path)).timeout(Duration.ofSeconds(30)).GET();
        if (apiKey != null) {
            b.header(HttpApi.HEADER_API_KEY, apiKey);
        }
        return send(b.build());
    }

    private URI uri(String path) {
        return URI.create("http://127.0.0.1:" + http.port() + path);
    }

    private Reply send(HttpRequest req) {
        try {
            HttpResponse<String> r = web.send(req, HttpResponse.BodyHandlers.ofString());
            JsonNode json =
                    r.body() == null || r.body().isEmpty()
                            ? null
                            : StrictJson.MAPPER.readTree(r.body());
            return new Reply(r.statusCode(), r.headers().map(), json, r.body());
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** House account every test funds from (an AP12 overdraft exemption). */
    public static final String FUNDING_ACCOUNT = "HOUSE-FUNDING";

    /**
     * Moves {@code amount} of an asset from the house funding account to {@code account} with a
     * ledger transaction, so orders against it have buying power (or a position) to reserve.
     *
     * @param assetField {@code currency} or {@code symbol}
     */
    public void fund(
            String apiKey, String account, String assetField, String asset, String amount) {
        String body =
                "{\"sourceId\":\"fund-"
                        + UUID.randomUUID()
                        + "\",\"postings\":[{\"accountId\":\""
                        + FUNDING_ACCOUNT
                        + "\",\""
                        + assetField
                        + "\":\""
                        + asset
                        + "\",\"amount\":\"-"
                        + amount
                        + "\"},{\"accountId\":\""
                        + account
                        + "\",\""
                        + assetField
                        + "\":\""
                        + asset
                        + "\",\"amount\":\""
                        + amount
                        + "\"}]}";
        Reply r = post("/v1/ledger/transactions", apiKey, null, body);
        if (r.status() != 201) {
            throw new IllegalStateException("funding " + account + " failed: " + r.raw());
        }
    }

    /** Funds tenant A's {@code account} with enough USD for every order the tests place. */
    public void fundUsd(String account) {
        fund(KEY_A, account, "currency", "USD", "100000000.00");
    }

    public static String order(String clientOrderId, String account, String qty) {
        return "{\"clientOrderId\":\""
                + clientOrderId
                + "\",\"accountId\":\""
                + account
                + "\",\"symbol\":\"AAPL\",\"side\":\"BUY\",\"type\":\"LIMIT\",\"quantity\":\""
                + qty
                + "\",\"limitPrice\":\"187.25\",\"currency\":\"USD\"}";
    }

    /** Places tenant A's BUY LIMIT order ({@link #order}); returns its orderId. */
    public String place(String clientOrderId, String account, String qty) {
        Reply r =
                post("/v1/orders", KEY_A, "k-" + clientOrderId, order(clientOrderId, account, qty));
        if (r.status() != 201) {
            throw new IllegalStateException("order " + clientOrderId + " refused: " + r.raw());
        }
        return r.json().at("/order/orderId").asText();
    }

    /** A fill of tenant A's order (CS04). */
    public Reply fill(
            String orderId,
            String fillId,
            String qty,
            String price,
            String fee,
            String executedAt) {
        return post(
                "/v1/orders/" + orderId + "/fills",
                KEY_A,
                null,
                "{\"fillId\":\""
                        + fillId
                        + "\",\"quantity\":\""
                        + qty
                        + "\",\"price\":\""
                        + price
                        + "\",\"fee\":\""
                        + fee
                        + "\",\"executedAt\":\""
                        + executedAt
                        + "\"}");
    }

    /** Tenant A's AP12 authority of one asset of {@code account} (strong), as the API shows it. */
    public JsonNode balance(String account, String asset) {
        Reply r = get("/v1/accounts/" + account + "/balances", KEY_A);
        if (r.status() != 200) {
            throw new IllegalStateException("balances of " + account + ": " + r.raw());
        }
        for (JsonNode b : r.json().get("balances")) {
            if (asset.equals(b.path("currency").asText(null))
                    || asset.equals(b.path("symbol").asText(null))) {
                return b;
            }
        }
        throw new AssertionError("no " + asset + " balance for " + account + ": " + r.raw());
    }

    @Override
    public void close() {
        http.close();
        client.close();
    }
}
