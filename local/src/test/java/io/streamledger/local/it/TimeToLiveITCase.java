package io.streamledger.local.it;

import static io.streamledger.local.it.Errors.assertValidation;
import static io.streamledger.local.it.Tables.key;
import static io.streamledger.local.it.Tables.n;
import static io.streamledger.local.it.Tables.s;
import static org.assertj.core.api.Assertions.assertThat;

import io.streamledger.local.LocalDynamoDbExtension;
import io.streamledger.local.LocalEndpoint;
import io.streamledger.local.streams.StreamsClients;
import io.streamledger.local.testing.MutableClock;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.OperationType;
import software.amazon.awssdk.services.dynamodb.model.Record;
import software.amazon.awssdk.services.dynamodb.model.StreamViewType;
import software.amazon.awssdk.services.dynamodb.model.TimeToLiveStatus;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsClient;

/**
 * TTL: UpdateTimeToLive/DescribeTimeToLive, the background sweeper deleting items once the
 * endpoint's clock passes their TTL attribute, and those deletes in the stream as the service's
 * (userIdentity Service / dynamodb.amazonaws.com) — the retention deletes of CS07/CS10 consumers.
 */
class TimeToLiveITCase {
    private static final MutableClock CLOCK =
            new MutableClock(Instant.parse("2026-06-01T00:00:00Z"));

    @RegisterExtension
    static final LocalDynamoDbExtension DDB =
            new LocalDynamoDbExtension(b -> b.clock(CLOCK).ttlSweepInterval(Duration.ofMillis(20)));

    private static DynamoDbClient ddb;
    private static DynamoDbStreamsClient streams;

    @BeforeAll
    static void setUp(LocalEndpoint endpoint) {
        ddb = Clients.dynamo(endpoint.endpoint());
        streams = StreamsClients.streams(endpoint.endpoint());
    }

    @AfterAll
    static void close() {
        ddb.close();
        streams.close();
    }

    private static String ttlTable(String attr) {
        String t = Tables.pkSk(ddb, "Ttl");
        var spec =
                ddb.updateTimeToLive(
                        b ->
                                b.tableName(t)
                                        .timeToLiveSpecification(
                                                s -> s.enabled(true).attributeName(attr)));
        assertThat(spec.timeToLiveSpecification().attributeName()).isEqualTo(attr);
        return t;
    }

    private static void put(String table, String pk, long expiresAt) {
        ddb.putItem(
                b ->
                        b.tableName(table)
                                .item(
                                        Map.of(
                                                "PK",
                                                s(pk),
                                                "SK",
                                                s("1"),
                                                "exp",
                                                n(Long.toString(expiresAt)))));
    }

    private static boolean exists(String table, String pk) {
        return ddb.getItem(b -> b.tableName(table).key(key(pk, "1")).consistentRead(true))
                .hasItem();
    }

    /** Waits for a condition the background sweeper brings about, failing after 10 s. */
    private static void awaitTrue(BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (!condition.getAsBoolean()) {
            assertThat(System.nanoTime()).as("condition within 10 s").isLessThan(deadline);
            Thread.sleep(10);
        }
    }

    @Test
    void describeAndValidateTimeToLive() {
        String t = Tables.pkSk(ddb, "TtlSpec");
        assertThat(
                        ddb.describeTimeToLive(b -> b.tableName(t))
                                .timeToLiveDescription()
                                .timeToLiveStatus())
                .isEqualTo(TimeToLiveStatus.DISABLED);
        ddb.updateTimeToLive(
                b ->
                        b.tableName(t)
                                .timeToLiveSpecification(
                                        s -> s.enabled(true).attributeName("exp")));
        var d = ddb.describeTimeToLive(b -> b.tableName(t)).timeToLiveDescription();
        assertThat(d.timeToLiveStatus()).isEqualTo(TimeToLiveStatus.ENABLED);
        assertThat(d.attributeName()).isEqualTo("exp");
        assertValidation(
                        () ->
                                ddb.updateTimeToLive(
                                        b ->
                                                b.tableName(t)
                                                        .timeToLiveSpecification(
                                                                s -> s.attributeName("exp"))))
                .hasMessageContaining("timeToLiveSpecification.enabled");
        assertValidation(
                        () ->
                                ddb.updateTimeToLive(
                                        b ->
                                                b.tableName(t)
                                                        .timeToLiveSpecification(
                                                                s ->
                                                                        s.enabled(false)
                                                                                .attributeName(
                                                                                        "other"))))
                .hasMessageContaining(
                        "TimeToLive is active on a different AttributeName: current AttributeName is exp");
        ddb.updateTimeToLive(
                b ->
                        b.tableName(t)
                                .timeToLiveSpecification(
                                        s -> s.enabled(false).attributeName("exp")));
        assertThat(
                        ddb.describeTimeToLive(b -> b.tableName(t))
                                .timeToLiveDescription()
                                .timeToLiveStatus())
                .isEqualTo(TimeToLiveStatus.DISABLED);
        Errors.assertError(
                () -> ddb.describeTimeToLive(b -> b.tableName("no-such-table")),
                "ResourceNotFoundException");
    }

