package io.streamledger.local.it;

import static io.streamledger.local.it.Errors.assertError;
import static io.streamledger.local.it.Errors.assertValidation;
import static io.streamledger.local.it.Tables.attr;
import static io.streamledger.local.it.Tables.key;
import static io.streamledger.local.it.Tables.n;
import static io.streamledger.local.it.Tables.s;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.streamledger.local.LocalDynamoDbExtension;
import java.net.URI;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndex;
import software.amazon.awssdk.services.dynamodb.model.IndexStatus;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.LocalSecondaryIndex;
import software.amazon.awssdk.services.dynamodb.model.PointInTimeRecoveryStatus;
import software.amazon.awssdk.services.dynamodb.model.ProjectionType;
import software.amazon.awssdk.services.dynamodb.model.ReturnValue;
import software.amazon.awssdk.services.dynamodb.model.ReturnValuesOnConditionCheckFailure;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.Select;
import software.amazon.awssdk.services.dynamodb.model.TableStatus;

/**
 * Smaller parts of the API clients rely on: continuous-backups (PITR) description, ReturnValues
 * corner cases, projections of nested paths and list elements, Select variants, billing-mode and
 * deletion descriptions, and the exact error of every operation left out (AP01–AP18 clients).
 */
@ExtendWith(LocalDynamoDbExtension.class)
class ApiDetailsITCase {
    private static DynamoDbClient ddb;
    private static String table;

    @BeforeAll
    static void setUp(URI endpoint) {
        ddb = Clients.dynamo(endpoint);
        table = Tables.pkSk(ddb, "Details");
    }

    @AfterAll
    static void close() {
        ddb.close();
    }

    @Test
    void continuousBackupsDescription() {
        var d =
                ddb.describeContinuousBackups(b -> b.tableName(table))
                        .continuousBackupsDescription();
        assertThat(d.continuousBackupsStatusAsString()).isEqualTo("ENABLED");
        assertThat(d.pointInTimeRecoveryDescription().pointInTimeRecoveryStatus())
                .isEqualTo(PointInTimeRecoveryStatus.DISABLED);
        var on =
                ddb.updateContinuousBackups(
                                b ->
                                        b.tableName(table)
                                                .pointInTimeRecoverySpecification(
                                                        p -> p.pointInTimeRecoveryEnabled(true)))
                        .continuousBackupsDescription()
                        .pointInTimeRecoveryDescription();
        assertThat(on.pointInTimeRecoveryStatus()).isEqualTo(PointInTimeRecoveryStatus.ENABLED);
        assertThat(on.earliestRestorableDateTime()).isNotNull();
        assertThat(on.recoveryPeriodInDays()).isEqualTo(35);
        assertThat(
                        ddb.describeContinuousBackups(b -> b.tableName(table))
                                .continuousBackupsDescription()
                                .pointInTimeRecoveryDescription()
                                .pointInTimeRecoveryStatus())
                .isEqualTo(PointInTimeRecoveryStatus.ENABLED);
        assertError(
                () -> ddb.describeContinuousBackups(b -> b.tableName("no-such-table")),
                "TableNotFoundException");
    }

