package io.streamledger.savepoints.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.streamledger.jobs.config.JobOptions;
import io.streamledger.model.projection.ViewScope;
import io.streamledger.model.table.TableNaming;
import org.apache.flink.configuration.Configuration;
import org.junit.jupiter.api.Test;

/** CS09 namespaces: table names, checkpoint names and the job options they set. */
class NamespaceTest {

    @Test
    void versionOneKeepsTheJobsDefaultCheckpointName() {
        Namespace v1 = new Namespace(new TableNaming("dev-"), "portfolio", 1);
        assertThat(v1.portfolioTable()).isEqualTo("dev-Portfolio_v1");
        assertThat(v1.projectionTable()).isEqualTo("dev-Projection");
        assertThat(v1.ledgerTable()).isEqualTo("dev-Ledger");
        assertThat(v1.checkpointName()).isEqualTo(JobOptions.PROJECTION_NAME.defaultValue());
    }

    @Test
    void laterVersionsGetTheirOwnTableAndCheckpointName() {
        Namespace v2 = new Namespace(TableNaming.NONE, "portfolio", 1).next();
        assertThat(v2.portfolioTable()).isEqualTo("Portfolio_v2");
        assertThat(v2.checkpointName()).isEqualTo("portfolio_v2");
        assertThat(v2.rows().checkpointRow(BootstrapUpdatesTest.update("k", 4)).key().get("PK").s())
                .startsWith("PROJ#portfolio_v2#V#1#SHARD#");
    }

    @Test
    void applyToPointsTheProjectionJobAtTheNamespace() {
        Configuration c =
                new Namespace(new TableNaming("p-"), "portfolio", 3).applyTo(new Configuration());
        assertThat(c.get(JobOptions.TABLE_PREFIX)).isEqualTo("p-");
        assertThat(c.get(JobOptions.PORTFOLIO_NAMESPACE_VERSION)).isEqualTo(3);
        assertThat(c.get(JobOptions.PROJECTION_NAME)).isEqualTo("portfolio_v3");
        assertThat(c.get(JobOptions.PROJECTION_SCOPE)).isEqualTo(ViewScope.ALL);
    }

    @Test
    void theViewScopeBelongsToTheNamespaceAndReachesTheCatchUpJob() {
        Namespace v2 = new Namespace(TableNaming.NONE, "portfolio", 2, ViewScope.CLIENTS);
        assertThat(v2.applyTo(new Configuration()).get(JobOptions.PROJECTION_SCOPE))
                .isEqualTo(ViewScope.CLIENTS);
        assertThat(v2.next().scope()).isEqualTo(ViewScope.CLIENTS);
        assertThat(v2.toString()).endsWith("(clients only)");
        assertThat(new Namespace(TableNaming.NONE, "portfolio", 2).scope())
                .isEqualTo(ViewScope.DEFAULT);
    }

    @Test
    void rejectsVersionZeroAndBadPrefixes() {
        assertThatThrownBy(() -> new Namespace(TableNaming.NONE, "portfolio", 0))
                .hasMessageContaining("namespace version must be >= 1, got 0");
        assertThatThrownBy(() -> new Namespace("bad prefix!", "portfolio", 1))
                .hasMessageContaining("must match");
    }
}
