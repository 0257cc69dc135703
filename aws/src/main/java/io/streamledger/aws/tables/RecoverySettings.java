package io.streamledger.aws.tables;

import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * Point-in-time recovery and deletion protection of a table (seed "Backup, export, restore"):
 * turned on where they are off, so provisioning an existing deployment is idempotent.
 */
public final class RecoverySettings {

    private RecoverySettings() {}

    /** Enables PITR and deletion protection on {@code table} unless already enabled. */
    public static void enable(DynamoDbClient ddb, String logicalName, String table) {
        TableSettings now = TableSettings.read(ddb, logicalName, table);
        if (!now.exists()) {
            throw new IllegalStateException("table " + table + " does not exist");
        }
        if (!now.pitr()) {
            ddb.updateContinuousBackups(
                    b ->
                            b.tableName(table)
                                    .pointInTimeRecoverySpecification(
                                            p -> p.pointInTimeRecoveryEnabled(true)));
        }
        if (!now.deletionProtection()) {
            ddb.updateTable(b -> b.tableName(table).deletionProtectionEnabled(true));
        }
    }
}
