package io.streamledger.savepoints.cli;

import io.streamledger.model.table.Tables;
import io.streamledger.savepoints.bootstrap.Namespace;
import io.streamledger.savepoints.bootstrap.NamespaceTables;
import io.streamledger.savepoints.bootstrap.ProjectionBootstrap;
import io.streamledger.savepoints.catchup.ProjectionCatchup;
import io.streamledger.savepoints.cutover.AliasCutover;
import io.streamledger.savepoints.cutover.CutoverRefusedException;
import io.streamledger.savepoints.export.ExportManifest;
import io.streamledger.savepoints.export.ExportReader;
import io.streamledger.savepoints.proof.NamespaceProof;
import io.streamledger.savepoints.proof.ProofReport;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Instant;
import java.util.OptionalInt;
import java.util.concurrent.Callable;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.ExportDescription;
import software.amazon.awssdk.services.dynamodb.model.ExportStatus;

/** {@code backfill plan|export|bootstrap|catchup|verify|cutover|retire} (CS09 runbook steps). */
@Command(
        name = "backfill",
        mixinStandardHelpOptions = true,
        subcommands = {
            BackfillCommand.Plan.class,
            BackfillCommand.Export.class,
            BackfillCommand.Bootstrap.class,
            BackfillCommand.Catchup.class,
            BackfillCommand.Verify.class,
            BackfillCommand.Cutover.class,
            BackfillCommand.Retire.class
        },
        description = "Rebuild a projection namespace from an export and cut over after proof.")
final class BackfillCommand {

    /** Exit code of a refused or failed step (distinct from picocli's usage error 2). */
    static final int REFUSED = StreamledgerCli.REFUSED;

    static final PrintStream OUT = System.out;

    @Command(
            name = "plan",
            mixinStandardHelpOptions = true,
            description = "Show the runbook for the next namespace.")
    static final class Plan implements Callable<Integer> {
        @Mixin StreamledgerCli.Connection conn;

        @Override
        public Integer call() {
            try (DynamoDbClient ddb = conn.client().buildSyncClient()) {
                Namespace any = conn.namespace(1);
                OptionalInt active =
                        new AliasCutover(ddb, any.projectionTable()).activeVersion(conn.projection);
                int highest = highestNamespace(ddb, any);
                int current = liveVersion(active, highest);
                Namespace next = conn.namespace(nextFreeVersion(active, highest));
                OUT.println(
                        "alias ALIAS#"
                                + conn.projection
                                + ": "
                                + (active.isPresent()
                                        ? "v" + current
                                        : "absent (live: "
                                                + (current == 0 ? "none" : "v" + current)
                                                + ")"));
                OUT.println(
                        "next free version: v"
                                + next.version()
                                + (highest > 0 ? " (highest existing: v" + highest + ")" : ""));
                OUT.println("source: " + any.ledgerTable() + " (AP12 authority items)");
                OUT.println("target: " + next);
                OUT.println("steps:");
                OUT.println(
                        "  1. backfill export    --table "
                                + any.ledgerTable()
                                + " --bucket B --s3-prefix P  (then copy the export folder locally)");
                OUT.println(
                        "  2. backfill bootstrap --export DIR --version "
                                + next.version()
                                + " --savepoint SP");
                OUT.println(
                        "  3. backfill catchup   --version "
                                + next.version()
                                + " --savepoint SP --stream-arn ARN --export DIR");
                OUT.println(
                        "  4. backfill verify    --version "
                                + next.version()
                                + " --out PROOF_DIR   (after the stream lag is 0)");
                OUT.println(
                        "  5. backfill cutover   --proof PROOF_DIR/proof.json --digest $(cut -d' ' -f1 PROOF_DIR/proof.sha256) --expected-version "
                                + active.orElse(0));
                OUT.println(
                        "  6. backfill retire    --version "
                                + current
                                + " --confirm   (separately, once v"
                                + next.version()
                                + " is trusted)");
                return 0;
            }
        }
    }

    /** The live version: the alias's, or without one v1 when its table exists (the default). */
    static int liveVersion(OptionalInt active, int highestNamespace) {
        return active.orElse(Math.min(highestNamespace, 1));
    }

    /** The version a rebuild goes to: above both the live one and every existing table. */
    static int nextFreeVersion(OptionalInt active, int highestNamespace) {
        return Math.max(liveVersion(active, highestNamespace), highestNamespace) + 1;
    }

    /** Highest {@code Portfolio_vN} table behind the prefix (0 if none); at most 100 pages. */
    static int highestNamespace(DynamoDbClient ddb, Namespace any) {
        String base = any.naming().physicalName(Tables.PORTFOLIO, 1);
        String stem = base.substring(0, base.length() - 1);
        int highest = 0;
        String start = null;
        for (int page = 0; page < 100; page++) {
            String from = start;
            var r = ddb.listTables(b -> b.exclusiveStartTableName(from).limit(100));
            for (String t : r.tableNames()) {
                if (t.startsWith(stem) && t.substring(stem.length()).matches("[1-9][0-9]{0,8}")) {
                    highest = Math.max(highest, Integer.parseInt(t.substring(stem.length())));
                }
            }
            start = r.lastEvaluatedTableName();
            if (start == null) {
                break;
            }
        }
        return highest;
    }