    @Test
    void returnValuesCornerCases() {
        assertValidation(
                        () ->
                                ddb.putItem(
                                        b ->
                                                b.tableName(table)
                                                        .item(key("rv", "1"))
                                                        .returnValues(ReturnValue.ALL_NEW)))
                .hasMessageContaining("Return values set to invalid value");
        assertValidation(
                        () ->
                                ddb.deleteItem(
                                        b ->
                                                b.tableName(table)
                                                        .key(key("rv", "1"))
                                                        .returnValues(ReturnValue.UPDATED_OLD)))
                .hasMessageContaining("Return values set to invalid value");
        // UPDATED_OLD of a new item: nothing was there
        var created =
                ddb.updateItem(
                        b ->
                                b.tableName(table)
                                        .key(key("rv", "1"))
                                        .updateExpression("SET m = :m, l = :l")
                                        .expressionAttributeValues(
                                                Map.of(
                                                        ":m",
                                                        AttributeValue.fromM(Map.of("a", n("1"))),
                                                        ":l",
                                                        AttributeValue.fromL(
                                                                List.of(s("x"), s("y")))))
                                        .returnValues(ReturnValue.UPDATED_OLD));
        assertThat(created.hasAttributes()).isFalse();
        // UPDATED_NEW of nested paths returns just those paths; a removed one is absent
        var nested =
                ddb.updateItem(
                        b ->
                                b.tableName(table)
                                        .key(key("rv", "1"))
                                        .updateExpression("SET m.b = :b, l[1] = :z REMOVE m.a")
                                        .expressionAttributeValues(
                                                Map.of(":b", n("2"), ":z", s("z")))
                                        .returnValues(ReturnValue.UPDATED_NEW));
        assertThat(nested.attributes())
                .isEqualTo(
                        Map.of(
                                "m",
                                AttributeValue.fromM(Map.of("b", n("2"))),
                                "l",
                                AttributeValue.fromL(List.of(s("z")))));
        // ALL_OLD of a delete of nothing: no Attributes
        assertThat(
                        ddb.deleteItem(
                                        b ->
                                                b.tableName(table)
                                                        .key(key("none", "1"))
                                                        .returnValues(ReturnValue.ALL_OLD))
                                .hasAttributes())
                .isFalse();
        // ALL_OLD on condition failure: the item if there is one, nothing otherwise
        assertThatThrownBy(
                        () ->
                                ddb.putItem(
                                        b ->
                                                b.tableName(table)
                                                        .item(key("rv", "1"))
                                                        .conditionExpression(
                                                                "attribute_not_exists(PK)")
                                                        .returnValuesOnConditionCheckFailure(
                                                                ReturnValuesOnConditionCheckFailure
                                                                        .ALL_OLD)))
                .isInstanceOfSatisfying(
                        ConditionalCheckFailedException.class,
                        e ->
                                assertThat(e.item())
                                        .containsEntry(
                                                "m", AttributeValue.fromM(Map.of("b", n("2")))));
        assertThatThrownBy(
                        () ->
                                ddb.deleteItem(
                                        b ->
                                                b.tableName(table)
                                                        .key(key("none", "1"))
                                                        .conditionExpression("attribute_exists(PK)")
                                                        .returnValuesOnConditionCheckFailure(
                                                                ReturnValuesOnConditionCheckFailure
                                                                        .ALL_OLD)))
                .isInstanceOfSatisfying(
                        ConditionalCheckFailedException.class,
                        e -> assertThat(e.hasItem()).isFalse());
    }

    @Test
    void projectionsOfNestedPathsAndListElements() {
        ddb.putItem(
                b ->
                        b.tableName(table)
                                .item(
                                        Map.of(
                                                "PK", s("proj"),
                                                "SK", s("1"),
                                                "m",
                                                        AttributeValue.fromM(
                                                                Map.of(
                                                                        "a",
                                                                        n("1"),
                                                                        "b",
                                                                        AttributeValue.fromM(
                                                                                Map.of(
                                                                                        "c", n("2"),
                                                                                        "d",
                                                                                        n("3"))))),
                                                "l",
                                                        AttributeValue.fromL(
                                                                List.of(
                                                                        s("x"),
                                                                        s("y"),
                                                                        s("z"),
                                                                        AttributeValue.fromM(
                                                                                Map.of(
                                                                                        "q",
                                                                                        n("1"),
                                                                                        "r",
                                                                                        n(
                                                                                                "2"))))))));
        var got =
                ddb.getItem(
                                b ->
                                        b.tableName(table)
                                                .key(key("proj", "1"))
                                                .projectionExpression(
                                                        "m.b.c, l[2], l[3].q, l[9], nope"))
                        .item();
        assertThat(got)
                .isEqualTo(
                        Map.of(
                                "m",
                                        AttributeValue.fromM(
                                                Map.of(
                                                        "b",
                                                        AttributeValue.fromM(Map.of("c", n("2"))))),
                                "l",
                                        AttributeValue.fromL(
                                                List.of(
                                                        s("z"),
                                                        AttributeValue.fromM(
                                                                Map.of("q", n("1")))))));
        assertValidation(
                        () ->
                                ddb.getItem(
                                        b ->
                                                b.tableName(table)
                                                        .key(key("proj", "1"))
                                                        .projectionExpression("m, m.a")))
                .hasMessageContaining("Two document paths overlap");
    }

