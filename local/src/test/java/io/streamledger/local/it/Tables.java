package io.streamledger.local.it;

import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeDefinition;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.CreateTableRequest;
import software.amazon.awssdk.services.dynamodb.model.IndexStatus;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;

/** Unique table names and the common PK/SK table shape of the seed (IDX01-style keys). */
public final class Tables {
    private static final AtomicInteger SEQ = new AtomicInteger();

    private Tables() {}

    public static String unique(String prefix) {
        return prefix
                + "-"
                + SEQ.incrementAndGet()
                + "-"
                + UUID.randomUUID().toString().substring(0, 8);
    }

    /** A PAY_PER_REQUEST table with string PK and SK. */
    public static String pkSk(DynamoDbClient ddb, String prefix) {
        return pkSkNamed(ddb, unique(prefix));
    }

    /** Creates the PK/SK table under an exact name. */
    public static String pkSkNamed(DynamoDbClient ddb, String name) {
        ddb.createTable(
                CreateTableRequest.builder()
                        .tableName(name)
                        .billingMode(BillingMode.PAY_PER_REQUEST)
                        .attributeDefinitions(
                                attr("PK", ScalarAttributeType.S),
                                attr("SK", ScalarAttributeType.S))
                        .keySchema(key("PK", KeyType.HASH), key("SK", KeyType.RANGE))
                        .build());
        return name;
    }

    public static AttributeDefinition attr(String name, ScalarAttributeType type) {
        return AttributeDefinition.builder().attributeName(name).attributeType(type).build();
    }

    public static KeySchemaElement key(String name, KeyType type) {
        return KeySchemaElement.builder().attributeName(name).keyType(type).build();
    }

    public static AttributeValue s(String v) {
        return AttributeValue.fromS(v);
    }

    public static AttributeValue n(String v) {
        return AttributeValue.fromN(v);
    }

    /**
     * Waits (at most 30 s) until every GSI of the table is ACTIVE, as clients of DynamoDB wait
     * after UpdateTable creates one; returns the last description.
     */
    public static TableDescription awaitIndexesActive(DynamoDbClient ddb, String table) {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (true) {
            TableDescription d = ddb.describeTable(b -> b.tableName(table)).table();
            if (d.globalSecondaryIndexes().stream()
                    .allMatch(g -> g.indexStatus() == IndexStatus.ACTIVE)) {
                return d;
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("GSIs of " + table + " not ACTIVE within 30 s: " + d);
            }
            try {
                Thread.sleep(10); // polling interval of the wait, not a correctness delay
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError(e);
            }
        }
    }

    public static Map<String, AttributeValue> key(String pk, String sk) {
        return Map.of("PK", s(pk), "SK", s(sk));
    }
}
