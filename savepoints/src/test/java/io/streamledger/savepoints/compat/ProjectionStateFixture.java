package io.streamledger.savepoints.compat;

import static io.streamledger.savepoints.testing.ExportFixture.authority;

import io.streamledger.jobs.config.JobOptions;
import io.streamledger.jobs.projection.DynamoDbProjectionSinks;
import io.streamledger.jobs.projection.ProjectionJob;
import io.streamledger.jobs.source.RawChange;
import io.streamledger.jobs.source.SourceTypes;
import io.streamledger.model.keys.AuthorityKey;
import io.streamledger.model.table.Tables;
import io.streamledger.savepoints.bootstrap.Namespace;
import io.streamledger.savepoints.bootstrap.NamespaceTables;
import io.streamledger.savepoints.testing.LocalDdb;
import io.streamledger.savepoints.testing.StreamRecords;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.core.execution.SavepointFormatType;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * Regenerates the committed state-compatibility fixture (AP13): runs the CURRENT projection job
 * (real DynamoDB sinks on the local endpoint), lets it apply three keys and park one event behind a
 * gap, and stops it with a canonical savepoint into {@link #FIXTURE}.
 *
 * <p>Run only on purpose (the fixture pins today's state layout): {@code mvn -pl savepoints
 * exec:java -Dexec.classpathScope=test
 * -Dexec.mainClass=io.streamledger.savepoints.compat.ProjectionStateFixture}
 */
public final class ProjectionStateFixture {

    /** Where the fixture lives in the source tree, relative to the savepoints module. */
    static final String FIXTURE = "src/test/resources/state-fixtures/projection-job-v1";

    /** Same resource on the test classpath. */
    static final String RESOURCE = "/state-fixtures/projection-job-v1";

    static final AuthorityKey USD = AuthorityKey.cash("t1", "a1", "USD");
    static final AuthorityKey AAPL = AuthorityKey.security("t1", "a1", "AAPL");
    static final AuthorityKey EUR = AuthorityKey.cash("t1", "a2", "EUR");

    static List<RawChange> history() {
        return List.of(
                StreamRecords.modify(authority(USD, 1, "10", "0"), 1, 1_000),
                StreamRecords.modify(authority(USD, 2, "20", "0"), 2, 1_001),
                StreamRecords.modify(authority(USD, 3, "30", "5"), 3, 1_002),
                StreamRecords.modify(authority(AAPL, 1, "4", "0"), 4, 1_003),
                StreamRecords.modify(authority(AAPL, 3, "6", "0"), 5, 1_004), // parked: 2 missing
                StreamRecords.modify(authority(EUR, 1, "2.5", "0"), 6, 1_005));
    }

    public static void main(String[] args) throws Exception {
        Path target = Path.of(args.length > 0 ? args[0] : FIXTURE).toAbsolutePath();
        Path tmp = Files.createTempDirectory("state-fixture");
        try (LocalDdb local = new LocalDdb(tmp.resolve("exports"))) {
            local.create(Tables.PROJECTION);
            // the projection job writes overdue-gap breaks to the AP15 table
            local.create(Tables.RECONCILIATION);
            // the gates write parked-gap records (CS07) and dead letters to the DeadLetter table
            local.create(Tables.DEAD_LETTER);
            Namespace ns = new Namespace(local.naming, "portfolio", 1);
            NamespaceTables.createPortfolioIfAbsent(local.ddb, ns);
            Configuration conf = ns.applyTo(local.config());
            conf.set(JobOptions.SOURCE_TABLE, ns.ledgerTable());
            StreamExecutionEnvironment env =
                    StreamExecutionEnvironment.createLocalEnvironment(1, conf);
            env.getConfig().disableGenericTypes();
            new ProjectionJob(
                            e ->
                                    e.addSource(
                                                    new EmitThenIdleSource(history()),
                                                    SourceTypes.RAW_CHANGE)
                                            .uid("fixture-source")
                                            .setParallelism(1),
                            new DynamoDbProjectionSinks(conf),
                            conf)
                    .build(env);
            JobClient job = env.executeAsync("state fixture");
            long until = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            // 3 view rows (USD, AAPL, EUR) and 3 checkpoint rows written = the sink buffers are
            // empty
            while (local.scan(ns.portfolioTable()).size() < 3
                    || local.scan(ns.projectionTable()).size() < 3) {
                if (System.nanoTime() > until) {
                    throw new IllegalStateException("projection job did not apply the history");
                }
                Thread.sleep(200);
            }
            Thread.sleep(1_000);
            if (Files.exists(target)) {
                try (Stream<Path> s = Files.walk(target)) {
                    s.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
                }
            }
            Path staging = tmp.resolve("sp");
            String written =
                    job.stopWithSavepoint(
                                    false,
                                    staging.toUri().toString(),
                                    SavepointFormatType.CANONICAL)
                            .get();
            Path from = Path.of(java.net.URI.create(written));
            Files.createDirectories(target);
            try (Stream<Path> s = Files.list(from)) {
                for (Path p : (Iterable<Path>) s::iterator) {
                    Files.copy(p, target.resolve(p.getFileName()));
                }
            }
            System.out.println("fixture written to " + target);
        }
    }
}
