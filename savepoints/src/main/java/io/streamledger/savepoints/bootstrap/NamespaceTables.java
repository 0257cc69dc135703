package io.streamledger.savepoints.bootstrap;

import io.streamledger.model.keys.CheckpointKey;
import io.streamledger.model.shard.ShardMap;
import io.streamledger.model.table.Attr;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeDefinition;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ResourceNotFoundException;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;

/**
 * Prepares a new namespace before the bootstrap writes it (CS09 "never overwrite the live
 * projection"): creates {@code Portfolio_v<n>} if absent and refuses a namespace that already holds
 * view or checkpoint rows, so a bootstrap can never land on top of a live or half-built one.
 */
public final class NamespaceTables {

    private NamespaceTables() {}

    /** Thrown when the target namespace is not empty. */
    public static final class NamespaceNotEmptyException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        NamespaceNotEmptyException(String message) {
            super(message);
        }
    }

    public static boolean exists(DynamoDbClient ddb, String table) {
        try {
            ddb.describeTable(b -> b.tableName(table));
            return true;
        } catch (ResourceNotFoundException e) {
            return false;
        }
    }

    /** Creates the view table (PK/SK, on demand) if absent and waits until it is ACTIVE. */
    public static void createPortfolioIfAbsent(DynamoDbClient ddb, Namespace ns) {
        String table = ns.portfolioTable();
        if (exists(ddb, table)) {
            return;
        }
        ddb.createTable(
                b ->
                        b.tableName(table)
                                .billingMode(BillingMode.PAY_PER_REQUEST)
                                .attributeDefinitions(
                                        AttributeDefinition.builder()
                                                .attributeName(Attr.PK)
                                                .attributeType(ScalarAttributeType.S)
                                                .build(),
                                        AttributeDefinition.builder()
                                                .attributeName(Attr.SK)
                                                .attributeType(ScalarAttributeType.S)
                                                .build())
                                .keySchema(
                                        KeySchemaElement.builder()
                                                .attributeName(Attr.PK)
                                                .keyType(KeyType.HASH)
                                                .build(),
                                        KeySchemaElement.builder()
                                                .attributeName(Attr.SK)
                                                .keyType(KeyType.RANGE)
                                                .build()));
        ddb.waiter().waitUntilTableExists(b -> b.tableName(table));
    }

    /**
     * @throws NamespaceNotEmptyException if the view table or any checkpoint shard has a row
     */
    public static void requireEmpty(DynamoDbClient ddb, Namespace ns) {
        if (ddb.scan(b -> b.tableName(ns.portfolioTable()).limit(1)).count() > 0) {
            throw new NamespaceNotEmptyException(
                    ns.portfolioTable()
                            + " already holds rows; a bootstrap writes a NEW namespace only");
        }
        ShardMap map = ShardMap.PROJECTION_CHECKPOINTS;
        for (int shard = 0; shard < map.shardCount(); shard++) {
            String pk =
                    new CheckpointKey(ns.checkpointName(), map.shardMapVersion(), shard, "x").pk();
            int n =
                    ddb.query(
                                    b ->
                                            b.tableName(ns.projectionTable())
                                                    .keyConditionExpression("PK = :pk")
                                                    .expressionAttributeValues(
                                                            Map.of(":pk", AttributeValue.fromS(pk)))
                                                    .limit(1))
                            .count();
            if (n > 0) {
                throw new NamespaceNotEmptyException(
                        ns.projectionTable()
                                + " already holds checkpoint rows under "
                                + pk
                                + "; a bootstrap writes a NEW namespace only");
            }
        }
    }
}
