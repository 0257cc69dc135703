package io.streamledger.local.partiql;

import static io.streamledger.local.it.Errors.assertValidation;
import static io.streamledger.local.partiql.PartiQlFixture.capacities;
import static io.streamledger.local.partiql.PartiQlFixture.item;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.streamledger.local.fault.FaultRule;
import io.streamledger.local.it.Tables;
import io.streamledger.local.kinesis.KinesisLocalExtension;
import io.streamledger.local.kinesis.KinesisRecords;
import io.streamledger.local.streams.StreamFeatures;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BatchExecuteStatementResponse;
import software.amazon.awssdk.services.dynamodb.model.BatchStatementRequest;
import software.amazon.awssdk.services.dynamodb.model.BatchStatementResponse;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.ConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.ReturnConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemResponse;

/**
 * BatchExecuteStatement through the real SDK v2 — the sinks' batched version-guarded UPDATEs
 * (AP13/AP16: apply version n only over version n-1): up to 25 statements, each its own write at
 * ordinary units, a stale one answering {@code ConditionalCheckFailed} (with the current item under
 * ALL_OLD) while the others apply; capacity and stream records as the same UpdateItems one by one.
 * Reads are single-item GetItems; mixing reads and writes, more than 25 statements or two
 * statements on one item refuse the whole batch.
 */
class PartiQlBatchITCase {
    @RegisterExtension static final KinesisLocalExtension KINESIS = new KinesisLocalExtension();

    @RegisterExtension
    static final PartiQlFixture FIXTURE =
            new PartiQlFixture(
                    b ->
                            b.streamFeatures(
                                    StreamFeatures.defaults()
                                            .withKinesisDestination(KINESIS.destinationOptions())));

    private static DynamoDbClient ddb;

    @BeforeAll
    static void clients() {
        ddb = FIXTURE.ddb();
    }

    private static final String GUARDED_UPDATE =
            "UPDATE \"%s\" SET version = ?, status = ? WHERE PK = ? AND SK = ? AND version = ?";

    private static BatchStatementRequest guarded(String table, int i, int from, boolean allOld) {
        return BatchStatementRequest.builder()
                .statement(String.format(GUARDED_UPDATE, table))
                .parameters(
                        AttributeValue.fromN(Integer.toString(from + 1)),
                        AttributeValue.fromS("v" + (from + 1)),
                        AttributeValue.fromS("c" + i),
                        AttributeValue.fromS("o"),
                        AttributeValue.fromN(Integer.toString(from)))
                .returnValuesOnConditionCheckFailure(allOld ? "ALL_OLD" : null)
                .build();
    }

    /** The UpdateItem the guarded UPDATE of item {@code c<i>} from version 1 stands for. */
    private static UpdateItemResponse guardedUpdateItem(String table, int i) {
        return ddb.updateItem(
                b ->
                        b.tableName(table)
                                .key(item("c" + i, "o"))
                                .updateExpression("SET version = :n, #s = :s")
                                .conditionExpression("attribute_exists(PK) AND version = :o")
                                .expressionAttributeNames(Map.of("#s", "status"))
                                .expressionAttributeValues(
                                        Map.of(
                                                ":n",
                                                AttributeValue.fromN("2"),
                                                ":s",
                                                AttributeValue.fromS("v2"),
                                                ":o",
                                                AttributeValue.fromN("1")))
                                .returnConsumedCapacity(ReturnConsumedCapacity.INDEXES));
    }

    private static BatchExecuteStatementResponse batch(List<BatchStatementRequest> statements) {
        return ddb.batchExecuteStatement(
                b ->
                        b.statements(statements)
                                .returnConsumedCapacity(ReturnConsumedCapacity.INDEXES));
    }

    private static Map<String, AttributeValue> seed(int i, int version) {
        return item("c" + i, "o", "status", "v" + version, "version", version);
    }