    @Command(
            name = "export",
            mixinStandardHelpOptions = true,
            description = "ExportTableToPointInTime and wait for it.")
    static final class Export implements Callable<Integer> {
        @Mixin StreamledgerCli.Connection conn;

        @Option(names = "--table", description = "physical table (default: the prefixed Ledger)")
        String table;

        @Option(
                names = "--table-arn",
                description = "default: derived from --table for the local endpoint")
        String tableArn;

        @Option(names = "--bucket", required = true)
        String bucket;

        @Option(names = "--s3-prefix")
        String s3Prefix;

        @Override
        public Integer call() throws Exception {
            String t =
                    table != null ? table : conn.namespace(1).naming().physicalName(Tables.LEDGER);
            String arn =
                    tableArn != null
                            ? tableArn
                            : "arn:aws:dynamodb:" + conn.region + ":000000000000:table/" + t;
            try (DynamoDbClient ddb = conn.client().buildSyncClient()) {
                ExportDescription d =
                        ddb.exportTableToPointInTime(
                                        b -> b.tableArn(arn).s3Bucket(bucket).s3Prefix(s3Prefix))
                                .exportDescription();
                long started = System.nanoTime();
                while (d.exportStatus() == ExportStatus.IN_PROGRESS) {
                    OUT.printf(
                            "export %s in progress (%.0f s)%n",
                            d.exportArn(), (System.nanoTime() - started) / 1e9);
                    Thread.sleep(2_000);
                    String exportArn = d.exportArn();
                    d = ddb.describeExport(b -> b.exportArn(exportArn)).exportDescription();
                }
                OUT.println("export " + d.exportStatus() + ": " + d.exportArn());
                OUT.println(
                        "  items="
                                + d.itemCount()
                                + " manifest=s3://"
                                + bucket
                                + "/"
                                + d.exportManifest());
                if (d.exportStatus() != ExportStatus.COMPLETED) {
                    OUT.println("  failure: " + d.failureCode() + " " + d.failureMessage());
                    return REFUSED;
                }
                return 0;
            }
        }
    }

    @Command(
            name = "bootstrap",
            mixinStandardHelpOptions = true,
            description = "Check the export, write the savepoint and the new namespace.")
    static final class Bootstrap implements Callable<Integer> {
        @Mixin StreamledgerCli.Connection conn;

        @Option(
                names = "--export",
                required = true,
                description = "export directory (.../AWSDynamoDB/<id>)")
        Path export;

        @Option(names = "--version", required = true, description = "new namespace version N+1")
        int version;

        @Option(
                names = "--savepoint",
                required = true,
                description = "savepoint target directory/URI")
        String savepoint;

        @Option(names = "--max-parallelism", defaultValue = "128")
        int maxParallelism;

        @Option(names = "--parallelism", defaultValue = "2")
        int parallelism;

        @Override
        public Integer call() throws Exception {
            ExportManifest m = ExportReader.open(export);
            Progress check = new Progress(OUT, "export check", m.itemCount());
            ExportReader.verifyAll(m, item -> check.add(1));
            check.done();
            Namespace ns = conn.namespace(version);
            DynamoDbClient ddb = conn.client().buildSyncClient();
            try (ddb) {
                OptionalInt active =
                        new AliasCutover(ddb, ns.projectionTable()).activeVersion(conn.projection);
                if (active.isPresent() && active.getAsInt() >= version) {
                    OUT.println(
                            "refused: the alias is at v"
                                    + active.getAsInt()
                                    + "; bootstrap a version above it");
                    return REFUSED;
                }
                NamespaceTables.createPortfolioIfAbsent(ddb, ns);
                NamespaceTables.requireEmpty(ddb, ns);
            }
            String sp =
                    savepoint.contains("://")
                            ? savepoint
                            : Path.of(savepoint).toAbsolutePath().toUri().toString();
            OUT.println(
                    "bootstrapping " + m.itemCount() + " exported items into " + ns + " and " + sp);
            Progress written = new Progress(OUT, "bootstrap (export items read)", m.itemCount());
            ProjectionBootstrap.Result r =
                    new ProjectionBootstrap(m, ns, conn.client(), maxParallelism)
                            .run(
                                    StreamExecutionEnvironment.createLocalEnvironment(parallelism),
                                    sp,
                                    written::set);
            written.done();
            OUT.printf(
                    "bootstrap done: %d authorities of %d items in %.1f s (%.0f authorities/s); savepoint %s%n",
                    r.authorities(),
                    r.exportItems(),
                    r.millis() / 1000.0,
                    r.authoritiesPerSecond(),
                    r.savepointPath());
            return 0;
        }
    }

