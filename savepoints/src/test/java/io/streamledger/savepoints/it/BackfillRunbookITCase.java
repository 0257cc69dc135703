package io.streamledger.savepoints.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.streamledger.jobs.config.JobOptions;
import io.streamledger.model.keys.AuthorityKey;
import io.streamledger.model.projection.ProjectionSchema;
import io.streamledger.model.table.Attr;
import io.streamledger.model.table.Tables;
import io.streamledger.savepoints.bootstrap.Namespace;
import io.streamledger.savepoints.bootstrap.NamespaceTables;
import io.streamledger.savepoints.catchup.ProjectionCatchup;
import io.streamledger.savepoints.cli.StreamledgerCli;
import io.streamledger.savepoints.cutover.AliasCutover;
import io.streamledger.savepoints.export.ExportReader;
import io.streamledger.savepoints.inspect.SavepointInspector;
import io.streamledger.savepoints.proof.NamespaceProof;
import io.streamledger.savepoints.proof.ProofReport;
import io.streamledger.savepoints.testing.AuthorityWorkload;
import io.streamledger.savepoints.testing.LocalDdb;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * The whole CS09 runbook on the local endpoint through the CLI: workload → export → bootstrap →
 * catch-up from TRIM_HORIZON while new authority updates keep arriving → verify → cutover; the new
 * namespace equals an independently computed oracle and the old namespace is unchanged.
 */
class BackfillRunbookITCase {

    @TempDir Path tmp;
    private LocalDdb local;
    private String ledger;

