package io.streamledger.command.bench;

import io.streamledger.command.api.StrictJson;
import io.streamledger.command.config.CommandService;
import io.streamledger.command.config.ServiceConfig;
import io.streamledger.command.config.TableProvisioner;
import io.streamledger.command.dynamo.CapacityMeter;
import io.streamledger.command.dynamo.RetryPolicy;
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
