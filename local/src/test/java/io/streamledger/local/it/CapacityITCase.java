package io.streamledger.local.it;

import static io.streamledger.local.it.Tables.attr;
import static io.streamledger.local.it.Tables.key;
import static io.streamledger.local.it.Tables.s;
import static org.assertj.core.api.Assertions.assertThat;

import io.streamledger.local.LocalDynamoDbExtension;
import java.net.URI;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.ConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndex;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.Projection;
import software.amazon.awssdk.services.dynamodb.model.ProjectionType;
import software.amazon.awssdk.services.dynamodb.model.ReturnConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;

/**
 * ConsumedCapacity of single-item writes and reads, Query/Scan by evaluated bytes, and GSI
 * maintenance (insert = 1 put, removal = 1 delete, key change = delete + put) — AMP01–AMP18.
 */
@ExtendWith(LocalDynamoDbExtension.class)
class CapacityITCase {
    private static DynamoDbClient ddb;
    private static String table;

    @BeforeAll
    static void setUp(URI endpoint) {
        ddb = Clients.dynamo(endpoint);
        table = Tables.unique("Cap");
        ddb.createTable(
                b ->
                        b.tableName(table)
                                .billingMode(BillingMode.PAY_PER_REQUEST)
                                .attributeDefinitions(
                                        attr("PK", ScalarAttributeType.S),
                                        attr("SK", ScalarAttributeType.S),
                                        attr("ready", ScalarAttributeType.S))
                                .keySchema(key("PK", KeyType.HASH), key("SK", KeyType.RANGE))
                                .globalSecondaryIndexes(
                                        GlobalSecondaryIndex.builder()
                                                .indexName("READY")
                                                .keySchema(key("ready", KeyType.HASH))
                                                .projection(
                                                        Projection.builder()
                                                                .projectionType(
                                                                        ProjectionType.KEYS_ONLY)
                                                                .build())
                                                .build()));
    }

    @AfterAll
    static void close() {
        ddb.close();
    }

    /** An item of exactly {@code bytes} bytes: PK(2+len) + SK(2+1) + d(1+pad). */
    private static Map<String, software.amazon.awssdk.services.dynamodb.model.AttributeValue> item(
            String pk, int bytes, String ready) {
        int fixed = 2 + pk.length() + 2 + 1 + 1 + (ready == null ? 0 : 5 + ready.length());
        var m =
                new java.util.HashMap<
                        String, software.amazon.awssdk.services.dynamodb.model.AttributeValue>();
        m.put("PK", s(pk));
        m.put("SK", s("x"));
        m.put("d", s("p".repeat(bytes - fixed)));
        if (ready != null) {
            m.put("ready", s(ready));
        }
        return m;
    }

    private static ConsumedCapacity put(
            Map<String, software.amazon.awssdk.services.dynamodb.model.AttributeValue> item) {
        return ddb.putItem(
                        b ->
                                b.tableName(table)
                                        .item(item)
                                        .returnConsumedCapacity(ReturnConsumedCapacity.INDEXES))
                .consumedCapacity();
    }

    @Test
    void writeUnitsUseTheLargerImageRoundedUpToKilobytes() {
        assertThat(put(item("w1", 1024, null)).capacityUnits()).isEqualTo(1.0);
        assertThat(put(item("w2", 1025, null)).capacityUnits()).isEqualTo(2.0);
        // shrinking a 1.5 KB item to 100 B still costs the larger (old) image
        put(item("w3", 1536, null));
        assertThat(put(item("w3", 100, null)).capacityUnits()).isEqualTo(2.0);
        ConsumedCapacity del =
                ddb.deleteItem(
                                b ->
                                        b.tableName(table)
                                                .key(key("w2", "x"))
                                                .returnConsumedCapacity(
                                                        ReturnConsumedCapacity.TOTAL))
                        .consumedCapacity();
        assertThat(del.capacityUnits()).isEqualTo(2.0);
    }

    @Test
    void readUnitsStrongAndEventual() {
        put(item("r1", 5000, null));
        ConsumedCapacity strong =
                ddb.getItem(
                                b ->
                                        b.tableName(table)
                                                .key(key("r1", "x"))
                                                .consistentRead(true)
                                                .returnConsumedCapacity(
                                                        ReturnConsumedCapacity.TOTAL))
                        .consumedCapacity();
        assertThat(strong.capacityUnits()).isEqualTo(2.0);
        ConsumedCapacity eventual =
                ddb.getItem(
                                b ->
                                        b.tableName(table)
                                                .key(key("r1", "x"))
                                                .returnConsumedCapacity(
                                                        ReturnConsumedCapacity.TOTAL))
                        .consumedCapacity();
        assertThat(eventual.capacityUnits()).isEqualTo(1.0);
    }

    @Test
    void queryRoundsTotalEvaluatedBytesBeforeTheFilter() {
        for (int i = 0; i < 10; i++) {
            String sk = Integer.toString(i);
            ddb.putItem(
                    b ->
                            b.tableName(table)
                                    .item(
                                            Map.of(
                                                    "PK",
                                                    s("q"),
                                                    "SK",
                                                    s(sk),
                                                    "d",
                                                    s("p".repeat(1000)))));
        }
        // 10 items of ~1 KB = ~10 KB evaluated, all filtered out: ceil(10 KB / 4 KB) = 3, eventual
        // 1.5
        var r =
                ddb.query(
                        b ->
                                b.tableName(table)
                                        .keyConditionExpression("PK = :p")
                                        .filterExpression("d = :no")
                                        .expressionAttributeValues(
                                                Map.of(":p", s("q"), ":no", s("none")))
                                        .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL));
        assertThat(r.count()).isZero();
        assertThat(r.consumedCapacity().capacityUnits()).isEqualTo(1.5);
    }

    @Test
    void gsiMaintenanceCountsPutsDeletesAndKeyMoves() {
        ConsumedCapacity insert = put(item("g", 500, "READY#1"));
        assertThat(insert.table().capacityUnits()).isEqualTo(1.0);
        assertThat(insert.globalSecondaryIndexes().get("READY").capacityUnits()).isEqualTo(1.0);
        ConsumedCapacity move = put(item("g", 500, "READY#2"));
        assertThat(move.globalSecondaryIndexes().get("READY").capacityUnits()).isEqualTo(2.0);
        ConsumedCapacity same = put(item("g", 600, "READY#2"));
        assertThat(same.globalSecondaryIndexes())
                .doesNotContainKey("READY"); // projection unchanged
        ConsumedCapacity removal = put(item("g", 500, null));
        assertThat(removal.globalSecondaryIndexes().get("READY").capacityUnits()).isEqualTo(1.0);
        assertThat(removal.capacityUnits()).isEqualTo(2.0);
    }
}
