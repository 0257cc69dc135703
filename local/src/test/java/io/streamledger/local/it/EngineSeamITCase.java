package io.streamledger.local.it;

import static io.streamledger.local.it.Errors.assertError;
import static io.streamledger.local.it.Tables.key;
import static io.streamledger.local.it.Tables.n;
import static io.streamledger.local.it.Tables.s;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.streamledger.local.LocalEndpoint;
import io.streamledger.local.spi.ApiException;
import io.streamledger.local.spi.ApiExtension;
import io.streamledger.local.spi.ItemChange;
import io.streamledger.local.spi.ItemChange.EventName;
import io.streamledger.local.spi.StreamSettings;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.StreamSpecification;
import software.amazon.awssdk.services.dynamodb.model.StreamViewType;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;

/**
 * The seam the Streams helper builds on (CS07 ordered change records): commit listeners see every
 * commit once with wire images and transaction ids, StreamSpecification drives StreamSettings and
 * DescribeTable, unknown targets go to ApiExtensions, the TTL sweeper deletes as the service; plus
 * strict credentials.
 */
class EngineSeamITCase {
    private static final List<List<ItemChange>> COMMITS = new CopyOnWriteArrayList<>();
    private static final FakeStreams STREAMS = new FakeStreams();
    private static final AtomicReference<Instant> NOW =
            new AtomicReference<>(Instant.parse("2026-11-30T10:00:00Z"));
    private static LocalEndpoint endpoint;
    private static DynamoDbClient ddb;

    /** In-process StreamSettings double that records calls. */
    static final class FakeStreams implements StreamSettings {
        final Map<String, StreamId> current = new ConcurrentHashMap<>();
        final List<String> calls = new CopyOnWriteArrayList<>();

        @Override
        public StreamId enable(String table, String viewType) {
            calls.add("enable " + table + " " + viewType);
            StreamId id =
                    new StreamId(
                            "arn:aws:dynamodb:us-east-1:000000000000:table/"
                                    + table
                                    + "/stream/L"
                                    + calls.size(),
                            "L" + calls.size());
            current.put(table, id);
            return id;
        }

        @Override
        public void disable(String table) {
            calls.add("disable " + table);
        }

        @Override
        public Optional<StreamId> current(String table) {
            return Optional.ofNullable(current.get(table));
        }

        @Override
        public void tableDeleted(String table) {
            calls.add("deleted " + table);
            current.remove(table);
        }
    }

    /** Serves one Streams target to prove routing. */
    static final class EchoExtension implements ApiExtension {
        @Override
        public Set<String> targets() {
            return Set.of(
                    "DynamoDBStreams_20120810.ListStreams",
                    "DynamoDB_20120810.DescribeKinesisStreamingDestination");
        }

        @Override
        public JsonNode handle(String target, ObjectNode request) {
            if (request.has("fail")) {
                throw new ApiException("ExpiredIteratorException", 400, "Iterator expired");
            }
            ObjectNode out = JsonNodeFactory.instance.objectNode();
            out.put("servedBy", target);
            return out;
        }
    }

    @BeforeAll
    static void start() {
        Clock clock =
                new Clock() {
                    @Override
                    public ZoneOffset getZone() {
                        return ZoneOffset.UTC;
                    }

                    @Override
                    public Clock withZone(java.time.ZoneId zone) {
                        return this;
                    }

                    @Override
                    public Instant instant() {
                        return NOW.get();
                    }
                };
        endpoint =
                LocalEndpoint.builder()
                        .port(0)
                        .clock(clock)
                        .ttlSweepInterval(null)
                        .commitListener(COMMITS::add)
                        .streamSettings(STREAMS)
                        .extension(new EchoExtension())
                        .build()
                        .start();
        ddb = Clients.dynamo(endpoint.endpoint());
    }

    @AfterAll
    static void stop() {
        ddb.close();
        endpoint.close();
    }

    @BeforeEach
    void reset() {
        COMMITS.clear();
    }

