package io.streamledger.local.it;

import static io.streamledger.local.it.Errors.assertValidation;
import static io.streamledger.local.it.Tables.attr;
import static io.streamledger.local.it.Tables.key;
import static io.streamledger.local.it.Tables.s;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.streamledger.local.LocalDynamoDbExtension;
import java.net.URI;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.CreateGlobalSecondaryIndexAction;
import software.amazon.awssdk.services.dynamodb.model.CreateTableRequest;
import software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndex;
import software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndexUpdate;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.Projection;
import software.amazon.awssdk.services.dynamodb.model.ProjectionType;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.ResourceInUseException;
import software.amazon.awssdk.services.dynamodb.model.ResourceNotFoundException;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;
import software.amazon.awssdk.services.dynamodb.model.TableStatus;
import software.amazon.awssdk.services.dynamodb.model.TimeToLiveStatus;

/** CreateTable / DescribeTable / ListTables / UpdateTable / DeleteTable / TTL settings. */
@ExtendWith(LocalDynamoDbExtension.class)
class TableLifecycleITCase {
    private static DynamoDbClient ddb;

    @BeforeAll
    static void client(URI endpoint) {
        ddb = Clients.dynamo(endpoint);
    }

    @AfterAll
    static void close() {
        ddb.close();
    }

    @Test
    void createDescribeListDelete() {
        String name = Tables.pkSk(ddb, "Orders");
        TableDescription d = ddb.describeTable(b -> b.tableName(name)).table();
        assertThat(d.tableStatus()).isEqualTo(TableStatus.ACTIVE);
        assertThat(d.keySchema()).extracting(k -> k.attributeName()).containsExactly("PK", "SK");
        assertThat(d.billingModeSummary().billingMode()).isEqualTo(BillingMode.PAY_PER_REQUEST);
        assertThat(d.tableArn()).endsWith(":table/" + name);
        assertThat(ddb.listTables().tableNames()).contains(name);

        assertThatThrownBy(() -> Tables.pkSkNamed(ddb, name))
                .isInstanceOf(ResourceInUseException.class);

        ddb.deleteTable(b -> b.tableName(name));
        assertThatThrownBy(() -> ddb.describeTable(b -> b.tableName(name)))
                .isInstanceOf(ResourceNotFoundException.class)
                .hasMessageContaining("Requested resource not found");
        assertThatThrownBy(() -> ddb.getItem(b -> b.tableName(name).key(key("a", "b"))))
                .isInstanceOf(ResourceNotFoundException.class);
    }

    @Test
    void listTablesPaginates() {
        for (int i = 0; i < 3; i++) {
            Tables.pkSk(ddb, "Page");
        }
        var first = ddb.listTables(b -> b.limit(2));
        assertThat(first.tableNames()).hasSize(2);
        assertThat(first.lastEvaluatedTableName()).isEqualTo(first.tableNames().get(1));
        var next = ddb.listTables(b -> b.exclusiveStartTableName(first.lastEvaluatedTableName()));
        assertThat(next.tableNames()).doesNotContainAnyElementsOf(first.tableNames());
    }

    @Test
    void rejectsUnusedAttributeDefinitionsAndBadKeySchema() {
        assertValidation(
                        () ->
                                ddb.createTable(
                                        CreateTableRequest.builder()
                                                .tableName(Tables.unique("Bad"))
                                                .billingMode(BillingMode.PAY_PER_REQUEST)
                                                .attributeDefinitions(
                                                        attr("PK", ScalarAttributeType.S),
                                                        attr("X", ScalarAttributeType.S))
                                                .keySchema(key("PK", KeyType.HASH))
                                                .build()))
                .hasMessageContaining("Some AttributeDefinitions are not used");
    }

    @Test
    void updateTableAddsGsiBackfilledFromExistingItems() {
        String name = Tables.pkSk(ddb, "Gsi");
        ddb.putItem(
                b -> b.tableName(name).item(Map.of("PK", s("o1"), "SK", s("v1"), "acct", s("A"))));
        ddb.putItem(b -> b.tableName(name).item(Map.of("PK", s("o2"), "SK", s("v1"))));
        TableDescription d =
                ddb.updateTable(
                                b ->
                                        b.tableName(name)
                                                .attributeDefinitions(
                                                        attr("acct", ScalarAttributeType.S))
                                                .globalSecondaryIndexUpdates(
                                                        GlobalSecondaryIndexUpdate.builder()
                                                                .create(
                                                                        CreateGlobalSecondaryIndexAction
                                                                                .builder()
                                                                                .indexName(
                                                                                        "byAccount")
                                                                                .keySchema(
                                                                                        key(
                                                                                                "acct",
                                                                                                KeyType
                                                                                                        .HASH))
                                                                                .projection(
                                                                                        Projection
                                                                                                .builder()
                                                                                                .projectionType(
                                                                                                        ProjectionType
                                                                                                                .KEYS_ONLY)
                                                                                                .build())
                                                                                .build())
                                                                .build()))
                        .tableDescription();
        assertThat(d.globalSecondaryIndexes())
                .extracting(GlobalSecondaryIndex -> GlobalSecondaryIndex.indexName())
                .containsExactly("byAccount");
        Tables.awaitIndexesActive(ddb, name);
        var items =
                ddb.query(
                                QueryRequest.builder()
                                        .tableName(name)
                                        .indexName("byAccount")
                                        .keyConditionExpression("acct = :a")
                                        .expressionAttributeValues(Map.of(":a", s("A")))
                                        .build())
                        .items();
        assertThat(items).containsExactly(Map.of("PK", s("o1"), "SK", s("v1"), "acct", s("A")));
    }

    @Test
    void timeToLiveSettings() {
        String name = Tables.pkSk(ddb, "Ttl");
        assertThat(
                        ddb.describeTimeToLive(b -> b.tableName(name))
                                .timeToLiveDescription()
                                .timeToLiveStatus())
                .isEqualTo(TimeToLiveStatus.DISABLED);
        ddb.updateTimeToLive(
                b ->
                        b.tableName(name)
                                .timeToLiveSpecification(
                                        t -> t.enabled(true).attributeName("expiresAt")));
        var ttl = ddb.describeTimeToLive(b -> b.tableName(name)).timeToLiveDescription();
        assertThat(ttl.timeToLiveStatus()).isEqualTo(TimeToLiveStatus.ENABLED);
        assertThat(ttl.attributeName()).isEqualTo("expiresAt");
        assertValidation(
                        () ->
                                ddb.updateTimeToLive(
                                        b ->
                                                b.tableName(name)
                                                        .timeToLiveSpecification(
                                                                t ->
                                                                        t.enabled(true)
                                                                                .attributeName(
                                                                                        "expiresAt"))))
                .hasMessageContaining("TimeToLive is already enabled");
    }
}
