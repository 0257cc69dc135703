package io.streamledger.local.it;

import static io.streamledger.local.it.Errors.assertError;
import static io.streamledger.local.it.Errors.assertValidation;
import static io.streamledger.local.it.Tables.attr;
import static io.streamledger.local.it.Tables.s;
import static org.assertj.core.api.Assertions.assertThat;

import io.streamledger.local.LocalDynamoDbExtension;
import io.streamledger.local.LocalEndpoint;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndexDescription;
import software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndexUpdate;
import software.amazon.awssdk.services.dynamodb.model.IndexStatus;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.PointInTimeRecoveryStatus;
import software.amazon.awssdk.services.dynamodb.model.ProjectionType;
import software.amazon.awssdk.services.dynamodb.model.ReturnConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.ScanRequest;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;
import software.amazon.awssdk.services.dynamodb.model.TableStatus;

/**
 * Online GSI creation as DynamoDB documents it for UpdateTable: CREATING with Backfilling while a
 * background backfill runs in small chunks, unreadable until ACTIVE, one online index change per
 * table at a time, deletable while backfilling; and PITR plus online indexes across a restart with
 * a data directory (IDX01–IDX19 access paths added to a live table).
 */
class OnlineIndexITCase {
    @RegisterExtension
    static final LocalDynamoDbExtension DDB =
            new LocalDynamoDbExtension(b -> b.indexBackfill(7, Duration.ofMillis(2)));

    private static final AtomicInteger SEQ = new AtomicInteger();
    private static DynamoDbClient ddb;

    @BeforeAll
    static void setUp() {
        ddb = Clients.dynamo(DDB.endpoint().endpoint());
    }

    @AfterAll
    static void close() {
        ddb.close();
    }

    @AfterEach
    void release() {
        DDB.endpoint().holdIndexBackfills(false);
    }

    private static GlobalSecondaryIndexUpdate create(String index, String attribute) {
        return GlobalSecondaryIndexUpdate.builder()
                .create(
                        c ->
                                c.indexName(index)
                                        .keySchema(Tables.key(attribute, KeyType.HASH))
                                        .projection(
                                                p ->
                                                        p.projectionType(ProjectionType.INCLUDE)
                                                                .nonKeyAttributes("v")))
                .build();
    }

    private static TableDescription addIndex(
            DynamoDbClient client, String table, String index, String attribute) {
        return client.updateTable(
                        b ->
                                b.tableName(table)
                                        .attributeDefinitions(
                                                attr(attribute, ScalarAttributeType.S))
                                        .globalSecondaryIndexUpdates(create(index, attribute)))
                .tableDescription();
    }

    private static TableDescription dropIndex(String table, String index) {
        return ddb.updateTable(
                        b ->
                                b.tableName(table)
                                        .globalSecondaryIndexUpdates(
                                                u -> u.delete(d -> d.indexName(index))))
                .tableDescription();
    }

    private static GlobalSecondaryIndexDescription gsi(TableDescription d, String index) {
        return d.globalSecondaryIndexes().stream()
                .filter(g -> g.indexName().equals(index))
                .findFirst()
                .orElseThrow();
    }

    private static void put(DynamoDbClient client, String table, Map<String, AttributeValue> i) {
        client.putItem(b -> b.tableName(table).item(i));
    }

    private static Map<String, AttributeValue> item(String pk, String status, int v) {
        Map<String, AttributeValue> item = new HashMap<>();
        item.put("PK", s(pk));
        item.put("SK", s("x"));
        item.put("v", Tables.n(Integer.toString(v)));
        item.put("other", s("not projected"));
        if (status != null) {
            item.put("status", s(status));
        }
        return item;
    }

    private static List<Map<String, AttributeValue>> scanAll(
            DynamoDbClient client, String table, String index) {
        List<Map<String, AttributeValue>> out = new ArrayList<>();
        ScanRequest.Builder req = ScanRequest.builder().tableName(table);
        if (index != null) {
            req.indexName(index);
        } else {
            req.consistentRead(true);
        }
        client.scanPaginator(req.build()).items().forEach(out::add);
        return out;
    }

