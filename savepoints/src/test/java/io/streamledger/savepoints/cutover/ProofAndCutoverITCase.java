package io.streamledger.savepoints.cutover;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.streamledger.model.keys.AuthorityKey;
import io.streamledger.model.keys.PositionKey;
import io.streamledger.model.projection.ViewScope;
import io.streamledger.model.table.Attr;
import io.streamledger.model.table.Tables;
import io.streamledger.savepoints.bootstrap.Namespace;
import io.streamledger.savepoints.bootstrap.NamespaceTables;
import io.streamledger.savepoints.bootstrap.ProjectionBootstrap;
import io.streamledger.savepoints.export.ExportManifest;
import io.streamledger.savepoints.export.ExportReader;
import io.streamledger.savepoints.proof.NamespaceProof;
import io.streamledger.savepoints.proof.ProofReport;
import io.streamledger.savepoints.testing.Ledger;
import io.streamledger.savepoints.testing.LocalDdb;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * CS09 steps 2–7 on the local endpoint: real ExportTableToPointInTime → bootstrap → proof → alias
 * cutover; a corrupted export row fails the proof and the cutover is refused with a clear message;
 * the old namespace is untouched until retire.
 */
class ProofAndCutoverITCase {

    @TempDir Path tmp;
    private LocalDdb local;
    private String ledger;
    private Namespace v1;
    private Namespace v2;
    private AliasCutover alias;

    @BeforeEach
    void start() {
        local = new LocalDdb(tmp.resolve("exports"));
        ledger = local.create(Tables.LEDGER);
        local.create(Tables.PROJECTION);
        // the projection job writes overdue-gap breaks to the AP15 table
        local.create(Tables.RECONCILIATION);
        // the gates write parked-gap records (CS07) and dead letters to the DeadLetter table
        local.create(Tables.DEAD_LETTER);
        v1 = new Namespace(local.naming, "portfolio", 1);
        v2 = v1.next();
        alias = new AliasCutover(local.ddb, v1.projectionTable());
        for (int a = 0; a < 20; a++) {
            Ledger.put(
                    local.ddb,
                    ledger,
                    AuthorityKey.cash("t1", "a" + a, "USD"),
                    3 + a,
                    a + "00.10",
                    "1.05");
            Ledger.put(local.ddb, ledger, AuthorityKey.cash("t1", "a" + a, "JPY"), 1, "1500", "0");
            Ledger.put(
                    local.ddb, ledger, AuthorityKey.security("t1", "a" + a, "AAPL"), 2, "7", "2");
        }
        // a live v1 namespace with one row and the alias on it
        NamespaceTables.createPortfolioIfAbsent(local.ddb, v1);
        local.ddb.putItem(
                b ->
                        b.tableName(v1.portfolioTable())
                                .item(
                                        Map.of(
                                                "PK", AttributeValue.fromS("TEN#t1#ACCT#a0"),
                                                "SK", AttributeValue.fromS("POS#AAPL"),
                                                "posted", AttributeValue.fromN("6"))));
        local.ddb.putItem(
                b ->
                        b.tableName(v1.projectionTable())
                                .item(
                                        Map.of(
                                                "PK", AttributeValue.fromS("ALIAS#portfolio"),
                                                "SK", AttributeValue.fromS("ALIAS"),
                                                "activeVersion", AttributeValue.fromN("1"))));
    }

    @AfterEach
    void stop() {
        local.close();
    }

    private ProofReport rebuild(Path exportDir) throws Exception {
        return rebuild(exportDir, v2);
    }

    private ProofReport rebuild(Path exportDir, Namespace v2) throws Exception {
        ExportManifest m = ExportReader.open(exportDir);
        NamespaceTables.createPortfolioIfAbsent(local.ddb, v2);
        NamespaceTables.requireEmpty(local.ddb, v2);
        new ProjectionBootstrap(m, v2, local.clientConfig(), 128)
                .run(
                        StreamExecutionEnvironment.createLocalEnvironment(2),
                        tmp.resolve("sp").toUri().toString());
        ProofReport report = new NamespaceProof(local.ddb, v2).run();
        report.write(tmp.resolve("proof"));
        alias.recordProof(report);
        return report;
    }

