package io.streamledger.local.streams;

import static io.streamledger.local.testing.Changes.insert;
import static io.streamledger.local.testing.Changes.modify;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.streamledger.local.spi.ApiException;
import io.streamledger.local.spi.ItemChange;
import io.streamledger.local.testing.Changes;
import io.streamledger.local.testing.FakeTableCatalog;
import io.streamledger.local.testing.MutableClock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Unit rules of the local DynamoDB Streams, driven through its CommitListener (CS07). */
class LocalDynamoDbStreamsTest {
    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;
    private static final Instant T0 = Instant.parse("2026-11-30T10:00:00Z");

    private final MutableClock clock = new MutableClock(T0);

    private LocalDynamoDbStreams streams(StreamsOptions.Builder b) {
        LocalDynamoDbStreams s = new LocalDynamoDbStreams(b.clock(clock).build());
        FakeTableCatalog catalog = new FakeTableCatalog();
        catalog.createTable("Orders");
        s.attach(catalog);
        return s;
    }

    @Test
    void streamArnAndLabelFollowAwsFormat() {
        LocalDynamoDbStreams s = streams(StreamsOptions.builder());
        var id = s.enable("Orders", "NEW_AND_OLD_IMAGES");
        assertThat(id.label()).isEqualTo("2026-11-30T10:00:00.000");
        assertThat(id.arn())
                .isEqualTo(
                        "arn:aws:dynamodb:us-east-1:000000000000:table/Orders/stream/2026-11-30T10:00:00.000");
        assertThat(s.current("Orders")).contains(id);
    }

    @Test
    void recordsCarryTheImagesOfTheirViewType() {
        Map<ViewType, JsonNode> modifyRecords = new HashMap<>();
        for (ViewType view : ViewType.values()) {
            LocalDynamoDbStreams s = streams(StreamsOptions.builder().shardsPerTable(1));
            String arn = s.enable("Orders", view.name()).arn();
            s.onCommit(List.of(modify("Orders", "o1", 1, 2, T0)));
            List<JsonNode> records = readAll(s, arn);
            assertThat(records).hasSize(1);
            modifyRecords.put(view, records.get(0));
        }
        JsonNode keysOnly = modifyRecords.get(ViewType.KEYS_ONLY).get("dynamodb");
        assertThat(keysOnly.has("NewImage")).isFalse();
        assertThat(keysOnly.has("OldImage")).isFalse();
        assertThat(keysOnly.get("Keys").get("PK").get("S").asText()).isEqualTo("o1");
        JsonNode newOnly = modifyRecords.get(ViewType.NEW_IMAGE).get("dynamodb");
        assertThat(newOnly.get("NewImage").get("version").get("N").asText()).isEqualTo("2");
        assertThat(newOnly.has("OldImage")).isFalse();
        JsonNode oldOnly = modifyRecords.get(ViewType.OLD_IMAGE).get("dynamodb");
        assertThat(oldOnly.get("OldImage").get("version").get("N").asText()).isEqualTo("1");
        assertThat(oldOnly.has("NewImage")).isFalse();
        JsonNode both = modifyRecords.get(ViewType.NEW_AND_OLD_IMAGES).get("dynamodb");
        assertThat(both.get("OldImage").get("version").get("N").asText()).isEqualTo("1");
        assertThat(both.get("NewImage").get("version").get("N").asText()).isEqualTo("2");
        assertThat(both.get("StreamViewType").asText()).isEqualTo("NEW_AND_OLD_IMAGES");
        assertThat(both.get("SizeBytes").asLong())
                .isGreaterThan(keysOnly.get("SizeBytes").asLong());
        assertThat(both.get("ApproximateCreationDateTime").isIntegralNumber()).isTrue();
        assertThat(both.get("ApproximateCreationDateTime").asLong()).isEqualTo(T0.getEpochSecond());
        JsonNode record = modifyRecords.get(ViewType.NEW_AND_OLD_IMAGES);
        assertThat(record.get("eventName").asText()).isEqualTo("MODIFY");
        assertThat(record.get("eventVersion").asText()).isEqualTo("1.1");
        assertThat(record.get("eventSource").asText()).isEqualTo("aws:dynamodb");
        assertThat(record.get("eventID").asText()).hasSize(32);
        assertThat(record.has("userIdentity")).isFalse();
    }