    @Command(
            name = "catchup",
            mixinStandardHelpOptions = true,
            description = "Run the projection job from the bootstrapped savepoint.")
    static final class Catchup implements Callable<Integer> {
        @Mixin StreamledgerCli.Connection conn;

        @Option(names = "--version", required = true)
        int version;

        @Option(names = "--savepoint", required = true)
        String savepoint;

        @Option(names = "--stream-arn", required = true)
        String streamArn;

        @Option(
                names = "--export",
                description = "export directory; its exportTime bounds --start-at")
        Path export;

        @Option(
                names = "--start-at",
                description = "ISO instant at or before the export time; default TRIM_HORIZON")
        Instant startAt;

        @Option(names = "--job-jar", defaultValue = "streamledger-jobs.jar")
        String jobJar;

        @Option(names = "--run-local", description = "run in this process until interrupted")
        boolean runLocal;

        @Override
        public Integer call() throws Exception {
            Instant exportTime = export == null ? null : ExportReader.open(export).exportTime();
            Configuration base = conn.config();
            base.set(io.streamledger.jobs.config.JobOptions.STREAM_ARN, streamArn);
            Configuration c =
                    ProjectionCatchup.jobConfig(
                            base, conn.namespace(version), savepoint, startAt, exportTime);
            OUT.println("catch-up for " + conn.namespace(version) + ":");
            OUT.println(ProjectionCatchup.flinkRunCommand(c, jobJar));
            if (!runLocal) {
                return 0;
            }
            JobClient job =
                    ProjectionCatchup.start(
                            StreamExecutionEnvironment.createLocalEnvironment(2, c), c);
            OUT.println("running " + job.getJobID() + "; stop with Ctrl-C once verify passes");
            job.getJobExecutionResult().get();
            return 0;
        }
    }

    @Command(
            name = "verify",
            mixinStandardHelpOptions = true,
            description = "Prove the namespace against the ledger authority.")
    static final class Verify implements Callable<Integer> {
        @Mixin StreamledgerCli.Connection conn;

        @Option(names = "--version", required = true)
        int version;

        @Option(
                names = "--out",
                required = true,
                description = "directory for proof.json/.txt/.sha256")
        Path out;

        @Override
        public Integer call() throws Exception {
            Namespace ns = conn.namespace(version);
            try (DynamoDbClient ddb = conn.client().buildSyncClient()) {
                long start = System.nanoTime();
                ProofReport report = new NamespaceProof(ddb, ns).run();
                report.write(out);
                new AliasCutover(ddb, ns.projectionTable()).recordProof(report);
                OUT.print(report.summary());
                OUT.printf(
                        "proof took %.1f s; written to %s%n",
                        (System.nanoTime() - start) / 1e9, out.toAbsolutePath());
                return report.passed() ? 0 : REFUSED;
            }
        }
    }

    @Command(
            name = "cutover",
            mixinStandardHelpOptions = true,
            description = "Flip the alias to a proven namespace.")
    static final class Cutover implements Callable<Integer> {
        @Mixin StreamledgerCli.Connection conn;

        @Option(names = "--proof", required = true, description = "proof.json written by verify")
        Path proof;

        @Option(
                names = "--digest",
                required = true,
                description = "SHA-256 of proof.json you approved")
        String digest;

        @Option(
                names = "--expected-version",
                required = true,
                description = "alias version now (0 = none)")
        int expected;

        @Override
        public Integer call() throws Exception {
            ProofReport report = ProofReport.read(proof);
            try (DynamoDbClient ddb = conn.client().buildSyncClient()) {
                new AliasCutover(ddb, conn.namespace(1).projectionTable())
                        .cutover(report, expected, digest);
                OUT.println(
                        "alias ALIAS#"
                                + report.projection()
                                + " -> v"
                                + report.namespaceVersion()
                                + " (was v"
                                + expected
                                + "); old namespace untouched until 'backfill retire'");
                return 0;
            } catch (CutoverRefusedException e) {
                OUT.println(e.getMessage());
                return REFUSED;
            }
        }
    }

    @Command(
            name = "retire",
            mixinStandardHelpOptions = true,
            description = "Delete an old, inactive namespace.")
    static final class Retire implements Callable<Integer> {
        @Mixin StreamledgerCli.Connection conn;

        @Option(names = "--version", required = true)
        int version;

        @Option(names = "--confirm", description = "required: retiring deletes the table")
        boolean confirm;

        @Override
        public Integer call() {
            Namespace ns = conn.namespace(version);
            if (!confirm) {
                OUT.println("refused: retiring " + ns + " deletes it; add --confirm");
                return REFUSED;
            }
            try (DynamoDbClient ddb = conn.client().buildSyncClient()) {
                long n = new AliasCutover(ddb, ns.projectionTable()).retire(ns);
                OUT.println("retired " + ns + ": table deleted, " + n + " checkpoint rows deleted");
                return 0;
            } catch (CutoverRefusedException e) {
                OUT.println(e.getMessage());
                return REFUSED;
            }
        }
    }
}
