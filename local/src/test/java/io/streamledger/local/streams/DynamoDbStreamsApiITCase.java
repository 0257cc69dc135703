package io.streamledger.local.streams;

import static io.streamledger.local.it.Tables.attr;
import static io.streamledger.local.it.Tables.key;
import static io.streamledger.local.it.Tables.n;
import static io.streamledger.local.it.Tables.s;
import static io.streamledger.local.streams.StreamsClients.readAll;
import static io.streamledger.local.streams.StreamsClients.readShard;
import static io.streamledger.local.streams.StreamsClients.shards;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.streamledger.local.LocalDynamoDbExtension;
import io.streamledger.local.it.Clients;
import io.streamledger.local.it.Tables;
import io.streamledger.local.testing.MutableClock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.ExpiredIteratorException;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.OperationType;
import software.amazon.awssdk.services.dynamodb.model.Put;
import software.amazon.awssdk.services.dynamodb.model.Record;
import software.amazon.awssdk.services.dynamodb.model.ResourceNotFoundException;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.Shard;
import software.amazon.awssdk.services.dynamodb.model.ShardFilterType;
import software.amazon.awssdk.services.dynamodb.model.ShardIteratorType;
import software.amazon.awssdk.services.dynamodb.model.StreamDescription;
import software.amazon.awssdk.services.dynamodb.model.StreamStatus;
import software.amazon.awssdk.services.dynamodb.model.StreamViewType;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;
import software.amazon.awssdk.services.dynamodb.model.TrimmedDataAccessException;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsClient;

/**
 * DynamoDB Streams conformance through the real SDK v2 clients against the local endpoint: every
 * API, every view type, transactions, TTL service deletes, rollover lineage, iterator expiry and
 * retention on the endpoint's clock (CS07).
 */
class DynamoDbStreamsApiITCase {
    private static final MutableClock CLOCK =
            new MutableClock(Instant.parse("2026-11-30T10:00:00Z"));

    @RegisterExtension
    static final LocalDynamoDbExtension LOCAL =
            new LocalDynamoDbExtension(
                    b ->
                            b.clock(CLOCK)
                                    .ttlSweepInterval(null)
                                    .streamFeatures(
                                            StreamFeatures.defaults()
                                                    .withStreams(
                                                            StreamsOptions.builder()
                                                                    .shardsPerTable(3)
                                                                    .build())));

    private static DynamoDbClient ddb;
    private static DynamoDbStreamsClient streams;

    @BeforeAll
    static void clients() {
        ddb = Clients.dynamo(LOCAL.endpoint().endpoint());
        streams = StreamsClients.streams(LOCAL.endpoint().endpoint());
    }

    @AfterAll
    static void close() {
        ddb.close();
        streams.close();
    }

    private static String table(StreamViewType view) {
        String name = Tables.unique("streams");
        ddb.createTable(
                b ->
                        b.tableName(name)
                                .billingMode(BillingMode.PAY_PER_REQUEST)
                                .attributeDefinitions(
                                        attr("PK", ScalarAttributeType.S),
                                        attr("SK", ScalarAttributeType.S))
                                .keySchema(key("PK", KeyType.HASH), key("SK", KeyType.RANGE))
                                .streamSpecification(
                                        sp -> sp.streamEnabled(true).streamViewType(view)));
        return name;
    }

    private static String streamArn(String table) {
        return ddb.describeTable(b -> b.tableName(table)).table().latestStreamArn();
    }

    private static void putVersion(String table, String pk, int version) {
        ddb.putItem(
                b ->
                        b.tableName(table)
                                .item(
                                        Map.of(
                                                "PK",
                                                s(pk),
                                                "SK",
                                                s("A"),
                                                "version",
                                                n(Integer.toString(version)))));
    }