    /** What an INCLUDE(v) index on {@code status} must hold for these table items. */
    private static Set<Map<String, AttributeValue>> expectedEntries(
            List<Map<String, AttributeValue>> items) {
        Set<Map<String, AttributeValue>> out = new HashSet<>();
        for (Map<String, AttributeValue> i : items) {
            if (!i.containsKey("status")) {
                continue;
            }
            Map<String, AttributeValue> e = new HashMap<>();
            for (String a : List.of("PK", "SK", "status", "v")) {
                if (i.containsKey(a)) {
                    e.put(a, i.get(a));
                }
            }
            out.add(e);
        }
        return out;
    }

    @Test
    void backfillIsCreatingThenActiveAndEqualsTheTableAfterConcurrentWrites() throws Exception {
        String t = Tables.pkSk(ddb, "Backfill");
        for (int i = 0; i < 300; i++) {
            put(ddb, t, item("p" + i, i % 3 == 0 ? null : "S" + (i % 5), i));
        }
        DDB.endpoint().holdIndexBackfills(true);
        TableDescription answer = addIndex(ddb, t, "byStatus", "status");
        assertThat(answer.tableStatus()).isEqualTo(TableStatus.UPDATING);
        assertThat(gsi(answer, "byStatus").indexStatus()).isEqualTo(IndexStatus.CREATING);

        TableDescription creating = ddb.describeTable(b -> b.tableName(t)).table();
        assertThat(creating.tableStatus()).isEqualTo(TableStatus.ACTIVE);
        assertThat(gsi(creating, "byStatus").indexStatus()).isEqualTo(IndexStatus.CREATING);
        assertThat(gsi(creating, "byStatus").backfilling()).isTrue();
        assertValidation(
                        () ->
                                ddb.query(
                                        b ->
                                                b.tableName(t)
                                                        .indexName("byStatus")
                                                        .keyConditionExpression("#s = :s")
                                                        .expressionAttributeNames(
                                                                Map.of("#s", "status"))
                                                        .expressionAttributeValues(
                                                                Map.of(":s", s("S1")))))
                .hasMessageContaining("Cannot read from backfilling global secondary index");
        assertValidation(() -> ddb.scan(b -> b.tableName(t).indexName("byStatus")))
                .hasMessageContaining("Cannot read from backfilling global secondary index");

        // a client write during the backfill is propagated to the new index and billed for it
        var put =
                ddb.putItem(
                        b ->
                                b.tableName(t)
                                        .item(item("fresh", "S9", 1))
                                        .returnConsumedCapacity(ReturnConsumedCapacity.INDEXES));
        assertThat(put.consumedCapacity().capacityUnits()).isEqualTo(2.0);
        assertThat(put.consumedCapacity().globalSecondaryIndexes())
                .containsOnlyKeys("byStatus")
                .satisfies(m -> assertThat(m.get("byStatus").capacityUnits()).isEqualTo(1.0));

        AtomicBoolean stop = new AtomicBoolean();
        AtomicInteger writes = new AtomicInteger();
        List<Throwable> failures = java.util.Collections.synchronizedList(new ArrayList<>());
        List<Thread> writers = new ArrayList<>();
        for (int w = 0; w < 3; w++) {
            Random random = new Random(w);
            DynamoDbClient client = Clients.dynamo(DDB.endpoint().endpoint());
            Thread th =
                    new Thread(
                            () -> {
                                try (client) {
                                    while (!stop.get()) {
                                        String pk = "p" + random.nextInt(400);
                                        int op = random.nextInt(4);
                                        if (op == 0) {
                                            client.deleteItem(
                                                    b -> b.tableName(t).key(Tables.key(pk, "x")));
                                        } else {
                                            String status =
                                                    op == 1 ? null : "S" + random.nextInt(5);
                                            client.putItem(
                                                    b ->
                                                            b.tableName(t)
                                                                    .item(
                                                                            item(
                                                                                    pk,
                                                                                    status,
                                                                                    random.nextInt(
                                                                                            1000))));
                                        }
                                        writes.incrementAndGet();
                                    }
                                } catch (Throwable e) {
                                    failures.add(e);
                                }
                            });
            th.start();
            writers.add(th);
        }
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (writes.get() < 60 && failures.isEmpty() && System.nanoTime() < deadline) {
            Thread.onSpinWait();
        }
        assertThat(gsi(ddb.describeTable(b -> b.tableName(t)).table(), "byStatus").indexStatus())
                .isEqualTo(IndexStatus.CREATING);
        DDB.endpoint().holdIndexBackfills(false);
        TableDescription active = Tables.awaitIndexesActive(ddb, t);
        int writesAtActive = writes.get();
        while (writes.get() < writesAtActive + 30
                && failures.isEmpty()
                && System.nanoTime() < deadline) {
            Thread.onSpinWait();
        }
        stop.set(true);
        for (Thread th : writers) {
            th.join();
        }
        assertThat(failures).isEmpty();
        assertThat(gsi(active, "byStatus").backfilling()).isNotEqualTo(Boolean.TRUE);

        Set<Map<String, AttributeValue>> expected = expectedEntries(scanAll(ddb, t, null));
        List<Map<String, AttributeValue>> indexed = scanAll(ddb, t, "byStatus");
        assertThat(indexed).hasSameSizeAs(expected);
        assertThat(new HashSet<>(indexed)).isEqualTo(expected);
        assertThat(gsi(ddb.describeTable(b -> b.tableName(t)).table(), "byStatus").itemCount())
                .isEqualTo(expected.size());
    }

