package io.streamledger.savepoints.catchup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.streamledger.jobs.config.JobOptions;
import io.streamledger.model.projection.ViewScope;
import io.streamledger.model.table.TableNaming;
import io.streamledger.savepoints.bootstrap.Namespace;
import java.time.Instant;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.runtime.jobgraph.SavepointConfigOptions;
import org.junit.jupiter.api.Test;

/** CS09 step 5: catch-up starts at or before the export and restores the bootstrapped state. */
class ProjectionCatchupTest {

    private static final Namespace V2 = new Namespace(TableNaming.NONE, "portfolio", 2);
    private static final Instant EXPORT = Instant.parse("2026-11-30T10:00:00Z");

    @Test
    void defaultsToTrimHorizonAndTheNewNamespace() {
        Configuration c =
                ProjectionCatchup.jobConfig(new Configuration(), V2, "file:/sp", null, EXPORT);
        assertThat(c.get(JobOptions.STARTING_POSITION))
                .isEqualTo(JobOptions.StartingPosition.TRIM_HORIZON);
        assertThat(c.get(SavepointConfigOptions.SAVEPOINT_PATH)).isEqualTo("file:/sp");
        assertThat(c.get(JobOptions.PORTFOLIO_NAMESPACE_VERSION)).isEqualTo(2);
        assertThat(c.get(JobOptions.PROJECTION_NAME)).isEqualTo("portfolio_v2");
        assertThat(c.get(JobOptions.SOURCE_TABLE)).isEqualTo("Ledger");
        assertThat(ProjectionCatchup.flinkRunCommand(c, "jobs.jar"))
                .startsWith("flink run -s file:/sp")
                .contains("--streamledger.projection.namespace-version 2")
                .contains("--streamledger.projection.scope all");
    }

    @Test
    void theCatchUpJobProjectsTheNamespacesViewScope() {
        Namespace clients = new Namespace(TableNaming.NONE, "portfolio", 2, ViewScope.CLIENTS);
        Configuration c =
                ProjectionCatchup.jobConfig(new Configuration(), clients, "file:/sp", null, EXPORT);
        assertThat(c.get(JobOptions.PROJECTION_SCOPE)).isEqualTo(ViewScope.CLIENTS);
        assertThat(ProjectionCatchup.flinkRunCommand(c, "jobs.jar"))
                .contains("--streamledger.projection.scope clients");
    }

    @Test
    void startsAtATimestampNoLaterThanTheExport() {
        Configuration c =
                ProjectionCatchup.jobConfig(
                        new Configuration(), V2, "file:/sp", EXPORT.minusMillis(1500), EXPORT);
        assertThat(c.get(JobOptions.STARTING_POSITION))
                .isEqualTo(JobOptions.StartingPosition.AT_TIMESTAMP);
        assertThat(c.get(JobOptions.STARTING_TIMESTAMP)).isEqualTo("1796032798.500");
        assertThatThrownBy(
                        () ->
                                ProjectionCatchup.jobConfig(
                                        new Configuration(),
                                        V2,
                                        "file:/sp",
                                        EXPORT.plusSeconds(1),
                                        EXPORT))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("would skip changes made in between");
    }
}