    @BeforeEach
    void start() {
        local = new LocalDdb(tmp.resolve("exports"));
        ledger = local.create(Tables.LEDGER);
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

    private int cli(String... args) {
        List<String> all = new ArrayList<>(List.of(args));
        all.addAll(
                List.of(
                        "--endpoint",
                        local.endpoint.endpoint().toString(),
                        "--access-key",
                        "local",
                        "--secret-key",
                        "local",
                        "--prefix",
                        local.naming.prefix()));
        return StreamledgerCli.run(all.toArray(String[]::new));
    }

    @Test
    void exportBootstrapCatchUpVerifyCutover() throws Exception {
        Namespace v1 = new Namespace(local.naming, "portfolio", 1);
        Namespace v2 = v1.next();
        AuthorityWorkload w = new AuthorityWorkload(7, 40);
        w.write(local.ddb, ledger, 600);

        // the live (old) namespace and its alias, which must stay byte-for-byte unchanged
        NamespaceTables.createPortfolioIfAbsent(local.ddb, v1);
        for (int i = 0; i < 5; i++) {
            String sk = "POS#S" + i;
            local.ddb.putItem(
                    b ->
                            b.tableName(v1.portfolioTable())
                                    .item(
                                            Map.of(
                                                    "PK", AttributeValue.fromS("TEN#t1#ACCT#old"),
                                                    "SK", AttributeValue.fromS(sk),
                                                    "posted", AttributeValue.fromN("1.5"))));
        }
        local.ddb.putItem(
                b ->
                        b.tableName(v1.projectionTable())
                                .item(
                                        Map.of(
                                                "PK",
                                                AttributeValue.fromS("ALIAS#portfolio"),
                                                "SK",
                                                AttributeValue.fromS("ALIAS"),
                                                Attr.ACTIVE_VERSION,
                                                AttributeValue.fromN("1"))));
        List<Map<String, AttributeValue>> oldBefore = sorted(local.scan(v1.portfolioTable()));

        assertThat(cli("backfill", "plan")).isEqualTo(0);
        // ExportTableToPointInTime through the CLI; the local endpoint writes the S3 layout here
        assertThat(cli("backfill", "export", "--bucket", "backups", "--s3-prefix", "ledger"))
                .isEqualTo(0);
        Path export;
        try (var dirs = Files.list(tmp.resolve("exports/backups/ledger/AWSDynamoDB"))) {
            export = dirs.findFirst().orElseThrow();
        }
        Path sp = tmp.resolve("savepoint");
        assertThat(
                        cli(
                                "backfill",
                                "bootstrap",
                                "--export",
                                export.toString(),
                                "--version",
                                "2",
                                "--savepoint",
                                sp.toString()))
                .isEqualTo(0);
        SavepointInspector.Summary s = SavepointInspector.inspect(sp.toUri().toString());
        assertThat(s.gateKeys()).isEqualTo(w.oracle().size());
        assertThat(s.parkedEvents()).isZero();
        assertThat(StreamledgerCli.run("savepoint", "inspect", sp.toUri().toString())).isEqualTo(0);

        // catch-up from TRIM_HORIZON while the ledger keeps changing
        Configuration base = local.config();
        base.set(JobOptions.STREAM_ARN, streamArn());
        base.set(JobOptions.SHARD_DISCOVERY_INTERVAL, Duration.ofMillis(500));
        Configuration conf =
                ProjectionCatchup.jobConfig(
                        base,
                        v2,
                        sp.toUri().toString(),
                        null,
                        ExportReader.open(export).exportTime());
        StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(2, conf);
        JobClient job = ProjectionCatchup.start(env, conf);
        try {
            w.addLateKey(AuthorityKey.cash("t1", "late", "GBP"));
            for (int round = 0; round < 4; round++) {
                w.write(local.ddb, ledger, 100);
                Thread.sleep(300);
            }
            ProofReport proof = awaitProof(v2, Duration.ofSeconds(60));
            assertThat(proof.failures()).isEmpty();
        } finally {
            job.cancel().get();
        }

        // retire is refused while v1 is still the live namespace
        assertThat(cli("backfill", "retire", "--version", "1", "--confirm")).isEqualTo(3);
        Path proofDir = tmp.resolve("proof");
        assertThat(cli("backfill", "verify", "--version", "2", "--out", proofDir.toString()))
                .isEqualTo(0);
        String digest = Files.readString(proofDir.resolve("proof.sha256")).split(" ")[0];
        assertThat(
                        cli(
                                "backfill",
                                "cutover",
                                "--proof",
                                proofDir.resolve("proof.json").toString(),
                                "--digest",
                                digest,
                                "--expected-version",
                                "1"))
                .isEqualTo(0);
        assertThat(new AliasCutover(local.ddb, v1.projectionTable()).activeVersion("portfolio"))
                .hasValue(2);

        // the new namespace equals the oracle computed from the workload itself
        Map<String, Map<String, AttributeValue>> rows = new HashMap<>();
        for (Map<String, AttributeValue> r : local.scan(v2.portfolioTable())) {
            rows.put(r.get(ProjectionSchema.SOURCE_KEY).s(), r);
        }
        assertThat(rows.keySet()).isEqualTo(w.oracle().keySet());
        w.oracle()
                .forEach(
                        (key, st) -> {
                            Map<String, AttributeValue> r = rows.get(key);
                            assertThat(Long.parseLong(r.get(Attr.SOURCE_VERSION).n()))
                                    .as(key)
                                    .isEqualTo(st.version());
                            assertThat(new BigDecimal(r.get("posted").n()))
                                    .as(key)
                                    .isEqualByComparingTo(st.posted());
                            assertThat(new BigDecimal(r.get("available").n()))
                                    .as(key)
                                    .isEqualByComparingTo(st.available());
                        });
        assertThat(sorted(local.scan(v1.portfolioTable()))).isEqualTo(oldBefore);
    }

    private ProofReport awaitProof(Namespace ns, Duration timeout) throws InterruptedException {
        long until = System.nanoTime() + timeout.toNanos();
        ProofReport last;
        do {
            last = new NamespaceProof(local.ddb, ns).run();
            if (last.passed()) {
                return last;
            }
            Thread.sleep(500);
        } while (System.nanoTime() < until);
        return last;
    }

    private String streamArn() {
        return local.ddb.describeTable(b -> b.tableName(ledger)).table().latestStreamArn();
    }

    private static List<Map<String, AttributeValue>> sorted(
            List<Map<String, AttributeValue>> rows) {
        List<Map<String, AttributeValue>> out = new ArrayList<>(rows);
        out.sort(Comparator.comparing(r -> r.get("PK").s() + "/" + r.get("SK").s()));
        return out;
    }
}
