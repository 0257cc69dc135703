package io.streamledger.savepoints.compat;

import static io.streamledger.savepoints.compat.ProjectionStateFixture.AAPL;
import static io.streamledger.savepoints.compat.ProjectionStateFixture.EUR;
import static io.streamledger.savepoints.compat.ProjectionStateFixture.USD;
import static io.streamledger.savepoints.testing.ExportFixture.authority;
import static org.assertj.core.api.Assertions.assertThat;

import io.streamledger.jobs.config.JobOptions;
import io.streamledger.jobs.it.CollectSink;
import io.streamledger.jobs.projection.DynamoDbProjectionSinks;
import io.streamledger.jobs.projection.ProjectionJob;
import io.streamledger.jobs.source.RawChange;
import io.streamledger.jobs.source.SourceTypes;
import io.streamledger.model.keys.AuthorityKey;
import io.streamledger.model.projection.ProjectionSchema;
import io.streamledger.model.table.Attr;
import io.streamledger.model.table.Tables;
import io.streamledger.operators.gate.GateEvent;
import io.streamledger.operators.gate.GateState;
import io.streamledger.operators.projection.AuthorityChanges;
import io.streamledger.operators.projection.ProjectionState;
import io.streamledger.savepoints.bootstrap.Namespace;
import io.streamledger.savepoints.bootstrap.NamespaceTables;
import io.streamledger.savepoints.inspect.SavepointInspector;
import io.streamledger.savepoints.testing.LocalDdb;
import io.streamledger.savepoints.testing.StreamRecords;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.runtime.jobgraph.SavepointConfigOptions;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * State compatibility (AP13/CS07): restores a savepoint the projection job wrote (committed under
 * {@code src/test/resources/state-fixtures/projection-job-v1}, see {@link ProjectionStateFixture})
 * into today's job. A renamed uid, a changed state descriptor or an incompatible serializer change
 * makes this fail the build instead of failing a production restore.
 */
class ProjectionStateCompatibilityITCase {

    @TempDir Path tmp;
    private LocalDdb local;

    @BeforeEach
    void start() {
        local = new LocalDdb(tmp.resolve("exports"));
        local.create(Tables.PROJECTION);
        // the projection job writes overdue-gap breaks to the AP15 table
        local.create(Tables.RECONCILIATION);
        // the gates write parked-gap records (CS07) and dead letters to the DeadLetter table
        local.create(Tables.DEAD_LETTER);
    }

    @AfterEach
    void stop() {
        local.close();
    }

    private static String fixture() throws Exception {
        return ProjectionStateCompatibilityITCase.class
                .getResource(ProjectionStateFixture.RESOURCE)
                .toURI()
                .toString();
    }

    @Test
    void fixtureHoldsTheGateAndTrackerStateUnderTheSharedUids() throws Exception {
        SavepointInspector.Summary s = SavepointInspector.inspect(fixture());
        assertThat(s.operators().values())
                .anyMatch(v -> v.startsWith(GateState.NEXT_VERSION_UID + " "))
                .anyMatch(v -> v.startsWith(GateState.INBOX_UID + " "))
                .anyMatch(v -> v.startsWith(ProjectionState.TRACKER_UID + " "))
                .noneMatch(v -> v.startsWith("(unknown uid)") && !v.contains("bytes=0"));
        assertThat(s.gateKeys()).isEqualTo(3);
        assertThat(s.minVersion()).isEqualTo(1);
        assertThat(s.maxVersion()).isEqualTo(3);
        assertThat(s.parkedEvents()).isEqualTo(1);
        assertThat(s.openGaps()).isEqualTo(1);
        assertThat(s.gapSample()).containsExactly(key(AAPL) + " at v1 waits for v2 (1 parked)");
    }

    @Test
    void todaysJobRestoresTheFixtureAndContinuesFromIt() throws Exception {
        Namespace ns = new Namespace(local.naming, "portfolio", 1);
        NamespaceTables.createPortfolioIfAbsent(local.ddb, ns);
        Configuration conf = ns.applyTo(local.config());
        conf.set(JobOptions.SOURCE_TABLE, ns.ledgerTable());
        conf.set(SavepointConfigOptions.SAVEPOINT_PATH, fixture());
        // parallelism 2 against a savepoint written at 1: key groups are redistributed too
        StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(2, conf);
        env.getConfig().disableGenericTypes();
        List<RawChange> next =
                List.of(
                        StreamRecords.modify(authority(USD, 3, "30", "5"), 10, 2_000),
                        StreamRecords.modify(authority(AAPL, 2, "5", "0"), 11, 2_001),
                        StreamRecords.modify(authority(EUR, 2, "3.5", "0"), 12, 2_002));
        ProjectionJob.Streams s =
                new ProjectionJob(
                                e -> e.fromData(next, SourceTypes.RAW_CHANGE).setParallelism(1),
                                new DynamoDbProjectionSinks(conf),
                                conf)
                        .build(env);
        s.gate().stale().sinkTo(new CollectSink<>("compat-stale"));
        s.gate().applied().sinkTo(new CollectSink<>("compat-applied"));
        env.execute("restore state fixture");

        assertThat(versions("compat-stale")).containsExactly(key(USD) + "@3");
        // v2 fills the restored gap and releases the parked v3
        assertThat(versions("compat-applied"))
                .containsExactlyInAnyOrder(key(AAPL) + "@2", key(AAPL) + "@3", key(EUR) + "@2");
        Map<String, Map<String, AttributeValue>> rows = new HashMap<>();
        local.scan(ns.portfolioTable())
                .forEach(r -> rows.put(r.get(ProjectionSchema.SOURCE_KEY).s(), r));
        assertThat(rows.get(key(AAPL)).get(Attr.SOURCE_VERSION).n()).isEqualTo("3");
        assertThat(rows.get(key(AAPL)).get(ProjectionSchema.GAP_OPEN).bool()).isFalse();
        // the tracker's restored revision continues above the fixture's rows
        assertThat(Long.parseLong(rows.get(key(EUR)).get(ProjectionSchema.REVISION).n()))
                .isEqualTo(2L << ProjectionState.REVISION_BITS);
    }

    private static String key(AuthorityKey k) {
        return AuthorityChanges.sourceKey(k);
    }

    private static List<String> versions(String sink) {
        return CollectSink.<GateEvent>values(sink).stream()
                .map(e -> e.getSourceKey() + "@" + e.getVersion())
                .collect(Collectors.toList());
    }
}