    @Test
    void guardedUpdatesSucceedOrFailOneByOne() {
        String partiql = FIXTURE.table("BatA");
        String items = FIXTURE.table("BatB");
        for (int i = 0; i < 25; i++) {
            var seed =
                    seed(i, i % 5 == 0 ? 7 : 1); // every fifth item is ahead: its update is stale
            for (String t : List.of(partiql, items)) {
                ddb.putItem(b -> b.tableName(t).item(seed));
            }
        }
        List<BatchStatementRequest> statements = new ArrayList<>();
        for (int i = 0; i < 25; i++) {
            statements.add(guarded(partiql, i, 1, i == 5));
        }
        BatchExecuteStatementResponse r = batch(statements);

        assertThat(r.responses()).hasSize(25);
        double failedUnits = 0;
        List<ConsumedCapacity> itemCapacity = new ArrayList<>();
        for (int i = 0; i < 25; i++) {
            BatchStatementResponse s = r.responses().get(i);
            assertThat(s.tableName()).isEqualTo(partiql);
            int n = i;
            try {
                var u = guardedUpdateItem(items, n);
                itemCapacity.add(u.consumedCapacity());
                assertThat(s.error()).as("statement %d", i).isNull();
            } catch (ConditionalCheckFailedException e) {
                assertThat(s.error().codeAsString()).isEqualTo("ConditionalCheckFailed");
                assertThat(s.error().message()).isEqualTo("The conditional request failed");
                if (i == 5) {
                    assertThat(s.error().item()).isEqualTo(seed(5, 7));
                } else {
                    assertThat(s.error().hasItem()).isFalse();
                }
                failedUnits += 1; // a failed conditional write is charged the old item's size
            }
        }
        assertThat(r.responses().stream().filter(s -> s.error() != null)).hasSize(5);
        for (int i = 0; i < 25; i++) {
            int n = i;
            var a = ddb.getItem(b -> b.tableName(partiql).key(item("c" + n, "o"))).item();
            var b = ddb.getItem(x -> x.tableName(items).key(item("c" + n, "o"))).item();
            assertThat(a).isEqualTo(b);
        }
        ConsumedCapacity total = r.consumedCapacity().get(0);
        double itemUnits = itemCapacity.stream().mapToDouble(ConsumedCapacity::capacityUnits).sum();
        assertThat(total.capacityUnits()).isEqualTo(itemUnits + failedUnits);
        assertThat(total.globalSecondaryIndexes().get("byStatus").capacityUnits())
                .isEqualTo(
                        itemCapacity.stream()
                                .mapToDouble(
                                        c ->
                                                c.globalSecondaryIndexes()
                                                        .get("byStatus")
                                                        .capacityUnits())
                                .sum());
        FIXTURE.assertSameChanges(partiql, items);
        FIXTURE.assertSameStreamRecords(partiql, items);
    }