    @Test
    void everyCommitReachesListenersOnceWithWireImages() {
        String t = Tables.pkSk(ddb, "Seam");
        ddb.putItem(b -> b.tableName(t).item(Map.of("PK", s("a"), "SK", s("1"), "v", n("1.50"))));
        ddb.updateItem(
                b ->
                        b.tableName(t)
                                .key(key("a", "1"))
                                .updateExpression("SET v = :v")
                                .expressionAttributeValues(Map.of(":v", n("2"))));
        // no data change: no stream record
        ddb.putItem(b -> b.tableName(t).item(Map.of("PK", s("a"), "SK", s("1"), "v", n("2"))));
        ddb.deleteItem(b -> b.tableName(t).key(key("a", "1")));
        ddb.deleteItem(b -> b.tableName(t).key(key("a", "1"))); // absent: nothing committed

        assertThat(COMMITS).hasSize(3);
        ItemChange insert = COMMITS.get(0).get(0);
        assertThat(insert.eventName()).isEqualTo(EventName.INSERT);
        assertThat(insert.oldImage()).isNull();
        assertThat(insert.newImage().get("v").get("N").asText()).isEqualTo("1.5");
        assertThat(insert.keys().toString())
                .isEqualTo("{\"PK\":{\"S\":\"a\"},\"SK\":{\"S\":\"1\"}}");
        assertThat(insert.transactionId()).isNull();
        assertThat(insert.committedAt()).isEqualTo(NOW.get());
        ItemChange modify = COMMITS.get(1).get(0);
        assertThat(modify.eventName()).isEqualTo(EventName.MODIFY);
        assertThat(modify.oldImage().get("v").get("N").asText()).isEqualTo("1.5");
        assertThat(modify.newImage().get("v").get("N").asText()).isEqualTo("2");
        ItemChange remove = COMMITS.get(2).get(0);
        assertThat(remove.eventName()).isEqualTo(EventName.REMOVE);
        assertThat(remove.newImage()).isNull();
        assertThat(remove.serviceDelete()).isFalse();
    }

    @Test
    void aTransactionIsOneCommitWithOneTransactionId() {
        String t = Tables.pkSk(ddb, "SeamTx");
        ddb.transactWriteItems(
                b ->
                        b.transactItems(
                                TransactWriteItem.builder()
                                        .put(
                                                p ->
                                                        p.tableName(t)
                                                                .item(
                                                                        Map.of(
                                                                                "PK", s("x"), "SK",
                                                                                s("1"))))
                                        .build(),
                                TransactWriteItem.builder()
                                        .put(
                                                p ->
                                                        p.tableName(t)
                                                                .item(
                                                                        Map.of(
                                                                                "PK", s("y"), "SK",
                                                                                s("1"))))
                                        .build()));
        assertThat(COMMITS).hasSize(1);
        List<ItemChange> changes = COMMITS.get(0);
        assertThat(changes).hasSize(2);
        assertThat(changes.get(0).transactionId())
                .isNotNull()
                .isEqualTo(changes.get(1).transactionId());
    }

    @Test
    void streamSpecificationDrivesStreamSettingsAndDescribeTable() {
        String t = Tables.unique("Streamed");
        TableDescription created =
                ddb.createTable(
                                b ->
                                        b.tableName(t)
                                                .billingMode("PAY_PER_REQUEST")
                                                .attributeDefinitions(
                                                        Tables.attr(
                                                                "PK",
                                                                software.amazon.awssdk.services
                                                                        .dynamodb.model
                                                                        .ScalarAttributeType.S))
                                                .keySchema(
                                                        Tables.key(
                                                                "PK",
                                                                software.amazon.awssdk.services
                                                                        .dynamodb.model.KeyType
                                                                        .HASH))
                                                .streamSpecification(
                                                        StreamSpecification.builder()
                                                                .streamEnabled(true)
                                                                .streamViewType(
                                                                        StreamViewType
                                                                                .NEW_AND_OLD_IMAGES)
                                                                .build()))
                        .tableDescription();
        assertThat(STREAMS.calls).contains("enable " + t + " NEW_AND_OLD_IMAGES");
        assertThat(created.latestStreamArn()).isEqualTo(STREAMS.current.get(t).arn());
        assertThat(created.streamSpecification().streamViewType())
                .isEqualTo(StreamViewType.NEW_AND_OLD_IMAGES);

        ddb.updateTable(b -> b.tableName(t).streamSpecification(s -> s.streamEnabled(false)));
        assertThat(STREAMS.calls).contains("disable " + t);
        TableDescription d = ddb.describeTable(b -> b.tableName(t)).table();
        assertThat(d.streamSpecification().streamEnabled()).isFalse();
        assertError(
                () ->
                        ddb.updateTable(
                                b ->
                                        b.tableName(t)
                                                .streamSpecification(s -> s.streamEnabled(false))),
                "ValidationException");
        ddb.updateTable(
                b ->
                        b.tableName(t)
                                .streamSpecification(
                                        s ->
                                                s.streamEnabled(true)
                                                        .streamViewType(StreamViewType.KEYS_ONLY)));
        assertThat(ddb.describeTable(b -> b.tableName(t)).table().latestStreamLabel())
                .isEqualTo(STREAMS.current.get(t).label());
        ddb.deleteTable(b -> b.tableName(t));
        assertThat(STREAMS.calls).contains("deleted " + t);
    }

