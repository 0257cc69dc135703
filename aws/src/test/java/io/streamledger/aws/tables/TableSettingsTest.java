package io.streamledger.aws.tables;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.MultiRegionConsistency;
import software.amazon.awssdk.services.dynamodb.model.ReplicaDescription;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;

/**
 * The Global Tables mode read from a {@code DescribeTable} answer (seed "Global Tables"): MREC
 * replicas are refused for AP08 (Idempotency), AP09 (Inbox) and AP12 (Ledger), allowed elsewhere;
 * MRSC and single-Region tables pass.
 */
class TableSettingsTest {

    private static TableDescription described(
            String name, MultiRegionConsistency consistency, String... regions) {
        TableDescription.Builder b = TableDescription.builder().tableName(name);
        if (regions.length > 0) {
            b.replicas(
                    List.of(regions).stream()
                            .map(r -> ReplicaDescription.builder().regionName(r).build())
                            .toList());
        }
        return b.multiRegionConsistency(consistency).deletionProtectionEnabled(true).build();
    }

    @Test
    void mrecReplicasOfLeasesReceiptsAndAuthoritiesAreRefused() {
        for (String table : List.of("Idempotency", "Inbox", "Ledger")) {
            TableSettings s =
                    TableSettings.of(
                            table,
                            described("p-" + table, MultiRegionConsistency.EVENTUAL, "us-west-2"),
                            true);
            assertThat(s.mode()).isEqualTo("MREC [us-west-2]");
            assertThat(s.violation()).as(table).contains("p-" + table).contains("MREC");
        }
        TableSettings ledger =
                TableSettings.of(
                        "Ledger",
                        described("L", MultiRegionConsistency.EVENTUAL, "eu-west-1"),
                        true);
        assertThat(ledger.violation()).contains("AP12");
        assertThat(GlobalTablesCheck.violations(List.of(ledger))).hasSize(1);
    }

    @Test
    void replicasWithoutAStatedModeAreMrecTheDefault() {
        TableSettings s =
                TableSettings.of("Inbox", described("I", null, "us-west-2", "eu-west-1"), false);
        assertThat(s.mrec()).isTrue();
        assertThat(s.violation()).contains("AP09");
    }

    @Test
    void mrscSingleRegionAndMrecWhereAllowedPass() {
        TableSettings mrsc =
                TableSettings.of(
                        "Ledger",
                        described("L", MultiRegionConsistency.STRONG, "us-east-2", "us-west-2"),
                        true);
        assertThat(mrsc.mode()).isEqualTo("MRSC [us-east-2, us-west-2]");
        assertThat(mrsc.violation()).isNull();
        TableSettings single = TableSettings.of("Ledger", described("L", null), true);
        assertThat(single.mode()).isEqualTo("single-Region");
        assertThat(single.violation()).isNull();
        TableSettings orders =
                TableSettings.of(
                        "Orders",
                        described("O", MultiRegionConsistency.EVENTUAL, "us-west-2"),
                        true);
        assertThat(orders.violation()).isNull();
        assertThat(GlobalTablesCheck.violations(List.of(mrsc, single, orders))).isEmpty();
    }

    @Test
    void anAuthorityTableWithoutPitrMissesItsRecoverySettings() {
        assertThat(TableSettings.of("Ledger", described("L", null), false).recoveryMissing())
                .isTrue();
        assertThat(TableSettings.of("Ledger", described("L", null), true).recoveryMissing())
                .isFalse();
        assertThat(TableSettings.of("Execution", described("E", null), false).recoveryMissing())
                .as("not an authority")
                .isFalse();
    }
}