    @Test
    void provenNamespaceIsCutOverAndTheOldOneIsUntouchedUntilRetire() throws Exception {
        List<Map<String, AttributeValue>> oldBefore = local.scan(v1.portfolioTable());
        ProofReport report = rebuild(Ledger.export(local.ddb, ledger, tmp.resolve("exports")));

        assertThat(report.failures()).isEmpty();
        assertThat(report.passed()).isTrue();
        assertThat(report.json().path("counts").path("authorities").asLong()).isEqualTo(60);
        assertThat(
                        report.json()
                                .path("controlTotals")
                                .path("CASH:USD")
                                .path("ledger")
                                .path("posted")
                                .asText())
                .isEqualTo("19002"); // sum of a00.10 for a = 0..19 = 19000 + 2.00
        assertThat(ProofReport.read(tmp.resolve("proof/proof.json")).digest())
                .isEqualTo(report.digest());
        assertThat(Files.readString(tmp.resolve("proof/proof.sha256"))).startsWith(report.digest());

        // wrong expected version: refused, alias stays
        assertThatThrownBy(() -> alias.cutover(report, 3, report.digest()))
                .isInstanceOf(CutoverRefusedException.class)
                .hasMessage("cutover refused: the alias is at v1, expected v3");
        // a digest nobody approved: refused
        assertThatThrownBy(() -> alias.cutover(report, 1, "00" + report.digest().substring(2)))
                .isInstanceOf(CutoverRefusedException.class)
                .hasMessageContaining("the report changed after it was reviewed");
        assertThat(alias.activeVersion("portfolio")).hasValue(1);

        alias.cutover(report, 1, report.digest());
        assertThat(alias.activeVersion("portfolio")).hasValue(2);
        assertThat(local.scan(v1.portfolioTable())).isEqualTo(oldBefore);

        // retire is separate and never touches the active namespace
        assertThatThrownBy(() -> alias.retire(v2))
                .isInstanceOf(CutoverRefusedException.class)
                .hasMessageContaining("v2 is the active namespace");
        alias.retire(v1);
        assertThat(NamespaceTables.exists(local.ddb, v1.portfolioTable())).isFalse();
        assertThat(NamespaceTables.exists(local.ddb, v2.portfolioTable())).isTrue();
    }

    @Test
    void aClientsOnlyNamespaceIsProvenWithinItsScopeAndTheAliasSaysSo() throws Exception {
        Ledger.put(
                local.ddb,
                ledger,
                AuthorityKey.cash("t1", "HOUSE-CLEARING-3", "USD"),
                9,
                "-1900.10",
                "0");
        Ledger.put(
                local.ddb,
                ledger,
                AuthorityKey.security("t1", "HOUSE-CLEARING-3", "AAPL"),
                4,
                "-140",
                "0");
        Namespace clients = new Namespace(local.naming, "portfolio", 2, ViewScope.CLIENTS);
        ProofReport report =
                rebuild(Ledger.export(local.ddb, ledger, tmp.resolve("exports")), clients);

        assertThat(report.failures()).isEmpty();
        assertThat(report.viewScope()).isEqualTo(ViewScope.CLIENTS);
        assertThat(report.json().path("namespace").path("viewScope").asText()).isEqualTo("clients");
        assertThat(report.json().path("counts").path("authorities").asLong()).isEqualTo(60);
        assertThat(report.json().path("counts").path("authoritiesOutsideViewScope").asLong())
                .isEqualTo(2);
        assertThat(local.scan(clients.portfolioTable()))
                .hasSize(60)
                .noneSatisfy(r -> assertThat(r.get("accountId").s()).startsWith("HOUSE-"));
        alias.cutover(report, 1, report.digest());
        var aliasItem =
                local.ddb
                        .getItem(
                                b ->
                                        b.tableName(v1.projectionTable())
                                                .key(AliasItems.aliasKey("portfolio")))
                        .item();
        assertThat(aliasItem.get(Attr.VIEW_SCOPE).s()).isEqualTo("clients");

        // a house row in a clients-only namespace is a row without an authority in its scope
        PositionKey house = new PositionKey("t1", "HOUSE-CLEARING-3", "AAPL");
        local.ddb.putItem(
                b ->
                        b.tableName(clients.portfolioTable())
                                .item(
                                        Map.of(
                                                "PK", AttributeValue.fromS(house.pk()),
                                                "SK", AttributeValue.fromS(house.sk()),
                                                "sourceKey",
                                                        AttributeValue.fromS(
                                                                "t1/HOUSE-CLEARING-3/SEC/AAPL"))));
        ProofReport again = new NamespaceProof(local.ddb, clients).run();
        assertThat(again.passed()).isFalse();
        assertThat(again.failures())
                .anySatisfy(f -> assertThat(f).startsWith("1 rows without an authority"));
    }