    @Test
    void selectVariants() {
        String t = Tables.unique("Select");
        ddb.createTable(
                b ->
                        b.tableName(t)
                                .billingMode(BillingMode.PAY_PER_REQUEST)
                                .attributeDefinitions(
                                        attr("PK", ScalarAttributeType.S),
                                        attr("SK", ScalarAttributeType.S),
                                        attr("g", ScalarAttributeType.S))
                                .keySchema(
                                        Tables.key("PK", KeyType.HASH),
                                        Tables.key("SK", KeyType.RANGE))
                                .globalSecondaryIndexes(
                                        GlobalSecondaryIndex.builder()
                                                .indexName("byG")
                                                .keySchema(Tables.key("g", KeyType.HASH))
                                                .projection(
                                                        p ->
                                                                p.projectionType(
                                                                                ProjectionType
                                                                                        .INCLUDE)
                                                                        .nonKeyAttributes("kept"))
                                                .build()));
        for (int i = 0; i < 3; i++) {
            String sk = Integer.toString(i);
            ddb.putItem(
                    b ->
                            b.tableName(t)
                                    .item(
                                            Map.of(
                                                    "PK", s("p"), "SK", s(sk), "g", s("G"), "kept",
                                                    n(sk), "dropped", n(sk))));
        }
        var count =
                ddb.query(
                        b ->
                                b.tableName(t)
                                        .keyConditionExpression("PK = :p")
                                        .expressionAttributeValues(Map.of(":p", s("p")))
                                        .select(Select.COUNT));
        assertThat(count.count()).isEqualTo(3);
        assertThat(count.hasItems()).isFalse();
        var projected =
                ddb.query(
                        b ->
                                b.tableName(t)
                                        .indexName("byG")
                                        .keyConditionExpression("g = :g")
                                        .expressionAttributeValues(Map.of(":g", s("G")))
                                        .select(Select.ALL_PROJECTED_ATTRIBUTES));
        assertThat(projected.items().get(0))
                .containsKeys("PK", "SK", "g", "kept")
                .doesNotContainKey("dropped");
        var specific =
                ddb.query(
                        b ->
                                b.tableName(t)
                                        .keyConditionExpression("PK = :p")
                                        .expressionAttributeValues(Map.of(":p", s("p")))
                                        .select(Select.SPECIFIC_ATTRIBUTES)
                                        .projectionExpression("kept"));
        assertThat(specific.items().get(0)).containsOnlyKeys("kept");
        assertValidation(
                        () ->
                                ddb.query(
                                        b ->
                                                b.tableName(t)
                                                        .keyConditionExpression("PK = :p")
                                                        .expressionAttributeValues(
                                                                Map.of(":p", s("p")))
                                                        .select(Select.SPECIFIC_ATTRIBUTES)))
                .hasMessageContaining(
                        "Must specify the AttributesToGet or ProjectionExpression when choosing to get SPECIFIC_ATTRIBUTES");
        assertValidation(
                        () -> ddb.scan(b -> b.tableName(t).select(Select.ALL_PROJECTED_ATTRIBUTES)))
                .hasMessageContaining(
                        "ALL_PROJECTED_ATTRIBUTES can be used only when Querying using an IndexName");
        assertValidation(
                        () ->
                                ddb.scan(
                                        b ->
                                                b.tableName(t)
                                                        .select(Select.ALL_ATTRIBUTES)
                                                        .attributesToGet("kept")))
                .hasMessageContaining(
                        "Cannot specify the AttributesToGet when choosing to get ALL_ATTRIBUTES");
        assertValidation(
                        () ->
                                ddb.scan(
                                        b ->
                                                b.tableName(t)
                                                        .indexName("byG")
                                                        .select(Select.ALL_ATTRIBUTES)))
                .hasMessageContaining(
                        "Select type ALL_ATTRIBUTES is not supported for global secondary index byG");
    }