    @Test
    void everyViewTypeCarriesExactlyItsImages() {
        for (StreamViewType view :
                List.of(
                        StreamViewType.KEYS_ONLY,
                        StreamViewType.NEW_IMAGE,
                        StreamViewType.OLD_IMAGE,
                        StreamViewType.NEW_AND_OLD_IMAGES)) {
            String table = table(view);
            String arn = streamArn(table);
            assertThat(arn)
                    .startsWith(
                            "arn:aws:dynamodb:us-east-1:000000000000:table/" + table + "/stream/");
            putVersion(table, "o1", 1);
            putVersion(table, "o1", 2);
            ddb.deleteItem(b -> b.tableName(table).key(Tables.key("o1", "A")));

            List<Record> records = readAll(streams, arn);
            assertThat(records)
                    .extracting(Record::eventName)
                    .as(view.toString())
                    .containsExactly(
                            OperationType.INSERT, OperationType.MODIFY, OperationType.REMOVE);
            Record modify = records.get(1);
            assertThat(modify.dynamodb().streamViewType()).isEqualTo(view);
            assertThat(modify.dynamodb().keys()).isEqualTo(Tables.key("o1", "A"));
            boolean wantsNew =
                    view == StreamViewType.NEW_IMAGE || view == StreamViewType.NEW_AND_OLD_IMAGES;
            boolean wantsOld =
                    view == StreamViewType.OLD_IMAGE || view == StreamViewType.NEW_AND_OLD_IMAGES;
            assertThat(modify.dynamodb().hasNewImage()).isEqualTo(wantsNew);
            assertThat(modify.dynamodb().hasOldImage()).isEqualTo(wantsOld);
            if (wantsNew) {
                assertThat(modify.dynamodb().newImage().get("version").n()).isEqualTo("2");
            }
            if (wantsOld) {
                assertThat(modify.dynamodb().oldImage().get("version").n()).isEqualTo("1");
            }
            assertThat(modify.dynamodb().sizeBytes()).isPositive();
            assertThat(modify.dynamodb().approximateCreationDateTime()).isEqualTo(CLOCK.instant());
            assertThat(modify.eventVersion()).isEqualTo("1.1");
            assertThat(modify.eventSource()).isEqualTo("aws:dynamodb");
            assertThat(modify.userIdentity()).isNull();
            List<String> seqs = records.stream().map(r -> r.dynamodb().sequenceNumber()).toList();
            assertThat(seqs).allMatch(x -> x.length() >= 21).isSorted();
        }
    }