    @Test
    void corruptedExportRowFailsTheProofAndRefusesTheCutover() throws Exception {
        Path dir = Ledger.export(local.ddb, ledger, tmp.resolve("exports"));
        corruptOneUsdAmount(dir);
        ProofReport report = rebuild(dir);

        assertThat(report.passed()).isFalse();
        assertThat(report.failures())
                .anySatisfy(f -> assertThat(f).startsWith("control total differs for CASH:USD"))
                .anySatisfy(f -> assertThat(f).startsWith("1 rows differing from the authority"));
        assertThat(Files.readString(tmp.resolve("proof/proof.txt"))).contains("RESULT: FAILED");

        assertThatThrownBy(() -> alias.cutover(report, 1, report.digest()))
                .isInstanceOf(CutoverRefusedException.class)
                .hasMessageStartingWith("cutover refused: the proof of portfolio v2 FAILED: ")
                .hasMessageContaining("control total differs for CASH:USD");
        assertThat(alias.activeVersion("portfolio")).hasValue(1);
    }

    @Test
    void passedReportWithoutARecordedProofIsRefused() throws Exception {
        ProofReport report = rebuild(Ledger.export(local.ddb, ledger, tmp.resolve("exports")));
        local.ddb.deleteItem(
                b -> b.tableName(v1.projectionTable()).key(AliasItems.proofKey("portfolio", 2)));
        assertThatThrownBy(() -> alias.cutover(report, 1, report.digest()))
                .isInstanceOf(CutoverRefusedException.class)
                .hasMessageContaining("no passed proof with digest " + report.digest());
        assertThat(alias.activeVersion("portfolio")).hasValue(1);
    }

    /** Rewrites the first USD authority line with another posted amount; drops the file MD5. */
    private static void corruptOneUsdAmount(Path dir) throws Exception {
        Path mf = dir.resolve("manifest-files.json");
        List<String> manifest = Files.readAllLines(mf);
        Path data =
                dir.resolve("data")
                        .resolve(
                                Files.list(dir.resolve("data"))
                                        .findFirst()
                                        .orElseThrow()
                                        .getFileName());
        List<String> lines = new ArrayList<>();
        try (BufferedReader r =
                new BufferedReader(
                        new InputStreamReader(
                                new GZIPInputStream(Files.newInputStream(data)),
                                StandardCharsets.UTF_8))) {
            String line;
            boolean done = false;
            while ((line = r.readLine()) != null) {
                if (!done && line.contains("AUTH#CASH#USD")) {
                    line =
                            line.replaceFirst(
                                    "\"posted\":\\{\"N\":\"[^\"]*\"\\}",
                                    "\"posted\":{\"N\":\"999999.99\"}");
                    done = true;
                }
                lines.add(line);
            }
        }
        try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(data))) {
            for (String l : lines) {
                out.write((l + "\n").getBytes(StandardCharsets.UTF_8));
            }
        }
        List<String> fixed = new ArrayList<>();
        for (String l : manifest) {
            fixed.add(l.replaceAll("\"md5Checksum\":\"[^\"]*\",", ""));
        }
        Files.write(mf, fixed);
    }
}
