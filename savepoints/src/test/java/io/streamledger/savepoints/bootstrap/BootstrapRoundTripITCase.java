package io.streamledger.savepoints.bootstrap;

import static io.streamledger.savepoints.testing.ExportFixture.authority;
import static io.streamledger.savepoints.testing.ExportFixture.posting;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

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
import io.streamledger.operators.projection.AuthorityChanges;
import io.streamledger.savepoints.export.ExportManifest;
import io.streamledger.savepoints.export.ExportReader;
import io.streamledger.savepoints.testing.ExportFixture;
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
 * Round trip (CS09, AP13): export → State Processor API bootstrap → the real projection job
 * restored from the savepoint → stream records at or below the bootstrapped version are stale
 * no-ops, above it they apply; a version gap above it parks and stays visible.
 */
class BootstrapRoundTripITCase {

    private static final AuthorityKey USD = AuthorityKey.cash("t1", "a1", "USD");
    private static final AuthorityKey AAPL = AuthorityKey.security("t1", "a1", "AAPL");
    private static final AuthorityKey EUR = AuthorityKey.cash("t1", "a2", "EUR");
    private static final AuthorityKey GBP = AuthorityKey.cash("t1", "a3", "GBP");

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

    private Namespace target() {
        return new Namespace(local.naming, "portfolio", 2);
    }

    private ExportManifest export() throws Exception {
        Path dir =
                new ExportFixture()
                        .table(local.naming.physicalName(Tables.LEDGER))
                        .file(
                                List.of(
                                        authority(USD, 3, "1000.10", "100"),
                                        posting("t1", "a1", "1"),
                                        authority(AAPL, 5, "40", "0")))
                        .file(List.of(authority(EUR, 1, "7.5", "0")))
                        .write(tmp.resolve("export"));
        return ExportReader.open(dir);
    }

    @Test
    void restoredJobTreatsBootstrappedVersionsAsStaleAndAppliesNewerOnes() throws Exception {
        Namespace ns = target();
        NamespaceTables.createPortfolioIfAbsent(local.ddb, ns);
        NamespaceTables.requireEmpty(local.ddb, ns);
        String savepoint = tmp.resolve("savepoint").toUri().toString();
        ProjectionBootstrap.Result r =
                new ProjectionBootstrap(export(), ns, local.clientConfig(), 128)
                        .run(StreamExecutionEnvironment.createLocalEnvironment(2), savepoint);
        assertThat(r.authorities()).isEqualTo(3);
        assertThat(r.exportItems()).isEqualTo(4);

        Map<String, Map<String, AttributeValue>> bootstrapped = bySourceKey(ns.portfolioTable());
        assertThat(bootstrapped).hasSize(3);
        assertThat(version(bootstrapped, USD)).isEqualTo(3);
        assertThat(bootstrapped.get(key(USD)).get(ProjectionSchema.REVISION).n())
                .isEqualTo(Long.toString(3L << 20));
        assertThat(local.scan(ns.projectionTable())).hasSize(3);

        // the real projection job, restored from the bootstrapped savepoint
        List<RawChange> records =
                List.of(
                        StreamRecords.modify(authority(USD, 2, "900", "0"), 1, 1_000),
                        StreamRecords.modify(authority(USD, 3, "1000.10", "100"), 2, 1_001),
                        StreamRecords.modify(authority(USD, 4, "1010.10", "100"), 3, 1_002),
                        StreamRecords.modify(authority(AAPL, 5, "40", "0"), 4, 1_003),
                        StreamRecords.modify(authority(AAPL, 7, "55", "0"), 5, 1_004),
                        StreamRecords.modify(authority(EUR, 2, "8.25", "0"), 6, 1_005),
                        StreamRecords.modify(authority(GBP, 1, "3", "0"), 7, 1_006));
        Configuration conf = ns.applyTo(local.config());
        conf.set(JobOptions.SOURCE_TABLE, ns.ledgerTable());
        conf.set(SavepointConfigOptions.SAVEPOINT_PATH, savepoint);
        StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(2, conf);
        env.getConfig().disableGenericTypes();
        ProjectionJob job =
                new ProjectionJob(
                        e -> e.fromData(records, SourceTypes.RAW_CHANGE).setParallelism(1),
                        new DynamoDbProjectionSinks(conf),
                        conf);
        ProjectionJob.Streams s = job.build(env);
        s.gate().stale().sinkTo(new CollectSink<>("stale"));
        s.gate().applied().sinkTo(new CollectSink<>("applied"));
        env.execute("restored projection");

        assertThat(versions(CollectSink.<GateEvent>values("stale")))
                .containsExactlyInAnyOrder(key(USD) + "@2", key(USD) + "@3", key(AAPL) + "@5");
        assertThat(versions(CollectSink.<GateEvent>values("applied")))
                .containsExactlyInAnyOrder(key(USD) + "@4", key(EUR) + "@2", key(GBP) + "@1");

        Map<String, Map<String, AttributeValue>> after = bySourceKey(ns.portfolioTable());
        assertThat(after).hasSize(4);
        assertThat(version(after, USD)).isEqualTo(4);
        // DynamoDB normalises N: compare the exact decimal value, not its spelling
        assertThat(new java.math.BigDecimal(after.get(key(USD)).get("posted").n()))
                .isEqualByComparingTo("1010.10");
        assertThat(version(after, EUR)).isEqualTo(2);
        assertThat(version(after, GBP)).isEqualTo(1);
        // AAPL stays at its bootstrapped version 5 with the gap at 6 visible (CS07)
        assertThat(version(after, AAPL)).isEqualTo(5);
        assertThat(after.get(key(AAPL)).get(ProjectionSchema.GAP_OPEN).bool()).isTrue();
    }

    @Test
    void refusesANamespaceThatAlreadyHoldsRows() throws Exception {
        Namespace ns = target();
        NamespaceTables.createPortfolioIfAbsent(local.ddb, ns);
        new ProjectionBootstrap(export(), ns, local.clientConfig(), 128)
                .run(
                        StreamExecutionEnvironment.createLocalEnvironment(1),
                        tmp.resolve("sp1").toUri().toString());
        assertThatThrownBy(() -> NamespaceTables.requireEmpty(local.ddb, ns))
                .isInstanceOf(NamespaceTables.NamespaceNotEmptyException.class)
                .hasMessageContaining(ns.portfolioTable() + " already holds rows");
    }

    private static String key(AuthorityKey k) {
        return AuthorityChanges.sourceKey(k);
    }

    private static List<String> versions(java.util.Collection<GateEvent> events) {
        return events.stream()
                .map(e -> e.getSourceKey() + "@" + e.getVersion())
                .collect(Collectors.toList());
    }

    private static long version(Map<String, Map<String, AttributeValue>> rows, AuthorityKey k) {
        return Long.parseLong(rows.get(key(k)).get(Attr.SOURCE_VERSION).n());
    }

    private Map<String, Map<String, AttributeValue>> bySourceKey(String table) {
        Map<String, Map<String, AttributeValue>> out = new HashMap<>();
        for (Map<String, AttributeValue> row : local.scan(table)) {
            out.put(row.get(ProjectionSchema.SOURCE_KEY).s(), row);
        }
        return out;
    }
}
