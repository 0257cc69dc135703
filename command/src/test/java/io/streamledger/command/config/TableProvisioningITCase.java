package io.streamledger.command.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.streamledger.aws.tables.GlobalTablesCheck;
import io.streamledger.aws.tables.TableSettings;
import io.streamledger.command.testing.CommandFixture;
import io.streamledger.local.LocalDynamoDbExtension;
import io.streamledger.model.table.TableNaming;
import io.streamledger.model.table.TableSpec;
import io.streamledger.model.table.Tables;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndexDescription;
import software.amazon.awssdk.services.dynamodb.model.TimeToLiveStatus;

/**
 * Provisioning on the local endpoint: recovery settings (PITR, deletion protection) on the
 * authority tables only, the start-up Global Tables check on single-Region tables, and an existing
 * table brought up to a newer spec (a GSI and TTL added).
 */
class TableProvisioningITCase {

    @RegisterExtension static LocalDynamoDbExtension local = new LocalDynamoDbExtension();

    private static String prefix() {
        return "p" + UUID.randomUUID().toString().substring(0, 8) + "-";
    }

    @Test
    void authorityTablesGetPointInTimeRecoveryAndDeletionProtection() {
        try (DynamoDbClient ddb = CommandFixture.client(local.endpoint().endpoint())) {
            String prefix = prefix();
            TableProvisioner.createAll(ddb, prefix, TableProvisioner.Recovery.ON);
            Map<String, TableSettings> settings =
                    GlobalTablesCheck.requireAllowed(ddb, new TableNaming(prefix)).stream()
                            .collect(
                                    Collectors.toMap(
                                            TableSettings::logicalName, Function.identity()));
            for (String authority : List.of("Orders", "Idempotency", "Ledger")) {
                TableSettings s = settings.get(authority);
                assertThat(s.pitr()).as(authority).isTrue();
                assertThat(s.deletionProtection()).as(authority).isTrue();
                assertThat(s.mode()).isEqualTo("single-Region");
                assertThat(s.recoveryMissing()).isFalse();
            }
            TableSettings execution = settings.get("Execution");
            assertThat(execution.pitr()).isFalse();
            assertThat(execution.deletionProtection()).isFalse();
            assertThat(settings.get("Inbox").exists()).as("the posting job's table").isFalse();
            String ledger = new TableNaming(prefix).physicalName(Tables.LEDGER);
            assertThatThrownBy(() -> ddb.deleteTable(b -> b.tableName(ledger)))
                    .hasMessageContaining("eletion protection");
            // again: idempotent
            TableProvisioner.createAll(ddb, prefix, TableProvisioner.Recovery.ON);
        }
    }

    @Test
    void anExistingTableGetsTheIndexesAndTtlANewerSpecAdded() {
        try (DynamoDbClient ddb = CommandFixture.client(local.endpoint().endpoint())) {
            String prefix = prefix();
            TableNaming naming = new TableNaming(prefix);
            String orders = naming.physicalName(Tables.ORDERS);
            String context = naming.physicalName(Tables.CONTEXT);
            TableProvisioner.create(ddb, withoutLastGsiAndTtl(Tables.ORDERS), orders);
            TableProvisioner.create(ddb, withoutLastGsiAndTtl(Tables.CONTEXT), context);
            assertThat(indexes(ddb, orders)).containsExactlyInAnyOrder("GSI1", "GSI2");
            assertThat(ttl(ddb, context)).isEqualTo(TimeToLiveStatus.DISABLED);

            TableProvisioner.createAll(ddb, prefix);
            assertThat(indexes(ddb, orders)).containsExactlyInAnyOrder("GSI1", "GSI2", "GSI3");
            assertThat(indexes(ddb, context)).containsExactlyInAnyOrder("GSI3", "GSI4");
            assertThat(ttl(ddb, context)).isEqualTo(TimeToLiveStatus.ENABLED);
        }
    }

    private static TableSpec withoutLastGsiAndTtl(TableSpec s) {
        return new TableSpec(
                s.logicalName(),
                s.keySchema(),
                s.gsis().subList(0, s.gsis().size() - 1),
                s.streamViewType(),
                null,
                s.baseIndexIds(),
                s.streamReason(),
                s.versioned());
    }

    private static List<String> indexes(DynamoDbClient ddb, String table) {
        return ddb.describeTable(b -> b.tableName(table)).table().globalSecondaryIndexes().stream()
                .map(GlobalSecondaryIndexDescription::indexName)
                .toList();
    }

    private static TimeToLiveStatus ttl(DynamoDbClient ddb, String table) {
        return ddb.describeTimeToLive(b -> b.tableName(table))
                .timeToLiveDescription()
                .timeToLiveStatus();
    }
}