    @Test
    void billingModeAndDeletionDescriptions() {
        var onDemand = ddb.describeTable(b -> b.tableName(table)).table();
        assertThat(onDemand.billingModeSummary().billingMode())
                .isEqualTo(BillingMode.PAY_PER_REQUEST);
        assertThat(onDemand.billingModeSummary().lastUpdateToPayPerRequestDateTime()).isNotNull();
        assertThat(onDemand.provisionedThroughput().readCapacityUnits()).isZero();

        String t = Tables.unique("Billing");
        ddb.createTable(
                b ->
                        b.tableName(t)
                                .attributeDefinitions(
                                        attr("PK", ScalarAttributeType.S),
                                        attr("SK", ScalarAttributeType.S),
                                        attr("g", ScalarAttributeType.S),
                                        attr("l", ScalarAttributeType.S))
                                .keySchema(
                                        Tables.key("PK", KeyType.HASH),
                                        Tables.key("SK", KeyType.RANGE))
                                .provisionedThroughput(
                                        p -> p.readCapacityUnits(5L).writeCapacityUnits(7L))
                                .globalSecondaryIndexes(
                                        GlobalSecondaryIndex.builder()
                                                .indexName("byG")
                                                .keySchema(Tables.key("g", KeyType.HASH))
                                                .projection(
                                                        p -> p.projectionType(ProjectionType.ALL))
                                                .provisionedThroughput(
                                                        p ->
                                                                p.readCapacityUnits(1L)
                                                                        .writeCapacityUnits(1L))
                                                .build())
                                .localSecondaryIndexes(
                                        LocalSecondaryIndex.builder()
                                                .indexName("byL")
                                                .keySchema(
                                                        Tables.key("PK", KeyType.HASH),
                                                        Tables.key("l", KeyType.RANGE))
                                                .projection(
                                                        p ->
                                                                p.projectionType(
                                                                        ProjectionType.KEYS_ONLY))
                                                .build()));
        var provisioned = ddb.describeTable(b -> b.tableName(t)).table();
        assertThat(provisioned.billingModeSummary().billingMode())
                .isEqualTo(BillingMode.PROVISIONED);
        assertThat(provisioned.billingModeSummary().lastUpdateToPayPerRequestDateTime()).isNull();
        assertThat(provisioned.provisionedThroughput().writeCapacityUnits()).isEqualTo(7L);
        ddb.updateTable(b -> b.tableName(t).billingMode(BillingMode.PAY_PER_REQUEST));
        assertThat(
                        ddb.describeTable(b -> b.tableName(t))
                                .table()
                                .billingModeSummary()
                                .lastUpdateToPayPerRequestDateTime())
                .isNotNull();

        var deleted = ddb.deleteTable(b -> b.tableName(t)).tableDescription();
        assertThat(deleted.tableStatus()).isEqualTo(TableStatus.DELETING);
        assertThat(deleted.globalSecondaryIndexes())
                .singleElement()
                .satisfies(g -> assertThat(g.indexStatus()).isEqualTo(IndexStatus.DELETING));
        assertThat(deleted.localSecondaryIndexes())
                .singleElement()
                .satisfies(l -> assertThat(l.indexName()).isEqualTo("byL"));
        assertError(() -> ddb.describeTable(b -> b.tableName(t)), "ResourceNotFoundException");
    }

    @Test
    void leftOutOperationsAnswerWithANamedError() {
        assertError(
                        () -> ddb.createBackup(b -> b.tableName(table).backupName("b1")),
                        "UnknownOperationException")
                .hasMessageContaining(
                        "CreateBackup is not supported by the streamledger local endpoint (backups)");
        assertError(() -> ddb.listGlobalTables(b -> {}), "UnknownOperationException")
                .hasMessageContaining(
                        "ListGlobalTables is not supported by the streamledger local endpoint (global tables)");
        assertValidation(
                        () ->
                                ddb.updateTable(
                                        b ->
                                                b.tableName(table)
                                                        .replicaUpdates(
                                                                r ->
                                                                        r.create(
                                                                                c ->
                                                                                        c
                                                                                                .regionName(
                                                                                                        "eu-west-1")))))
                .hasMessageContaining(
                        "ReplicaUpdates are not supported by the streamledger local endpoint (global tables)");
    }
}