    @Test
    void oneOnlineIndexChangePerTableAtATime() {
        String t = Tables.pkSk(ddb, "OneAtATime");
        put(ddb, t, item("a", "S1", 1));
        String limit =
                "Subscriber limit exceeded: Only 1 online index can be created or deleted"
                        + " simultaneously per table";
        assertError(
                        () ->
                                ddb.updateTable(
                                        b ->
                                                b.tableName(t)
                                                        .attributeDefinitions(
                                                                attr(
                                                                        "status",
                                                                        ScalarAttributeType.S),
                                                                attr("v2", ScalarAttributeType.S))
                                                        .globalSecondaryIndexUpdates(
                                                                create("byStatus", "status"),
                                                                create("byV2", "v2"))),
                        "LimitExceededException")
                .hasMessageContaining(limit);
        addIndex(ddb, t, "first", "status");
        Tables.awaitIndexesActive(ddb, t);

        DDB.endpoint().holdIndexBackfills(true);
        addIndex(ddb, t, "second", "status");
        assertError(() -> addIndex(ddb, t, "third", "status"), "LimitExceededException")
                .hasMessageContaining(limit);
        assertError(() -> dropIndex(t, "first"), "LimitExceededException")
                .hasMessageContaining(limit);
        // throughput updates are not online index creations or deletions
        ddb.updateTable(
                b ->
                        b.tableName(t)
                                .globalSecondaryIndexUpdates(
                                        u ->
                                                u.update(
                                                        x ->
                                                                x.indexName("first")
                                                                        .provisionedThroughput(
                                                                                p ->
                                                                                        p.readCapacityUnits(
                                                                                                        5L)
                                                                                                .writeCapacityUnits(
                                                                                                        5L)))));

        // an index may be deleted while it is CREATING with Backfilling true
        TableDescription dropped = dropIndex(t, "second");
        assertThat(gsi(dropped, "second").indexStatus()).isEqualTo(IndexStatus.DELETING);
        assertThat(ddb.describeTable(b -> b.tableName(t)).table().globalSecondaryIndexes())
                .extracting(GlobalSecondaryIndexDescription::indexName)
                .containsExactly("first");

        addIndex(ddb, t, "third", "status");
        DDB.endpoint().holdIndexBackfills(false);
        TableDescription d = Tables.awaitIndexesActive(ddb, t);
        assertThat(d.globalSecondaryIndexes())
                .extracting(GlobalSecondaryIndexDescription::indexName)
                .containsExactlyInAnyOrder("first", "third");
        assertThat(scanAll(ddb, t, "third")).hasSize(1);
    }