    @Test
    void ttlDeleteCarriesTheServiceIdentity() {
        LocalDynamoDbStreams s = streams(StreamsOptions.builder().shardsPerTable(1));
        String arn = s.enable("Orders", "OLD_IMAGE").arn();
        s.onCommit(List.of(Changes.ttlDelete("Orders", "o1", T0)));
        JsonNode r = readAll(s, arn).get(0);
        assertThat(r.get("eventName").asText()).isEqualTo("REMOVE");
        assertThat(r.get("userIdentity").get("Type").asText()).isEqualTo("Service");
        assertThat(r.get("userIdentity").get("PrincipalId").asText())
                .isEqualTo("dynamodb.amazonaws.com");
    }

    @Test
    void sequenceNumbersAre21DigitsAndIncreasePerItem() {
        LocalDynamoDbStreams s = streams(StreamsOptions.builder().shardsPerTable(4));
        String arn = s.enable("Orders", "KEYS_ONLY").arn();
        for (int v = 1; v <= 20; v++) {
            for (String pk : List.of("a", "b", "c", "d", "e")) {
                s.onCommit(List.of(modify("Orders", pk, v, v + 1, T0)));
            }
        }
        Map<String, String> lastSeqByItem = new HashMap<>();
        Map<String, String> shardByItem = new HashMap<>();
        for (String shardId : shardIds(s, arn)) {
            for (JsonNode r : readShard(s, arn, shardId)) {
                String pk = r.get("dynamodb").get("Keys").get("PK").get("S").asText();
                String seq = r.get("dynamodb").get("SequenceNumber").asText();
                assertThat(seq).hasSize(21).containsOnlyDigits();
                String prev = lastSeqByItem.put(pk, seq);
                if (prev != null) {
                    assertThat(seq).isGreaterThan(prev);
                }
                String prevShard = shardByItem.put(pk, shardId);
                assertThat(prevShard == null || prevShard.equals(shardId))
                        .as("item %s stays in one shard", pk)
                        .isTrue();
            }
        }
        assertThat(lastSeqByItem).hasSize(5);
        assertThat(new java.util.HashSet<>(shardByItem.values()).size()).isGreaterThan(1);
    }

    @Test
    void rolloverClosesShardsAndChildrenNameTheirParent() {
        LocalDynamoDbStreams s =
                streams(StreamsOptions.builder().shardsPerTable(1).maxRecordsPerShard(3));
        String arn = s.enable("Orders", "NEW_IMAGE").arn();
        for (int v = 1; v <= 7; v++) {
            s.onCommit(List.of(modify("Orders", "o1", v, v + 1, T0)));
        }
        JsonNode shards = describe(s, arn, null).get("Shards");
        assertThat(shards).hasSize(3);
        assertThat(shards.get(0).has("ParentShardId")).isFalse();
        assertThat(shards.get(1).get("ParentShardId").asText())
                .isEqualTo(shards.get(0).get("ShardId").asText());
        assertThat(shards.get(2).get("ParentShardId").asText())
                .isEqualTo(shards.get(1).get("ShardId").asText());
        assertThat(shards.get(0).get("SequenceNumberRange").has("EndingSequenceNumber")).isTrue();
        assertThat(shards.get(2).get("SequenceNumberRange").has("EndingSequenceNumber")).isFalse();

        // a fully read closed shard ends with no NextShardIterator; lineage order keeps item order
        ObjectNode page =
                getRecords(
                        s,
                        iterator(
                                s,
                                arn,
                                shards.get(0).get("ShardId").asText(),
                                "TRIM_HORIZON",
                                null),
                        null);
        assertThat(page.get("Records")).hasSize(3);
        assertThat(page.has("NextShardIterator")).isFalse();
        List<Long> versions = new ArrayList<>();
        for (JsonNode r : readAll(s, arn)) {
            versions.add(r.get("dynamodb").get("NewImage").get("version").get("N").asLong());
        }
        assertThat(versions).containsExactly(2L, 3L, 4L, 5L, 6L, 7L, 8L);

        s.rolloverShards("Orders");
        assertThat(describe(s, arn, null).get("Shards")).hasSize(4);
    }

    @Test
    void describeStreamPaginatesByShardId() {
        LocalDynamoDbStreams s = streams(StreamsOptions.builder().shardsPerTable(5));
        String arn = s.enable("Orders", "KEYS_ONLY").arn();
        ObjectNode req = JSON.objectNode().put("StreamArn", arn).put("Limit", 2);
        JsonNode first = s.describeStream(req).get("StreamDescription");
        assertThat(first.get("Shards")).hasSize(2);
        assertThat(first.get("KeySchema").get(0).get("AttributeName").asText()).isEqualTo("PK");
        assertThat(first.get("StreamStatus").asText()).isEqualTo("ENABLED");
        List<String> seen = new ArrayList<>();
        first.get("Shards").forEach(x -> seen.add(x.get("ShardId").asText()));
        String last = first.get("LastEvaluatedShardId").asText();
        while (last != null) {
            JsonNode page =
                    s.describeStream(req.deepCopy().put("ExclusiveStartShardId", last))
                            .get("StreamDescription");
            page.get("Shards").forEach(x -> seen.add(x.get("ShardId").asText()));
            last =
                    page.has("LastEvaluatedShardId")
                            ? page.get("LastEvaluatedShardId").asText()
                            : null;
        }
        assertThat(seen).hasSize(5).doesNotHaveDuplicates().isSorted();
        assertThat(seen).allMatch(id -> id.matches("^shardId-\\d{20}-{0,1}\\w{0,36}"));
    }