    @Test
    void backgroundSweeperDeletesOnlyWhatTheClockHasPassed() throws InterruptedException {
        String t = ttlTable("exp");
        long now = CLOCK.instant().getEpochSecond();
        put(t, "soon", now + 60);
        put(t, "later", now + 3600);
        ddb.putItem(b -> b.tableName(t).item(Map.of("PK", s("text"), "SK", s("1"), "exp", s("1"))));
        ddb.putItem(
                b -> b.tableName(t).item(Map.of("PK", s("ancient"), "SK", s("1"), "exp", n("1"))));
        // nothing is due yet: the sweeper keeps running and leaves everything
        assertThat(DDB.endpoint().sweepExpiredItems()).isZero();
        assertThat(exists(t, "soon")).isTrue();

        CLOCK.advance(Duration.ofSeconds(61));
        awaitTrue(() -> !exists(t, "soon"));
        assertThat(exists(t, "later")).isTrue();
        assertThat(exists(t, "text")).as("a non-number TTL attribute never expires").isTrue();
        assertThat(exists(t, "ancient")).as("more than five years past: ignored").isTrue();

        // rewriting an item with a later TTL before the sweep keeps it
        put(t, "later", now + 7200);
        CLOCK.advance(Duration.ofSeconds(3600));
        assertThat(DDB.endpoint().sweepExpiredItems()).isZero();
        assertThat(exists(t, "later")).isTrue();
    }

    @Test
    void sweptItemsAppearInTheStreamAsServiceDeletes() throws Exception {
        String t = ttlTable("expiresAt");
        String arn =
                ddb.updateTable(
                                b ->
                                        b.tableName(t)
                                                .streamSpecification(
                                                        s ->
                                                                s.streamEnabled(true)
                                                                        .streamViewType(
                                                                                StreamViewType
                                                                                        .NEW_AND_OLD_IMAGES)))
                        .tableDescription()
                        .latestStreamArn();
        long now = CLOCK.instant().getEpochSecond();
        ddb.putItem(
                b ->
                        b.tableName(t)
                                .item(
                                        Map.of(
                                                "PK",
                                                s("ttl"),
                                                "SK",
                                                s("1"),
                                                "expiresAt",
                                                n(Long.toString(now + 10)))));
        ddb.putItem(b -> b.tableName(t).item(Map.of("PK", s("user"), "SK", s("1"))));
        ddb.deleteItem(b -> b.tableName(t).key(key("user", "1")));
        CLOCK.advance(Duration.ofSeconds(11));
        // deterministic sweep through the admin path (the background sweeper may also get there
        // first)
        HttpResponse<String> sweep =
                HttpClient.newHttpClient()
                        .send(
                                HttpRequest.newBuilder(
                                                DDB.endpoint()
                                                        .endpoint()
                                                        .resolve("/__admin/ttl/sweep"))
                                        .POST(HttpRequest.BodyPublishers.noBody())
                                        .build(),
                                HttpResponse.BodyHandlers.ofString());
        assertThat(sweep.statusCode()).isEqualTo(200);
        awaitTrue(() -> StreamsClients.readAll(streams, arn).size() == 4);

        List<Record> records = StreamsClients.readAll(streams, arn);
        Record ttlRemove =
                records.stream()
                        .filter(
                                r ->
                                        r.eventName() == OperationType.REMOVE
                                                && r.dynamodb().keys().get("PK").s().equals("ttl"))
                        .findFirst()
                        .orElseThrow();
        assertThat(ttlRemove.userIdentity()).isNotNull();
        assertThat(ttlRemove.userIdentity().type()).isEqualTo("Service");
        assertThat(ttlRemove.userIdentity().principalId()).isEqualTo("dynamodb.amazonaws.com");
        assertThat(ttlRemove.dynamodb().oldImage())
                .containsEntry("expiresAt", n(Long.toString(now + 10)));
        assertThat(ttlRemove.dynamodb().newImage()).isEmpty();
        Record userRemove =
                records.stream()
                        .filter(
                                r ->
                                        r.eventName() == OperationType.REMOVE
                                                && r.dynamodb().keys().get("PK").s().equals("user"))
                        .findFirst()
                        .orElseThrow();
        assertThat(userRemove.userIdentity()).as("a client's delete has no userIdentity").isNull();
    }
}