    @Test
    void deleteTableWhileAnIndexIsBackfilling() {
        String t = Tables.pkSk(ddb, "DropWhileCreating");
        for (int i = 0; i < 50; i++) {
            put(ddb, t, item("p" + i, "S1", i));
        }
        DDB.endpoint().holdIndexBackfills(true);
        addIndex(ddb, t, "byStatus", "status");
        TableDescription deleted = ddb.deleteTable(b -> b.tableName(t)).tableDescription();
        assertThat(deleted.tableStatus()).isEqualTo(TableStatus.DELETING);
        assertThat(gsi(deleted, "byStatus").indexStatus()).isEqualTo(IndexStatus.DELETING);
        assertError(() -> ddb.describeTable(b -> b.tableName(t)), "ResourceNotFoundException");

        // the stopped backfill leaves nothing behind: a new table of that name starts empty
        DDB.endpoint().holdIndexBackfills(false);
        Tables.pkSkNamed(ddb, t);
        addIndex(ddb, t, "byStatus", "status");
        Tables.awaitIndexesActive(ddb, t);
        assertThat(scanAll(ddb, t, "byStatus")).isEmpty();
    }

    @Test
    void pointInTimeRecoveryAndOnlineIndexesSurviveRestarts(@TempDir Path dataDir) {
        String t = Tables.unique("Restart");
        double earliest;
        try (LocalEndpoint first = LocalEndpoint.builder().dataDir(dataDir).build().start();
                DynamoDbClient c = Clients.dynamo(first.endpoint())) {
            Tables.pkSkNamed(c, t);
            for (int i = 0; i < 20; i++) {
                c.putItem(b -> b.tableName(t).item(item("p" + SEQ.incrementAndGet(), "S1", 1)));
            }
            c.updateContinuousBackups(
                    b ->
                            b.tableName(t)
                                    .pointInTimeRecoverySpecification(
                                            p -> p.pointInTimeRecoveryEnabled(true)));
            earliest =
                    c.describeContinuousBackups(b -> b.tableName(t))
                            .continuousBackupsDescription()
                            .pointInTimeRecoveryDescription()
                            .earliestRestorableDateTime()
                            .toEpochMilli();
            first.holdIndexBackfills(true);
            addIndex(c, t, "byStatus", "status");
            // stopped while the index is still CREATING
        }
        for (int restart = 0; restart < 2; restart++) {
            try (LocalEndpoint again = LocalEndpoint.builder().dataDir(dataDir).build().start();
                    DynamoDbClient c = Clients.dynamo(again.endpoint())) {
                var pitr =
                        c.describeContinuousBackups(b -> b.tableName(t))
                                .continuousBackupsDescription()
                                .pointInTimeRecoveryDescription();
                assertThat(pitr.pointInTimeRecoveryStatus())
                        .isEqualTo(PointInTimeRecoveryStatus.ENABLED);
                assertThat((double) pitr.earliestRestorableDateTime().toEpochMilli())
                        .isEqualTo(earliest);
                TableDescription d = Tables.awaitIndexesActive(c, t);
                assertThat(gsi(d, "byStatus").itemCount()).isEqualTo(20);
                assertThat(new HashSet<>(scanAll(c, t, "byStatus")))
                        .isEqualTo(expectedEntries(scanAll(c, t, null)));
            }
        }
    }
}
