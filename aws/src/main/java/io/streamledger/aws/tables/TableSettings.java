package io.streamledger.aws.tables;

import io.streamledger.model.table.TablePolicy;
import java.util.List;
import java.util.Objects;
import javax.annotation.Nullable;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.ContinuousBackupsDescription;
import software.amazon.awssdk.services.dynamodb.model.MultiRegionConsistency;
import software.amazon.awssdk.services.dynamodb.model.PointInTimeRecoveryStatus;
import software.amazon.awssdk.services.dynamodb.model.ReplicaDescription;
import software.amazon.awssdk.services.dynamodb.model.ResourceNotFoundException;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;

/**
 * What a deployed table is, as {@code DescribeTable} and {@code DescribeContinuousBackups} report
 * it: its Global Tables replicas and consistency mode (seed "Global Tables: make the consistency
 * mode explicit") and its recovery settings (point-in-time recovery, deletion protection).
 *
 * @param logicalName the model's name, e.g. {@code Ledger}
 * @param physicalName the deployed name
 * @param exists false when the table is not there (nothing else is then known)
 * @param replicaRegions Regions of its replicas (Global Tables); empty for a single-Region table
 * @param consistency {@code EVENTUAL} (MREC, the default) or {@code STRONG} (MRSC) when replicated
 * @param pitr point-in-time recovery enabled
 * @param deletionProtection deletion protection enabled
 */
public record TableSettings(
        String logicalName,
        String physicalName,
        boolean exists,
        List<String> replicaRegions,
        @Nullable MultiRegionConsistency consistency,
        boolean pitr,
        boolean deletionProtection) {

    public TableSettings {
        Objects.requireNonNull(logicalName, "logicalName");
        Objects.requireNonNull(physicalName, "physicalName");
        replicaRegions = List.copyOf(replicaRegions);
    }

    /** Reads the settings of one table. */
    public static TableSettings read(DynamoDbClient ddb, String logicalName, String physicalName) {
        TableDescription t;
        try {
            t = ddb.describeTable(b -> b.tableName(physicalName)).table();
        } catch (ResourceNotFoundException absent) {
            return new TableSettings(
                    logicalName, physicalName, false, List.of(), null, false, false);
        }
        ContinuousBackupsDescription backups =
                ddb.describeContinuousBackups(b -> b.tableName(physicalName))
                        .continuousBackupsDescription();
        boolean pitr =
                backups != null
                        && backups.pointInTimeRecoveryDescription() != null
                        && backups.pointInTimeRecoveryDescription().pointInTimeRecoveryStatus()
                                == PointInTimeRecoveryStatus.ENABLED;
        return of(logicalName, t, pitr);
    }

    /** The settings a {@code DescribeTable} answer shows, with the PITR state read beside it. */
    public static TableSettings of(String logicalName, TableDescription t, boolean pitr) {
        List<String> regions =
                t.hasReplicas()
                        ? t.replicas().stream().map(ReplicaDescription::regionName).toList()
                        : List.of();
        return new TableSettings(
                logicalName,
                t.tableName(),
                true,
                regions,
                regions.isEmpty() ? null : t.multiRegionConsistency(),
                pitr,
                Boolean.TRUE.equals(t.deletionProtectionEnabled()));
    }

    /** True for multi-Region eventually consistent replicas (MREC; DynamoDB's default mode). */
    public boolean mrec() {
        return !replicaRegions.isEmpty() && consistency != MultiRegionConsistency.STRONG;
    }

    /** {@code single-Region}, {@code MREC [regions]} or {@code MRSC [regions]}. */
    public String mode() {
        if (replicaRegions.isEmpty()) {
            return "single-Region";
        }
        return (mrec() ? "MREC " : "MRSC ") + replicaRegions;
    }

    /** The model's policy for this table. */
    public TablePolicy policy() {
        return TablePolicy.of(logicalName);
    }

    /** Why this table's replication is refused, or null when it is allowed. */
    public @Nullable String violation() {
        if (!exists || !mrec() || !policy().forbidsMrec()) {
            return null;
        }
        TablePolicy p = policy();
        return physicalName
                + " has MREC replicas "
                + replicaRegions
                + " but must be single-Region or MRSC ("
                + String.join(", ", p.aps())
                + "): "
                + p.why();
    }

    /** True when an authority table lacks point-in-time recovery or deletion protection. */
    public boolean recoveryMissing() {
        return exists && policy().authority() && !(pitr && deletionProtection);
    }
}