    @Test
    void iteratorTypesStartWhereAwsDoes() {
        LocalDynamoDbStreams s = streams(StreamsOptions.builder().shardsPerTable(1));
        String arn = s.enable("Orders", "NEW_IMAGE").arn();
        for (int v = 1; v <= 3; v++) {
            s.onCommit(List.of(modify("Orders", "o1", v, v + 1, T0)));
        }
        String shard = shardIds(s, arn).get(0);
        List<JsonNode> all = readShard(s, arn, shard);
        String second = all.get(1).get("dynamodb").get("SequenceNumber").asText();

        assertThat(
                        versions(
                                getRecords(
                                        s,
                                        iterator(s, arn, shard, "AT_SEQUENCE_NUMBER", second),
                                        null)))
                .containsExactly(3L, 4L);
        assertThat(
                        versions(
                                getRecords(
                                        s,
                                        iterator(s, arn, shard, "AFTER_SEQUENCE_NUMBER", second),
                                        null)))
                .containsExactly(4L);
        String latest = iterator(s, arn, shard, "LATEST", null);
        assertThat(versions(getRecords(s, latest, null))).isEmpty();
        s.onCommit(List.of(modify("Orders", "o1", 4, 5, T0)));
        assertThat(versions(getRecords(s, latest, null))).containsExactly(5L);
        assertThat(versions(getRecords(s, iterator(s, arn, shard, "TRIM_HORIZON", null), 2)))
                .containsExactly(2L, 3L);

        assertThatThrownBy(() -> iterator(s, arn, shard, "AT_SEQUENCE_NUMBER", "12"))
                .isInstanceOf(ApiException.class)
                .extracting(e -> ((ApiException) e).type())
                .isEqualTo("ValidationException");
        assertThatThrownBy(
                        () ->
                                iterator(
                                        s,
                                        arn,
                                        "shardId-00000000000000000000-nothere",
                                        "LATEST",
                                        null))
                .extracting(e -> ((ApiException) e).type())
                .isEqualTo("ResourceNotFoundException");
        assertThatThrownBy(() -> getRecords(s, iterator(s, arn, shard, "LATEST", null), 1001))
                .extracting(e -> ((ApiException) e).type())
                .isEqualTo("ValidationException");
    }

    @Test
    void iteratorsExpireAfterFifteenMinutes() {
        LocalDynamoDbStreams s = streams(StreamsOptions.builder().shardsPerTable(1));
        String arn = s.enable("Orders", "KEYS_ONLY").arn();
        String it = iterator(s, arn, shardIds(s, arn).get(0), "TRIM_HORIZON", null);
        clock.advance(Duration.ofMinutes(14));
        ObjectNode page = getRecords(s, it, null);
        clock.advance(Duration.ofMinutes(2));
        assertThatThrownBy(() -> getRecords(s, it, null))
                .extracting(e -> ((ApiException) e).type())
                .isEqualTo("ExpiredIteratorException");
        // the iterator handed out later is fresh
        assertThat(getRecords(s, page.get("NextShardIterator").asText(), null).get("Records"))
                .isEmpty();
    }

    @Test
    void recordsOlderThanRetentionAreTrimmed() {
        LocalDynamoDbStreams s = streams(StreamsOptions.builder().shardsPerTable(1));
        String arn = s.enable("Orders", "NEW_IMAGE").arn();
        s.onCommit(List.of(modify("Orders", "o1", 1, 2, T0)));
        String shard = shardIds(s, arn).get(0);
        String oldSeq =
                readShard(s, arn, shard).get(0).get("dynamodb").get("SequenceNumber").asText();
        clock.advance(Duration.ofHours(23).plusMinutes(55));
        s.onCommit(List.of(modify("Orders", "o1", 2, 3, clock.instant())));
        String horizon = iterator(s, arn, shard, "TRIM_HORIZON", null);
        clock.advance(Duration.ofMinutes(6)); // first record now 24 h 1 min old; iterator 6 min

        assertThatThrownBy(() -> getRecords(s, horizon, null))
                .extracting(e -> ((ApiException) e).type())
                .isEqualTo("TrimmedDataAccessException");
        assertThatThrownBy(() -> iterator(s, arn, shard, "AT_SEQUENCE_NUMBER", oldSeq))
                .extracting(e -> ((ApiException) e).type())
                .isEqualTo("TrimmedDataAccessException");
        assertThat(versions(getRecords(s, iterator(s, arn, shard, "TRIM_HORIZON", null), null)))
                .containsExactly(3L);
    }

