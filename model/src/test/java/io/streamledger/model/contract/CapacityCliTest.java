package io.streamledger.model.contract;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code capacity verify|lanes} run in-process: output lines and exit codes. */
class CapacityCliTest {
    @TempDir Path dir;

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private int run(String... args) {
        CommandLine cmd = CapacityCli.commandLine();
        cmd.setOut(new PrintWriter(out, true));
        cmd.setErr(new PrintWriter(err, true));
        return cmd.execute(args);
    }

    @Test
    void verifyPrintsRecomputedFiguresAndExitsZero() {
        assertThat(run("verify")).isEqualTo(CapacityCli.CONSISTENT);
        assertThat(out.toString().lines())
                .contains(
                        "accepted_order_v1_total_units 15 15 OK",
                        "ap16_per_shard_wru_s 787.69 787.69 OK",
                        "ap09_receipt_shards 13 13 OK",
                        "ledger_bucket_max_mib 146.48 146.48 OK",
                        "eventual_read_units 1.5 1.5 OK",
                        "CONSISTENT: 0 violations");
        assertThat(out.toString()).doesNotContain("MISMATCH", "VIOLATION");
    }

    @Test
    void verifyFailsOnAMutatedContractFile() throws IOException {
        Path contract = dir.resolve("model.txt");
        Files.writeString(
                contract,
                ContractResources.modelText()
                        .replace(
                                "|1|13|800|787.69|FEASIBLE_PLANNING|",
                                "|1|13|800|787.70|FEASIBLE_PLANNING|"));
        assertThat(run("verify", "--contract", contract.toString()))
                .isEqualTo(CapacityCli.INCONSISTENT);
        assertThat(out.toString())
                .contains("VIOLATION LANE_LOAD L16B: load/shard 787.7, recomputed 787.69")
                .contains("INCONSISTENT: 1 violations");
    }

    @Test
    void verifyFailsOnAMutatedRenderFile() throws IOException {
        Path render = dir.resolve("render.md");
        Files.writeString(
                render,
                ContractResources.renderText()
                        .replace(
                                "| accepted_order_v1_total_units | 15 |",
                                "| accepted_order_v1_total_units | 14 |"));
        assertThat(run("verify", "--render", render.toString()))
                .isEqualTo(CapacityCli.INCONSISTENT);
        assertThat(out.toString()).contains("accepted_order_v1_total_units 15 14 MISMATCH");
    }

    @Test
    void malformedFileIsReportedWithLineAndField() throws IOException {
        Path contract = dir.resolve("bad.txt");
        Files.writeString(contract, "MAP|AP01|IDX01\nLANE|L01|AP01|IDX01|2000 read/s|READ|lots\n");
        assertThat(run("verify", "--contract", contract.toString()))
                .isEqualTo(CapacityCli.INCONSISTENT);
        assertThat(err.toString()).contains("bad.txt: line 2, field");
    }

    @Test
    void missingFileFails() {
        assertThat(run("lanes", "--contract", dir.resolve("absent.txt").toString()))
                .isEqualTo(CapacityCli.INCONSISTENT);
        assertThat(err.toString()).contains("cannot read");
    }

    @Test
    void lanesPrintsRecomputedLoadAndState() {
        assertThat(run("lanes")).isEqualTo(CapacityCli.CONSISTENT);
        String l16b =
                out.toString().lines().filter(l -> l.startsWith("L16B ")).findFirst().orElseThrow();
        assertThat(l16b.split("\\s+"))
                .containsSubsequence(
                        "IDX17", "WRITE", "10240", "13", "787.69", "FEASIBLE_PLANNING");
        assertThat(out.toString()).contains("PROTECTED_STATE_AP_REQUIRED").contains("UNPROVEN");
    }

    @Test
    void lanesFailsOnAWrongState() throws IOException {
        Path contract = dir.resolve("model.txt");
        Files.writeString(
                contract,
                ContractResources.modelText()
                        .replace(
                                "|2000 read/s|READ|2000|1|NA|NA|2400|NA|LOAD_TEST_REQUIRED|",
                                "|2000 read/s|READ|2000|1|NA|NA|2400|NA|FEASIBLE_PLANNING|"));
        assertThat(run("lanes", "--contract", contract.toString()))
                .isEqualTo(CapacityCli.INCONSISTENT);
        assertThat(out.toString()).contains("VIOLATION LANE_STATE L01");
    }

    @Test
    void noSubcommandIsAUsageError() {
        assertThat(run()).isEqualTo(CommandLine.ExitCode.USAGE);
    }
}