    @Test
    void aTransactionEmitsOneRecordPerItemAcrossShards() {
        String table = table(StreamViewType.NEW_IMAGE);
        List<TransactWriteItem> items = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            Map<String, AttributeValue> item = Map.of("PK", s("tx" + i), "SK", s("A"));
            items.add(
                    TransactWriteItem.builder()
                            .put(Put.builder().tableName(table).item(item).build())
                            .build());
        }
        ddb.transactWriteItems(b -> b.transactItems(items));
        String arn = streamArn(table);
        List<Record> records = readAll(streams, arn);
        assertThat(records).hasSize(8).allMatch(r -> r.eventName() == OperationType.INSERT);
        assertThat(records.stream().map(r -> r.dynamodb().keys().get("PK").s()))
                .containsExactlyInAnyOrder("tx0", "tx1", "tx2", "tx3", "tx4", "tx5", "tx6", "tx7");
        long shardsWithRecords =
                shards(streams, arn).stream()
                        .filter(sh -> !readShard(streams, arn, sh.shardId()).isEmpty())
                        .count();
        assertThat(shardsWithRecords).as("8 keys over 3 hashed shards").isGreaterThan(1);
    }

    @Test
    void perItemOrderHoldsUnderConcurrentWriters() throws Exception {
        String table = table(StreamViewType.NEW_IMAGE);
        int threads = 8;
        int versions = 40;
        var pool = java.util.concurrent.Executors.newFixedThreadPool(threads);
        try {
            List<java.util.concurrent.Future<?>> done = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                String pk = "acct-" + t;
                done.add(
                        pool.submit(
                                () -> {
                                    for (int v = 1; v <= versions; v++) {
                                        putVersion(table, pk, v);
                                    }
                                }));
            }
            for (var f : done) {
                f.get();
            }
        } finally {
            pool.shutdownNow();
        }
        Map<String, Integer> last = new java.util.HashMap<>();
        int count = 0;
        for (Record r : readAll(streams, streamArn(table))) {
            String pk = r.dynamodb().keys().get("PK").s();
            int v = Integer.parseInt(r.dynamodb().newImage().get("version").n());
            assertThat(v).as("next version of %s", pk).isEqualTo(last.getOrDefault(pk, 0) + 1);
            last.put(pk, v);
            count++;
        }
        assertThat(count).isEqualTo(threads * versions);
    }

    @Test
    void ttlSweepIsAServiceRemove() {
        String table = table(StreamViewType.OLD_IMAGE);
        ddb.updateTimeToLive(
                b ->
                        b.tableName(table)
                                .timeToLiveSpecification(
                                        t -> t.enabled(true).attributeName("expiresAt")));
        long past = CLOCK.instant().getEpochSecond() - 60;
        ddb.putItem(
                b ->
                        b.tableName(table)
                                .item(
                                        Map.of(
                                                "PK",
                                                s("gone"),
                                                "SK",
                                                s("A"),
                                                "expiresAt",
                                                n(Long.toString(past)))));
        assertThat(LOCAL.endpoint().sweepExpiredItems()).isEqualTo(1);
        List<Record> records = readAll(streams, streamArn(table));
        Record remove = records.get(records.size() - 1);
        assertThat(remove.eventName()).isEqualTo(OperationType.REMOVE);
        assertThat(remove.userIdentity().type()).isEqualTo("Service");
        assertThat(remove.userIdentity().principalId()).isEqualTo("dynamodb.amazonaws.com");
        assertThat(remove.dynamodb().oldImage().get("PK").s()).isEqualTo("gone");
    }

    @Test
    void rolloverClosesShardsAndChildrenNameTheirParents() {
        String table = table(StreamViewType.NEW_IMAGE);
        String arn = streamArn(table);
        putVersion(table, "o1", 1);
        LOCAL.endpoint().streamFeatures().streams().rolloverShards(table);
        putVersion(table, "o1", 2);

        List<Shard> all = shards(streams, arn);
        assertThat(all).hasSize(6);
        List<Shard> parents = all.subList(0, 3);
        List<Shard> children = all.subList(3, 6);
        assertThat(parents)
                .allMatch(
                        p ->
                                p.parentShardId() == null
                                        && p.sequenceNumberRange().endingSequenceNumber() != null);
        for (int i = 0; i < 3; i++) {
            assertThat(children.get(i).parentShardId()).isEqualTo(parents.get(i).shardId());
            assertThat(children.get(i).sequenceNumberRange().endingSequenceNumber()).isNull();
        }
        // ShardFilter CHILD_SHARDS lists exactly one parent's children
        for (int i = 0; i < 3; i++) {
            String parentId = parents.get(i).shardId();
            assertThat(
                            streams.describeStream(
                                            b ->
                                                    b.streamArn(arn)
                                                            .shardFilter(
                                                                    f ->
                                                                            f.type(
                                                                                            ShardFilterType
                                                                                                    .CHILD_SHARDS)
                                                                                    .shardId(
                                                                                            parentId)))
                                    .streamDescription()
                                    .shards())
                    .extracting(Shard::shardId)
                    .containsExactly(children.get(i).shardId());
        }
        // a closed shard read to its end returns no NextShardIterator
        for (Shard p : parents) {
            String it =
                    streams.getShardIterator(
                                    b ->
                                            b.streamArn(arn)
                                                    .shardId(p.shardId())
                                                    .shardIteratorType(
                                                            ShardIteratorType.TRIM_HORIZON))
                            .shardIterator();
            assertThat(streams.getRecords(b -> b.shardIterator(it)).nextShardIterator()).isNull();
        }
        assertThat(
                        readAll(streams, arn).stream()
                                .map(r -> r.dynamodb().newImage().get("version").n()))
                .containsExactly("1", "2");
    }

    @Test
    void iteratorTypesExpiryAndRetention() {
        String table = table(StreamViewType.NEW_IMAGE);
        String arn = streamArn(table);
        putVersion(table, "o1", 1);
        putVersion(table, "o1", 2);
        putVersion(table, "o1", 3);
        Shard shard =
                shards(streams, arn).stream()
                        .filter(sh -> !readShard(streams, arn, sh.shardId()).isEmpty())
                        .findFirst()
                        .orElseThrow();
        List<Record> rs = readShard(streams, arn, shard.shardId());
        String second = rs.get(1).dynamodb().sequenceNumber();
        String at =
                streams.getShardIterator(
                                b ->
                                        b.streamArn(arn)
                                                .shardId(shard.shardId())
                                                .shardIteratorType(
                                                        ShardIteratorType.AT_SEQUENCE_NUMBER)
                                                .sequenceNumber(second))
                        .shardIterator();
        assertThat(streams.getRecords(b -> b.shardIterator(at)).records())
                .extracting(r -> r.dynamodb().newImage().get("version").n())
                .containsExactly("2", "3");
        String after =
                streams.getShardIterator(
                                b ->
                                        b.streamArn(arn)
                                                .shardId(shard.shardId())
                                                .shardIteratorType(
                                                        ShardIteratorType.AFTER_SEQUENCE_NUMBER)
                                                .sequenceNumber(second))
                        .shardIterator();
        assertThat(streams.getRecords(b -> b.shardIterator(after).limit(1)).records())
                .extracting(r -> r.dynamodb().newImage().get("version").n())
                .containsExactly("3");
        String latest =
                streams.getShardIterator(
                                b ->
                                        b.streamArn(arn)
                                                .shardId(shard.shardId())
                                                .shardIteratorType(ShardIteratorType.LATEST))
                        .shardIterator();
        assertThat(streams.getRecords(b -> b.shardIterator(latest)).records()).isEmpty();

        CLOCK.advance(Duration.ofMinutes(16));
        assertThatThrownBy(() -> streams.getRecords(b -> b.shardIterator(at)))
                .isInstanceOf(ExpiredIteratorException.class);

        CLOCK.advance(Duration.ofHours(24).minusMinutes(21)); // written at T; now T + 23 h 55 min
        String horizon =
                streams.getShardIterator(
                                b ->
                                        b.streamArn(arn)
                                                .shardId(shard.shardId())
                                                .shardIteratorType(ShardIteratorType.TRIM_HORIZON))
                        .shardIterator();
        CLOCK.advance(Duration.ofMinutes(6)); // records are 24 h 1 min old; the iterator 6 min
        assertThatThrownBy(() -> streams.getRecords(b -> b.shardIterator(horizon)))
                .isInstanceOf(TrimmedDataAccessException.class);
        assertThatThrownBy(
                        () ->
                                streams.getShardIterator(
                                        b ->
                                                b.streamArn(arn)
                                                        .shardId(shard.shardId())
                                                        .shardIteratorType(
                                                                ShardIteratorType
                                                                        .AT_SEQUENCE_NUMBER)
                                                        .sequenceNumber(second)))
                .isInstanceOf(TrimmedDataAccessException.class);
    }

    @Test
    void listDescribeDisableAndErrors() {
        String table = table(StreamViewType.KEYS_ONLY);
        String first = streamArn(table);
        ddb.updateTable(b -> b.tableName(table).streamSpecification(sp -> sp.streamEnabled(false)));
        StreamDescription disabled =
                streams.describeStream(b -> b.streamArn(first)).streamDescription();
        assertThat(disabled.streamStatus()).isEqualTo(StreamStatus.DISABLED);
        assertThat(disabled.tableName()).isEqualTo(table);
        assertThat(disabled.keySchema())
                .extracting(k -> k.attributeName())
                .containsExactly("PK", "SK");
        assertThat(disabled.shards())
                .allMatch(sh -> sh.sequenceNumberRange().endingSequenceNumber() != null);

        ddb.updateTable(
                b ->
                        b.tableName(table)
                                .streamSpecification(
                                        sp ->
                                                sp.streamEnabled(true)
                                                        .streamViewType(StreamViewType.NEW_IMAGE)));
        String second = streamArn(table);
        assertThat(second).isNotEqualTo(first);
        var page1 = streams.listStreams(b -> b.tableName(table).limit(1));
        assertThat(page1.streams()).hasSize(1);
        assertThat(page1.lastEvaluatedStreamArn()).isEqualTo(first);
        var page2 = streams.listStreams(b -> b.tableName(table).exclusiveStartStreamArn(first));
        assertThat(page2.streams()).extracting(x -> x.streamArn()).containsExactly(second);
        assertThat(page2.lastEvaluatedStreamArn()).isNull();
        assertThat(streams.listStreams(b -> b.limit(100)).streams())
                .extracting(x -> x.streamArn())
                .contains(first, second);

        assertThatThrownBy(() -> streams.describeStream(b -> b.streamArn(first + "x")))
                .isInstanceOf(ResourceNotFoundException.class);
        assertThatThrownBy(
                        () ->
                                streams.getShardIterator(
                                        b ->
                                                b.streamArn(second)
                                                        .shardId(disabled.shards().get(0).shardId())
                                                        .shardIteratorType(
                                                                ShardIteratorType.LATEST)))
                .isInstanceOf(ResourceNotFoundException.class);
        io.streamledger.local.it.Errors.assertValidation(
                () -> streams.getRecords(b -> b.shardIterator("not-an-iterator")));
    }
}
