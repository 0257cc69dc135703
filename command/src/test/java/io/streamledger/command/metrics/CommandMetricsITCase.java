package io.streamledger.command.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.streamledger.aws.retry.RetryPolicy;
import io.streamledger.command.CommandServiceMain;
import io.streamledger.command.api.HttpApi;
import io.streamledger.command.auth.ApiKeyAuthenticator;
import io.streamledger.command.config.CommandService;
import io.streamledger.command.config.ServiceConfig;
import io.streamledger.command.config.TableProvisioner;
import io.streamledger.command.testing.CommandFixture;
import io.streamledger.local.LocalDynamoDbExtension;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * The command service's admin port serves per-AP DynamoDB series (CS01 admission transaction,
 * AP01/AP02 reads, AP08 hot keys) and HTTP route metrics, scraped with a real HTTP client.
 */
class CommandMetricsITCase {
    private static final String KEY = "metrics-key";

    @RegisterExtension static LocalDynamoDbExtension local = new LocalDynamoDbExtension();

    private static final HttpClient web = HttpClient.newHttpClient();
    private static DynamoDbClient client;
    private static HttpApi http;
    private static MetricsServer admin;
    private static String scraped;

    @BeforeAll
    static void start() throws Exception {
        CommandMetrics metrics = new CommandMetrics(5);
        client =
                CommandServiceMain.dynamoClient(
                        local.endpoint().endpoint(), "us-east-1", metrics.dynamo());
        TableProvisioner.createAll(client, "m-");
        CommandService service =
                new CommandService(client, ServiceConfig.defaults("m-"), RetryPolicy.defaults());
        http =
                service.http(ApiKeyAuthenticator.builder().key("tenantM", KEY).build())
                        .observeRequests(metrics::httpRequest)
                        .start("127.0.0.1", 0);
        admin = MetricsServer.start(metrics, "127.0.0.1", 0);
        // admission reserves buying power: fund the account from the house account first
        HttpResponse<String> funded =
                send(
                        api("/v1/ledger/transactions")
                                .header(HttpApi.HEADER_API_KEY, KEY)
                                .header("Content-Type", "application/json")
                                .POST(
                                        HttpRequest.BodyPublishers.ofString(
                                                "{\"sourceId\":\"fund-m\",\"postings\":[{\"accountId\":\""
                                                        + CommandFixture.FUNDING_ACCOUNT
                                                        + "\",\"currency\":\"USD\",\"amount\":\"-100000.00\"},"
                                                        + "{\"accountId\":\"ACC-M\",\"currency\":\"USD\",\"amount\":\"100000.00\"}]}"))
                                .build());
        assertThat(funded.statusCode()).as(funded.body()).isEqualTo(201);
        for (int i = 0; i < 3; i++) {
            HttpResponse<String> r =
                    send(
                            api("/v1/orders")
                                    .header(HttpApi.HEADER_API_KEY, KEY)
                                    .header(HttpApi.HEADER_IDEMPOTENCY_KEY, "mk-" + i)
                                    .header("Content-Type", "application/json")
                                    .POST(
                                            HttpRequest.BodyPublishers.ofString(
                                                    CommandFixture.order("mc-" + i, "ACC-M", "1")))
                                    .build());
            assertThat(r.statusCode()).as(r.body()).isEqualTo(201);
        }
        assertThat(
                        send(api("/v1/accounts/ACC-M/orders")
                                        .header(HttpApi.HEADER_API_KEY, KEY)
                                        .build())
                                .statusCode())
                .isEqualTo(200);
        HttpResponse<String> r =
                send(
                        HttpRequest.newBuilder(
                                        URI.create("http://127.0.0.1:" + admin.port() + "/metrics"))
                                .build());
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.headers().firstValue("Content-Type")).hasValue(MetricsServer.CONTENT_TYPE);
        scraped = r.body();
    }

    @AfterAll
    static void stop() {
        admin.close();
        http.close();
        client.close();
    }

    @Test
    void admissionTransactionIsCountedWithItsWriteUnitsPerTable() {
        assertThat(
                        value(
                                "streamledger_dynamodb_requests_total",
                                "ap=\"CS01\"",
                                "operation=\"TransactWriteItems\""))
                .hasValue(3.0);
        // the transaction writes the Idempotency result (IDX08) among its tables
        assertThat(
                        value(
                                "streamledger_dynamodb_consumed_write_units_total",
                                "ap=\"CS01\"",
                                "route=\"IDX08\"",
                                "table=\"m-Idempotency\""))
                .hasValueSatisfying(v -> assertThat(v).isPositive());
        assertThat(
                        value(
                                "streamledger_dynamodb_latency_seconds_count",
                                "ap=\"CS01\"",
                                "operation=\"TransactWriteItems\""))
                .hasValue(3.0);
    }

    @Test
    void readsAreTaggedByTheirApAndIndexRoute() {
        assertThat(
                        value(
                                "streamledger_dynamodb_requests_total",
                                "ap=\"AP02\"",
                                "route=\"IDX02\"",
                                "index=\"GSI1\"",
                                "operation=\"Query\""))
                .hasValue(1.0);
        assertThat(value("streamledger_dynamodb_requests_total", "ap=\"AP08\"")).isPresent();
        assertThat(value("streamledger_dynamodb_max_key_share", "ap=\"AP08\""))
                .hasValueSatisfying(v -> assertThat(v).isBetween(0.0, 1.0));
        assertThat(scraped).doesNotContain("ap=\"none\"");
    }

    @Test
    void httpRoutesAreCountedByTemplate() {
        assertThat(
                        value(
                                "streamledger_http_requests_total",
                                "method=\"POST\"",
                                "route=\"/v1/orders\"",
                                "status=\"201\""))
                .hasValue(3.0);
        assertThat(scraped).contains("route=\"/v1/accounts/{a}/orders\"");
        assertThat(scraped).contains("streamledger_http_request_duration_seconds_bucket{");
    }

    @Test
    void theApiPortDoesNotServeMetrics() throws Exception {
        assertThat(send(api("/metrics").build()).statusCode()).isNotEqualTo(200);
    }

    /** The value of the first series of {@code name} whose labels contain all {@code labels}. */
    private static Optional<Double> value(String name, String... labels) {
        return Arrays.stream(scraped.split("\n"))
                .filter(l -> l.startsWith(name + "{"))
                .filter(l -> List.of(labels).stream().allMatch(l::contains))
                .map(l -> Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1)))
                .reduce(Double::sum);
    }

    private static HttpRequest.Builder api(String path) {
        return HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + http.port() + path));
    }

    private static HttpResponse<String> send(HttpRequest r) {
        try {
            return web.send(r, HttpResponse.BodyHandlers.ofString());
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
