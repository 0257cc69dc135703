package io.streamledger.local.streams;

import static io.streamledger.local.it.Tables.n;
import static io.streamledger.local.it.Tables.s;
import static org.assertj.core.api.Assertions.assertThat;

import io.streamledger.local.it.Clients;
import io.streamledger.local.it.Tables;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.Record;
import software.amazon.awssdk.services.dynamodb.model.StreamViewType;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsClient;

/**
 * With --data-dir, a table's stream (ARN, shards, records, sequence numbers) survives kill -9 of
 * the endpoint process, so a consumer's checkpoint stays valid (CS07, AP13 checkpoints).
 */
class StreamsRestartITCase {
    @TempDir Path dataDir;

    /** Starts LocalEndpointMain in a child JVM and returns it with its endpoint. */
    private static Process start(Path dataDir, URI[] endpoint) throws Exception {
        Process p =
                new ProcessBuilder(
                                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                                "-cp",
                                System.getProperty("java.class.path"),
                                "io.streamledger.local.LocalEndpointMain",
                                "--port",
                                "0",
                                "--data-dir",
                                dataDir.toString())
                        .redirectErrorStream(true)
                        .start();
        BufferedReader out =
                new BufferedReader(
                        new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
        for (String line = out.readLine(); line != null; line = out.readLine()) {
            if (line.startsWith("LISTENING ")) {
                endpoint[0] = URI.create(line.substring("LISTENING ".length()).trim());
                Thread drain =
                        new Thread(
                                () -> {
                                    try {
                                        while (out.readLine() != null) {
                                            // keep the pipe from filling
                                        }
                                    } catch (Exception ignored) {
                                        // the child died
                                    }
                                });
                drain.setDaemon(true);
                drain.start();
                return p;
            }
        }
        throw new IllegalStateException("child endpoint exited with " + p.waitFor());
    }

    private static void kill9(Process p) throws InterruptedException {
        p.destroyForcibly();
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
    }

    @Test
    void streamSurvivesKillNineWithDataDir() throws Exception {
        URI[] endpoint = new URI[1];
        String table;
        String arn;
        List<Record> before;
        Process first = start(dataDir, endpoint);
        try (DynamoDbClient ddb = Clients.dynamo(endpoint[0]);
                DynamoDbStreamsClient streams = StreamsClients.streams(endpoint[0])) {
            table = Tables.pkSk(ddb, "restart");
            ddb.updateTable(
                    b ->
                            b.tableName(table)
                                    .streamSpecification(
                                            sp ->
                                                    sp.streamEnabled(true)
                                                            .streamViewType(
                                                                    StreamViewType.NEW_IMAGE)));
            for (int v = 1; v <= 5; v++) {
                int version = v;
                ddb.putItem(
                        b ->
                                b.tableName(table)
                                        .item(
                                                Map.of(
                                                        "PK",
                                                        s("acct"),
                                                        "SK",
                                                        s("BAL"),
                                                        "version",
                                                        n(Integer.toString(version)))));
            }
            arn = ddb.describeTable(b -> b.tableName(table)).table().latestStreamArn();
            before = StreamsClients.readAll(streams, arn);
            assertThat(before).hasSize(5);
        } finally {
            kill9(first);
        }

        Process second = start(dataDir, endpoint);
        try (DynamoDbClient ddb = Clients.dynamo(endpoint[0]);
                DynamoDbStreamsClient streams = StreamsClients.streams(endpoint[0])) {
            assertThat(ddb.describeTable(b -> b.tableName(table)).table().latestStreamArn())
                    .isEqualTo(arn);
            assertThat(StreamsClients.readAll(streams, arn)).isEqualTo(before);
            ddb.putItem(
                    b ->
                            b.tableName(table)
                                    .item(
                                            Map.of(
                                                    "PK", s("acct"), "SK", s("BAL"), "version",
                                                    n("6"))));
            List<Record> after = StreamsClients.readAll(streams, arn);
            assertThat(after).hasSize(6);
            assertThat(after.get(5).dynamodb().sequenceNumber())
                    .isGreaterThan(before.get(4).dynamodb().sequenceNumber());
            assertThat(after.get(5).dynamodb().newImage().get("version").n()).isEqualTo("6");
        } finally {
            kill9(second);
        }
    }
}