    @Test
    void unservedTargetsRouteToExtensionsElseUnknownOperation() throws Exception {
        HttpClient http = HttpClient.newHttpClient();
        HttpResponse<String> routed = post(http, "DynamoDBStreams_20120810.ListStreams", "{}");
        assertThat(routed.statusCode()).isEqualTo(200);
        assertThat(routed.body()).contains("\"servedBy\":\"DynamoDBStreams_20120810.ListStreams\"");
        HttpResponse<String> failed =
                post(http, "DynamoDBStreams_20120810.ListStreams", "{\"fail\":true}");
        assertThat(failed.statusCode()).isEqualTo(400);
        assertThat(failed.body())
                .contains(
                        "\"__type\":\"com.amazonaws.dynamodb.v20120810#ExpiredIteratorException\"");
        HttpResponse<String> unknown = post(http, "DynamoDB_20120810.RestoreTableFromBackup", "{}");
        assertThat(unknown.statusCode()).isEqualTo(400);
        assertThat(unknown.body()).contains("UnknownOperationException");
        HttpResponse<String> garbage = post(http, "DynamoDB_20120810.GetItem", "{not json");
        assertThat(garbage.body()).contains("SerializationException");
    }

    private static HttpResponse<String> post(HttpClient http, String target, String body)
            throws Exception {
        return http.send(
                HttpRequest.newBuilder(endpoint.endpoint())
                        .header("X-Amz-Target", target)
                        .header("Content-Type", "application/x-amz-json-1.0")
                        .POST(HttpRequest.BodyPublishers.ofString(body))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void ttlSweeperDeletesDueItemsLaterAsServiceDeletes() {
        String t = Tables.pkSk(ddb, "Ttl");
        ddb.updateTimeToLive(
                b ->
                        b.tableName(t)
                                .timeToLiveSpecification(
                                        s -> s.enabled(true).attributeName("exp")));
        long now = NOW.get().getEpochSecond();
        ddb.putItem(
                b ->
                        b.tableName(t)
                                .item(
                                        Map.of(
                                                "PK",
                                                s("due"),
                                                "SK",
                                                s("1"),
                                                "exp",
                                                n(Long.toString(now - 1)))));
        ddb.putItem(
                b ->
                        b.tableName(t)
                                .item(
                                        Map.of(
                                                "PK",
                                                s("later"),
                                                "SK",
                                                s("1"),
                                                "exp",
                                                n(Long.toString(now + 60)))));
        ddb.putItem(
                b ->
                        b.tableName(t)
                                .item(
                                        Map.of(
                                                "PK",
                                                s("text"),
                                                "SK",
                                                s("1"),
                                                "exp",
                                                s("not a number"))));
        COMMITS.clear();
        // due but not yet swept: still readable
        assertThat(ddb.getItem(b -> b.tableName(t).key(key("due", "1"))).hasItem()).isTrue();
        assertThat(endpoint.sweepExpiredItems()).isEqualTo(1);
        assertThat(ddb.getItem(b -> b.tableName(t).key(key("due", "1"))).hasItem()).isFalse();
        assertThat(COMMITS).hasSize(1);
        assertThat(COMMITS.get(0).get(0).serviceDelete()).isTrue();
        assertThat(COMMITS.get(0).get(0).eventName()).isEqualTo(EventName.REMOVE);
        NOW.set(NOW.get().plusSeconds(120));
        assertThat(endpoint.sweepExpiredItems()).isEqualTo(1);
        assertThat(ddb.getItem(b -> b.tableName(t).key(key("text", "1"))).hasItem()).isTrue();
    }

    @Test
    void strictModeChecksTheAccessKeyId() {
        try (LocalEndpoint strict =
                        LocalEndpoint.builder()
                                .port(0)
                                .strictCredentials(Set.of("AKIDGOOD"))
                                .build()
                                .start();
                DynamoDbClient good = Clients.dynamo(strict.endpoint(), "AKIDGOOD", false);
                DynamoDbClient bad = Clients.dynamo(strict.endpoint(), "AKIDBAD", false)) {
            assertThat(good.listTables().tableNames()).isEmpty();
            assertError(bad::listTables, "UnrecognizedClientException");
        }
    }

    @Test
    void catalogSnapshotIsConsistentAndDescribes() {
        String t = Tables.pkSk(ddb, "Snap");
        for (int i = 0; i < 5; i++) {
            String sk = Integer.toString(i);
            ddb.putItem(b -> b.tableName(t).item(Map.of("PK", s("p"), "SK", s(sk))));
        }
        List<String> seen = new ArrayList<>();
        List<String> order = new ArrayList<>();
        long count =
                endpoint.catalog()
                        .snapshot(
                                t,
                                () -> order.add("atCommit"),
                                item -> {
                                    order.add("item");
                                    seen.add(item.get("SK").get("S").asText());
                                });
        assertThat(count).isEqualTo(5);
        assertThat(order.get(0)).isEqualTo("atCommit");
        assertThat(seen).containsExactly("0", "1", "2", "3", "4");
        assertThat(endpoint.catalog().describe(t)).isPresent();
        assertThat(endpoint.catalog().describe(t).get().get("ItemCount").asLong()).isEqualTo(5);
        assertThat(endpoint.catalog().tableNames()).contains(t);
    }
}
