package io.streamledger.command.bench;

import io.streamledger.aws.retry.RetryPolicy;
import io.streamledger.command.api.StrictJson;
import io.streamledger.command.config.CommandService;
import io.streamledger.command.config.ServiceConfig;
import io.streamledger.command.config.TableProvisioner;
import io.streamledger.command.dynamo.CapacityMeter;
import io.streamledger.command.testing.CommandFixture;
import io.streamledger.local.LocalEndpoint;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/** Where does the time go: raw GetItem vs the admission path without HTTP (a main, not a test). */
public final class ProbeBenchmark {
    public static void main(String[] args) throws Exception {
        try (LocalEndpoint endpoint = LocalEndpoint.builder().port(0).build().start()) {
            DynamoDbClient client = CommandFixture.client(endpoint.endpoint());
            TableProvisioner.createAll(client, "p-");
            CommandService s =
                    new CommandService(
                            client, ServiceConfig.defaults("p-"), RetryPolicy.defaults());
            var http =
                    s.http(
                                    io.streamledger.command.auth.ApiKeyAuthenticator.builder()
                                            .key("t", "k")
                                            .build())
                            .start("127.0.0.1", 0);
            var web =
                    java.net.http.HttpClient.newBuilder()
                            .version(java.net.http.HttpClient.Version.HTTP_1_1)
                            .build();
            for (int round = 0; round < 3; round++) {
                long h0 = System.nanoTime();
                for (int i = 0; i < 100; i++) {
                    var req =
                            java.net.http.HttpRequest.newBuilder(
                                            java.net.URI.create(
                                                    "http://127.0.0.1:"
                                                            + http.port()
                                                            + "/v1/orders"))
                                    .header("X-Api-Key", "k")
                                    .header("Idempotency-Key", "h" + round + "-" + i)
                                    .POST(
                                            java.net.http.HttpRequest.BodyPublishers.ofString(
                                                    CommandFixture.order(
                                                            "h" + round + "-" + i, "A", "1")))
                                    .build();
                    web.send(req, java.net.http.HttpResponse.BodyHandlers.ofString());
                }
                long h1 = System.nanoTime();
                for (int i = 0; i < 100; i++) {
                    var req =
                            java.net.http.HttpRequest.newBuilder(
                                            java.net.URI.create(
                                                    "http://127.0.0.1:" + http.port() + "/health"))
                                    .GET()
                                    .build();
                    web.send(req, java.net.http.HttpResponse.BodyHandlers.ofString());
                }
                long h2 = System.nanoTime();
                System.out.printf(
                        "http place %.2f ms/op, http health %.2f ms/op%n",
                        (h1 - h0) / 100e6, (h2 - h1) / 100e6);
            }
            for (int round = 0; round < 3; round++) {
                long t0 = System.nanoTime();
                for (int i = 0; i < 200; i++) {
                    client.getItem(
                            b ->
                                    b.tableName("p-Orders")
                                            .key(
                                                    Map.of(
                                                            "PK",
                                                            AttributeValue.fromS("x"),
                                                            "SK",
                                                            AttributeValue.fromS("y"))));
                }
                long t1 = System.nanoTime();
                for (int i = 0; i < 200; i++) {
                    s.orders()
                            .place(
                                    "t",
                                    "k" + round + "-" + i,
                                    StrictJson.parseObject(
                                            CommandFixture.order("c" + round + "-" + i, "A", "1")
                                                    .getBytes()),
                                    new CapacityMeter());
                }
                long t2 = System.nanoTime();
                System.out.printf(
                        "getItem %.2f ms/op, place %.2f ms/op%n",
                        (t1 - t0) / 200e6, (t2 - t1) / 200e6);
            }
            client.close();
        }
    }
}
