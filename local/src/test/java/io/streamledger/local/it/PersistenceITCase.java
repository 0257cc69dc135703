package io.streamledger.local.it;

import static io.streamledger.local.it.Tables.attr;
import static io.streamledger.local.it.Tables.key;
import static io.streamledger.local.it.Tables.n;
import static io.streamledger.local.it.Tables.s;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndex;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.Projection;
import software.amazon.awssdk.services.dynamodb.model.ProjectionType;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.TimeToLiveStatus;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;

/**
 * With --data-dir every acknowledged write survives kill -9: a child JVM runs the endpoint's main
 * class, is killed with destroyForcibly, and a new one replays (and compacts) the log (CS01: an
 * acknowledged admission transaction is never lost; local durability).
 */
class PersistenceITCase {

    /** A child JVM running LocalEndpointMain. */
    private record Child(Process process, URI endpoint) {}

    private static Child startChild(Path dataDir) throws Exception {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.add("-cp");
        cmd.add(System.getProperty("java.class.path"));
        cmd.add("io.streamledger.local.LocalEndpointMain");
        cmd.add("--port");
        cmd.add("0");
        cmd.add("--data-dir");
        cmd.add(dataDir.toString());
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        BufferedReader out =
                new BufferedReader(
                        new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
        String line;
        while ((line = out.readLine()) != null) {
            if (line.startsWith("LISTENING ")) {
                URI uri = URI.create(line.substring("LISTENING ".length()).trim());
                Thread drain =
                        new Thread(
                                () -> {
                                    try {
                                        while (out.readLine() != null) {
                                            // keep the pipe from filling
                                        }
                                    } catch (Exception ignored) {
                                        // child died
                                    }
                                });
                drain.setDaemon(true);
                drain.start();
                return new Child(p, uri);
            }
        }
        throw new IllegalStateException("child endpoint exited with " + p.waitFor());
    }

    private static void kill9(Child child) throws InterruptedException {
        child.process().destroyForcibly();
        assertThat(child.process().waitFor(30, TimeUnit.SECONDS)).isTrue();
    }

    @Test
    void acknowledgedWritesSurviveKillAndRestart(@TempDir Path dataDir) throws Exception {
        Child first = startChild(dataDir);
        String table = "Durable";
        try (DynamoDbClient ddb = Clients.dynamo(first.endpoint())) {
            ddb.createTable(
                    b ->
                            b.tableName(table)
                                    .billingMode(BillingMode.PAY_PER_REQUEST)
                                    .attributeDefinitions(
                                            attr("PK", ScalarAttributeType.S),
                                            attr("SK", ScalarAttributeType.S),
                                            attr("acct", ScalarAttributeType.S))
                                    .keySchema(key("PK", KeyType.HASH), key("SK", KeyType.RANGE))
                                    .globalSecondaryIndexes(
                                            GlobalSecondaryIndex.builder()
                                                    .indexName("byAcct")
                                                    .keySchema(key("acct", KeyType.HASH))
                                                    .projection(
                                                            Projection.builder()
                                                                    .projectionType(
                                                                            ProjectionType.ALL)
                                                                    .build())
                                                    .build()));
            ddb.updateTimeToLive(
                    b ->
                            b.tableName(table)
                                    .timeToLiveSpecification(
                                            t -> t.enabled(true).attributeName("exp")));
            for (int i = 0; i < 50; i++) {
                String sk = Integer.toString(i);
                ddb.putItem(
                        b ->
                                b.tableName(table)
                                        .item(
                                                Map.of(
                                                        "PK", s("p"), "SK", s(sk), "acct", s("A"),
                                                        "v", n("1.10"))));
            }
            ddb.updateItem(
                    b ->
                            b.tableName(table)
                                    .key(key("p", "7"))
                                    .updateExpression("SET v = v + :x")
                                    .expressionAttributeValues(Map.of(":x", n("0.9"))));
            ddb.deleteItem(b -> b.tableName(table).key(key("p", "8")));
            ddb.transactWriteItems(
                    b ->
                            b.transactItems(
                                    TransactWriteItem.builder()
                                            .put(
                                                    p ->
                                                            p.tableName(table)
                                                                    .item(
                                                                            Map.of(
                                                                                    "PK", s("tx"),
                                                                                    "SK", s("1"))))
                                            .build(),
                                    TransactWriteItem.builder()
                                            .delete(d -> d.tableName(table).key(key("p", "9")))
                                            .build()));
        }
        kill9(first);

        Child second = startChild(dataDir);
        try (DynamoDbClient ddb = Clients.dynamo(second.endpoint())) {
            assertThat(ddb.listTables().tableNames()).containsExactly(table);
            var all =
                    ddb.query(
                            b ->
                                    b.tableName(table)
                                            .keyConditionExpression("PK = :p")
                                            .expressionAttributeValues(Map.of(":p", s("p"))));
            assertThat(all.count()).isEqualTo(48);
            assertThat(ddb.getItem(b -> b.tableName(table).key(key("p", "7"))).item().get("v").n())
                    .isEqualTo("2");
            assertThat(ddb.getItem(b -> b.tableName(table).key(key("tx", "1"))).hasItem()).isTrue();
            assertThat(
                            ddb.query(
                                            b ->
                                                    b.tableName(table)
                                                            .indexName("byAcct")
                                                            .keyConditionExpression("acct = :a")
                                                            .expressionAttributeValues(
                                                                    Map.of(":a", s("A"))))
                                    .count())
                    .isEqualTo(48);
            assertThat(
                            ddb.describeTimeToLive(b -> b.tableName(table))
                                    .timeToLiveDescription()
                                    .timeToLiveStatus())
                    .isEqualTo(TimeToLiveStatus.ENABLED);
            // keeps appending after a restart
            ddb.putItem(b -> b.tableName(table).item(Map.of("PK", s("after"), "SK", s("1"))));
        } finally {
            kill9(second);
        }
        Child third = startChild(dataDir);
        try (DynamoDbClient ddb = Clients.dynamo(third.endpoint())) {
            // the second start compacted the log; its image plus the later append replay fully
            assertThat(ddb.getItem(b -> b.tableName(table).key(key("after", "1"))).hasItem())
                    .isTrue();
            assertThat(ddb.getItem(b -> b.tableName(table).key(key("p", "7"))).item().get("v").n())
                    .isEqualTo("2");
            assertThat(
                            ddb.query(
                                            b ->
                                                    b.tableName(table)
                                                            .indexName("byAcct")
                                                            .keyConditionExpression("acct = :a")
                                                            .expressionAttributeValues(
                                                                    Map.of(":a", s("A"))))
                                    .count())
                    .isEqualTo(48);
            assertThat(
                            ddb.describeTimeToLive(b -> b.tableName(table))
                                    .timeToLiveDescription()
                                    .attributeName())
                    .isEqualTo("exp");
        } finally {
            kill9(third);
        }
    }
}
