package io.streamledger.local.streams;

import static io.streamledger.local.it.Tables.n;
import static io.streamledger.local.it.Tables.s;
import static org.assertj.core.api.Assertions.assertThat;

import io.streamledger.local.LocalEndpoint;
import io.streamledger.local.it.Clients;
import io.streamledger.local.it.Tables;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.Record;
import software.amazon.awssdk.services.dynamodb.model.StreamViewType;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsClient;

/**
 * With a data directory, a table's stream (ARN, shards, records, sequence numbers) survives an
 * endpoint restart, so a consumer's checkpoint stays valid (seed C84; CS10 demo stack).
 */
class StreamsRestartITCase {
    @TempDir Path dataDir;

    @Test
    void streamSurvivesRestartWithDataDir() {
        String table;
        String arn;
        List<Record> before;
        try (LocalEndpoint first = LocalEndpoint.builder().dataDir(dataDir).build().start();
                DynamoDbClient ddb = Clients.dynamo(first.endpoint());
                DynamoDbStreamsClient streams = StreamsClients.streams(first.endpoint())) {
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
        }
        try (LocalEndpoint second = LocalEndpoint.builder().dataDir(dataDir).build().start();
                DynamoDbClient ddb = Clients.dynamo(second.endpoint());
                DynamoDbStreamsClient streams = StreamsClients.streams(second.endpoint())) {
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
        }
    }
}