    @Test
    void guardedUpdatesForwardTheSameKinesisRecords() throws Exception {
        String partiql = FIXTURE.table("BatKinA");
        String items = FIXTURE.table("BatKinB");
        Map<String, String> streams = new LinkedHashMap<>();
        for (String t : List.of(partiql, items)) {
            String stream = Tables.unique("pq-kinesis");
            String arn = KINESIS.kinesis().createStream(stream, 1);
            ddb.enableKinesisStreamingDestination(b -> b.tableName(t).streamArn(arn));
            streams.put(t, stream);
            for (int i = 0; i < 5; i++) {
                var seed = seed(i, i == 3 ? 4 : 1);
                ddb.putItem(b -> b.tableName(t).item(seed));
            }
        }
        List<BatchStatementRequest> statements = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            statements.add(guarded(partiql, i, 1, false));
        }
        assertThat(codes(batch(statements)))
                .containsExactly(null, null, null, "ConditionalCheckFailed", null);
        for (int i = 0; i < 5; i++) {
            int n = i;
            try {
                guardedUpdateItem(items, n);
            } catch (ConditionalCheckFailedException stale) {
                assertThat(n).isEqualTo(3);
            }
        }
        assertThat(
                        FIXTURE.endpoint()
                                .streamFeatures()
                                .kinesisDestination()
                                .flush(Duration.ofSeconds(30)))
                .isTrue();
        assertThat(kinesisRecords(streams.get(partiql)))
                .isEqualTo(kinesisRecords(streams.get(items)))
                .hasSize(5);
    }

    /** Kinesis records of one stream by item key: event, images and size, in order. */
    private static Map<String, List<JsonNode>> kinesisRecords(String stream) throws Exception {
        Map<String, List<JsonNode>> byKey = new TreeMap<>();
        for (JsonNode r : KinesisRecords.readAll(KINESIS.kinesis().client(), stream)) {
            ObjectNode shape = JsonNodeFactory.instance.objectNode();
            shape.set("eventName", r.get("eventName"));
            shape.set("NewImage", r.path("dynamodb").get("NewImage"));
            shape.set("OldImage", r.path("dynamodb").get("OldImage"));
            shape.set("SizeBytes", r.path("dynamodb").get("SizeBytes"));
            byKey.computeIfAbsent(r.path("dynamodb").get("Keys").toString(), k -> new ArrayList<>())
                    .add(shape);
        }
        return byKey;
    }

    @Test
    void insertsAndDeletesAnswerTheirOwnErrors() {
        String t = FIXTURE.table("BatMix");
        ddb.putItem(b -> b.tableName(t).item(seed(1, 1)));
        BatchExecuteStatementResponse r =
                batch(
                        List.of(
                                statement(
                                        "INSERT INTO \"" + t + "\" VALUE {'PK': 'c1', 'SK': 'o'}"),
                                statement(
                                        "INSERT INTO \"" + t + "\" VALUE {'PK': 'c2', 'SK': 'o'}"),
                                statement("DELETE FROM \"" + t + "\" WHERE PK = 'c3' AND SK = 'o'"),
                                statement(
                                        "UPDATE \""
                                                + t
                                                + "\" SET a = 1 WHERE PK = 'c4' AND SK = 'o'"),
                                statement("UPDATE \"" + t + "\" SET a = 1 WHERE PK = 'c5'"),
                                statement(
                                        "UPDATE \"NoSuchTable\" SET a = 1 WHERE PK = 'c6' AND SK = 'o'"),
                                statement("UPDAT \"" + t + "\" SET a = 1")));
        assertThat(codes(r))
                .containsExactly(
                        "DuplicateItem",
                        null,
                        null,
                        "ConditionalCheckFailed",
                        "ValidationError",
                        "ResourceNotFound",
                        "ValidationError");
        assertThat(r.responses().get(0).error().message())
                .isEqualTo("Duplicate primary key exists in table");
        assertThat(r.responses().get(4).error().message())
                .isEqualTo(
                        "Where clause does not contain a mandatory equality on all key attributes");
        assertThat(r.responses().get(6).error().message())
                .startsWith("Statement wasn't well formed, can't be processed");
        assertThat(ddb.getItem(b -> b.tableName(t).key(item("c2", "o"))).item()).isNotEmpty();
        // 1 (duplicate, charged) + 1 + 1 (deleting nothing) + 1 (failed update of nothing)
        assertThat(r.consumedCapacity().get(0).capacityUnits()).isEqualTo(4.0);
    }

    @Test
    void injectedThrottlingFailsSingleStatements() {
        String t = FIXTURE.table("BatThrottle");
        for (int i = 0; i < 4; i++) {
            var seed = seed(i, 1);
            ddb.putItem(b -> b.tableName(t).item(seed));
        }
        FIXTURE.endpoint()
                .faults()
                .add(FaultRule.throttle().operation("BatchExecuteStatement").table(t).count(2));
        List<BatchStatementRequest> statements = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            statements.add(guarded(t, i, 1, false));
        }
        BatchExecuteStatementResponse r = batch(statements);
        assertThat(codes(r))
                .containsExactly(
                        "ProvisionedThroughputExceeded",
                        "ProvisionedThroughputExceeded",
                        null,
                        null);
        // the throttled statements wrote nothing: retrying them alone applies them once
        assertThat(codes(batch(statements.subList(0, 2)))).containsExactly(null, null);
        assertThat(codes(batch(statements))).containsOnly("ConditionalCheckFailed");
        // a rule naming only the operation also throttles statement by statement
        FIXTURE.endpoint()
                .faults()
                .add(FaultRule.throttle().operation("BatchExecuteStatement").count(1));
        assertThat(codes(batch(statements)))
                .containsExactly(
                        "ProvisionedThroughputExceeded",
                        "ConditionalCheckFailed",
                        "ConditionalCheckFailed",
                        "ConditionalCheckFailed");
    }

    @Test
    void readsAreSingleItemGets() {
        String t = FIXTURE.table("BatRead");
        ddb.putItem(b -> b.tableName(t).item(seed(1, 1)));
        ddb.putItem(b -> b.tableName(t).item(seed(3, 1)));
        BatchExecuteStatementResponse r =
                batch(
                        List.of(
                                statement(
                                        "SELECT * FROM \"" + t + "\" WHERE PK = 'c1' AND SK = 'o'"),
                                statement(
                                        "SELECT version FROM \""
                                                + t
                                                + "\" WHERE PK = 'c2' AND SK = 'o'"),
                                BatchStatementRequest.builder()
                                        .statement(
                                                "SELECT version FROM \""
                                                        + t
                                                        + "\" WHERE PK = ? AND SK = 'o'")
                                        .parameters(AttributeValue.fromS("c3"))
                                        .consistentRead(true)
                                        .build(),
                                statement("SELECT * FROM \"" + t + "\" WHERE PK = 'c1'"),
                                statement(
                                        "SELECT * FROM \"" + t + "\" WHERE PK = '' AND SK = 'o'")));
        assertThat(r.responses().get(0).item()).isEqualTo(seed(1, 1));
        assertThat(r.responses().get(1).hasItem()).isFalse();
        assertThat(r.responses().get(1).error()).isNull();
        assertThat(r.responses().get(2).item())
                .isEqualTo(Map.of("version", AttributeValue.fromN("1")));
        assertThat(r.responses().get(3).error().codeAsString()).isEqualTo("ValidationError");
        assertThat(r.responses().get(3).error().message())
                .isEqualTo("Only single item select is supported");
        assertThat(r.responses().get(4).error().codeAsString()).isEqualTo("ValidationError");
        assertThat(r.responses().get(4).tableName()).isEqualTo(t);
        // three GetItems of small items: 0.5 + 0.5 + 1 (consistent)
        assertThat(capacities(r.consumedCapacity()))
                .containsExactly(
                        PartiQlFixture.capacity(
                                ConsumedCapacity.builder()
                                        .capacityUnits(2.0)
                                        .readCapacityUnits(2.0)
                                        .table(c -> c.capacityUnits(2.0).readCapacityUnits(2.0))
                                        .build()));
    }

    @Test
    void wholeBatchRefusals() {
        String t = FIXTURE.table("BatBad");
        assertValidation(
                        () ->
                                batch(
                                        List.of(
                                                statement(
                                                        "SELECT * FROM \""
                                                                + t
                                                                + "\" WHERE PK = 'a' AND SK = 'o'"),
                                                statement(
                                                        "DELETE FROM \""
                                                                + t
                                                                + "\" WHERE PK = 'a' AND SK = 'o'"))))
                .hasMessageContaining(
                        "Read and write requests together in the same batch is not supported.");
        List<BatchStatementRequest> many = new ArrayList<>();
        for (int i = 0; i < 26; i++) {
            many.add(statement("DELETE FROM \"" + t + "\" WHERE PK = 'c" + i + "' AND SK = 'o'"));
        }
        assertValidation(() -> batch(many))
                .hasMessageContaining("Member must have length less than or equal to 25");
        assertValidation(
                        () ->
                                batch(
                                        List.of(
                                                statement(
                                                        "DELETE FROM \""
                                                                + t
                                                                + "\" WHERE PK = 'a' AND SK = 'o'"),
                                                statement(
                                                        "UPDATE \""
                                                                + t
                                                                + "\" SET x = 1 WHERE SK = 'o' AND PK = 'a'"))))
                .hasMessageContaining("Provided list of item keys contains duplicates");
        BatchExecuteStatementResponse exists =
                batch(
                        List.of(
                                statement(
                                        "EXISTS(SELECT * FROM \""
                                                + t
                                                + "\" WHERE PK = 'a' AND SK = 'o')")));
        assertThat(exists.responses().get(0).error().message())
                .isEqualTo("EXISTS can only be used in ExecuteTransaction write requests.");
        assertThat(FIXTURE.changes(t)).isEmpty();
    }

    private static BatchStatementRequest statement(String text) {
        return BatchStatementRequest.builder().statement(text).build();
    }

    private static List<String> codes(BatchExecuteStatementResponse r) {
        List<String> out = new ArrayList<>();
        r.responses().forEach(s -> out.add(s.error() == null ? null : s.error().codeAsString()));
        return out;
    }
}