    @Test
    void retainedRecordsPerShardAreBounded() {
        LocalDynamoDbStreams s =
                streams(StreamsOptions.builder().shardsPerTable(1).maxRetainedPerShard(16));
        String arn = s.enable("Orders", "NEW_IMAGE").arn();
        s.onCommit(List.of(modify("Orders", "o1", 0, 1, T0)));
        String shard = shardIds(s, arn).get(0);
        String first =
                readShard(s, arn, shard).get(0).get("dynamodb").get("SequenceNumber").asText();
        for (int v = 1; v < 40; v++) {
            s.onCommit(List.of(modify("Orders", "o1", v, v + 1, T0)));
        }
        List<JsonNode> kept = readShard(s, arn, shard);
        assertThat(kept.size()).isLessThanOrEqualTo(16).isGreaterThanOrEqualTo(15);
        assertThat(
                        kept.get(kept.size() - 1)
                                .get("dynamodb")
                                .get("NewImage")
                                .get("version")
                                .get("N")
                                .asLong())
                .isEqualTo(40);
        assertThatThrownBy(() -> iterator(s, arn, shard, "AT_SEQUENCE_NUMBER", first))
                .extracting(e -> ((ApiException) e).type())
                .isEqualTo("TrimmedDataAccessException");
    }

    @Test
    void shuffleReordersATransactionAcrossShardsButKeepsEveryChange() {
        LocalDynamoDbStreams plain = streams(StreamsOptions.builder().shardsPerTable(1));
        LocalDynamoDbStreams shuffled =
                streams(
                        StreamsOptions.builder()
                                .shardsPerTable(1)
                                .shuffleTransactions(true)
                                .seed(7));
        String plainArn = plain.enable("Orders", "KEYS_ONLY").arn();
        String shuffledArn = shuffled.enable("Orders", "KEYS_ONLY").arn();
        List<ItemChange> tx = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
            tx.add(Changes.inTransaction(insert("Orders", "o" + i, T0), "tx1"));
        }
        plain.onCommit(tx);
        shuffled.onCommit(tx);
        List<String> plainOrder = keys(readAll(plain, plainArn));
        List<String> shuffledOrder = keys(readAll(shuffled, shuffledArn));
        assertThat(plainOrder)
                .containsExactly(
                        tx.stream()
                                .map(c -> c.keys().get("PK").get("S").asText())
                                .toArray(String[]::new));
        assertThat(shuffledOrder).containsExactlyInAnyOrderElementsOf(plainOrder);
        assertThat(shuffledOrder).isNotEqualTo(plainOrder);
    }

    @Test
    void disableClosesShardsAndReEnableMakesANewStream() {
        LocalDynamoDbStreams s = streams(StreamsOptions.builder().shardsPerTable(1));
        String first = s.enable("Orders", "KEYS_ONLY").arn();
        s.onCommit(List.of(insert("Orders", "o1", T0)));
        s.disable("Orders");
        s.onCommit(List.of(insert("Orders", "o2", T0))); // not captured: no stream
        String second = s.enable("Orders", "NEW_IMAGE").arn();
        assertThat(second).isNotEqualTo(first);
        JsonNode d = describe(s, first, null);
        assertThat(d.get("StreamStatus").asText()).isEqualTo("DISABLED");
        assertThat(d.get("Shards").get(0).get("SequenceNumberRange").has("EndingSequenceNumber"))
                .isTrue();
        assertThat(keys(readAll(s, first))).containsExactly("o1");

        ObjectNode list =
                s.listStreams(JSON.objectNode().put("TableName", "Orders").put("Limit", 1));
        assertThat(list.get("Streams")).hasSize(1);
        assertThat(list.get("LastEvaluatedStreamArn").asText()).isEqualTo(first);
        ObjectNode rest =
                s.listStreams(
                        JSON.objectNode()
                                .put("TableName", "Orders")
                                .put("ExclusiveStartStreamArn", first));
        assertThat(rest.get("Streams").get(0).get("StreamArn").asText()).isEqualTo(second);
        assertThat(rest.has("LastEvaluatedStreamArn")).isFalse();
        assertThat(s.listStreams(JSON.objectNode().put("TableName", "Other")).get("Streams"))
                .isEmpty();
    }

    @Test
    void aDisabledStreamVanishesAfterRetention() {
        LocalDynamoDbStreams s = streams(StreamsOptions.builder().shardsPerTable(1));
        String old = s.enable("Orders", "KEYS_ONLY").arn();
        s.onCommit(List.of(insert("Orders", "o1", T0)));
        s.disable("Orders");
        String current = s.enable("Orders", "KEYS_ONLY").arn();
        clock.advance(Duration.ofHours(24).plusSeconds(1));
        List<String> arns = new ArrayList<>();
        s.listStreams(JSON.objectNode())
                .get("Streams")
                .forEach(x -> arns.add(x.get("StreamArn").asText()));
        assertThat(arns).containsExactly(current);
        assertThatThrownBy(() -> s.describeStream(JSON.objectNode().put("StreamArn", old)))
                .extracting(e -> ((ApiException) e).type())
                .isEqualTo("ResourceNotFoundException");
    }

    @Test
    void positionReportsTheLastSequencePerShard() {
        LocalDynamoDbStreams s = streams(StreamsOptions.builder().shardsPerTable(1));
        String arn = s.enable("Orders", "KEYS_ONLY").arn();
        s.onCommit(List.of(insert("Orders", "o1", T0)));
        s.onCommit(List.of(insert("Orders", "o2", T0)));
        var pos = s.position("Orders").orElseThrow();
        String last = readAll(s, arn).get(1).get("dynamodb").get("SequenceNumber").asText();
        assertThat(pos.streamArn()).isEqualTo(arn);
        assertThat(pos.lastSequenceByShard().values()).containsExactly(last);
    }

    // ---- helpers: a minimal lineage-following reader over the wire operations ----

    static List<String> keys(List<JsonNode> records) {
        List<String> out = new ArrayList<>();
        records.forEach(r -> out.add(r.get("dynamodb").get("Keys").get("PK").get("S").asText()));
        return out;
    }

    private static List<Long> versions(ObjectNode page) {
        List<Long> out = new ArrayList<>();
        page.get("Records")
                .forEach(
                        r ->
                                out.add(
                                        r.get("dynamodb")
                                                .get("NewImage")
                                                .get("version")
                                                .get("N")
                                                .asLong()));
        return out;
    }

    private static JsonNode describe(LocalDynamoDbStreams s, String arn, String exclusiveStart) {
        ObjectNode req = JSON.objectNode().put("StreamArn", arn);
        if (exclusiveStart != null) {
            req.put("ExclusiveStartShardId", exclusiveStart);
        }
        return s.describeStream(req).get("StreamDescription");
    }

    private static List<String> shardIds(LocalDynamoDbStreams s, String arn) {
        List<String> ids = new ArrayList<>();
        describe(s, arn, null).get("Shards").forEach(x -> ids.add(x.get("ShardId").asText()));
        return ids;
    }

    private static String iterator(
            LocalDynamoDbStreams s, String arn, String shard, String type, String seq) {
        ObjectNode req =
                JSON.objectNode()
                        .put("StreamArn", arn)
                        .put("ShardId", shard)
                        .put("ShardIteratorType", type);
        if (seq != null) {
            req.put("SequenceNumber", seq);
        }
        return s.getShardIterator(req).get("ShardIterator").asText();
    }

    private static ObjectNode getRecords(LocalDynamoDbStreams s, String it, Integer limit) {
        ObjectNode req = JSON.objectNode().put("ShardIterator", it);
        if (limit != null) {
            req.put("Limit", limit);
        }
        return s.getRecords(req);
    }

    private static List<JsonNode> readShard(LocalDynamoDbStreams s, String arn, String shard) {
        List<JsonNode> out = new ArrayList<>();
        String it = iterator(s, arn, shard, "TRIM_HORIZON", null);
        while (it != null) {
            ObjectNode page = getRecords(s, it, 100);
            page.get("Records").forEach(out::add);
            if (page.get("Records").isEmpty()) {
                break; // open shard drained
            }
            it = page.has("NextShardIterator") ? page.get("NextShardIterator").asText() : null;
        }
        return out;
    }

    /** Reads shards in creation order; parents come first, so per-item order is kept. */
    static List<JsonNode> readAll(LocalDynamoDbStreams s, String arn) {
        List<JsonNode> out = new ArrayList<>();
        for (String shard : shardIds(s, arn)) {
            out.addAll(readShard(s, arn, shard));
        }
        return out;
    }
}
