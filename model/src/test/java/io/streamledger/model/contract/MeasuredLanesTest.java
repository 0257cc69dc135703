package io.streamledger.model.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** Measured lanes judged by the seed's lane rule (rate x units x share / shards vs target). */
class MeasuredLanesTest {
    private final Contract contract = ContractResources.contract();

    @Test
    void theSeedsOwnFiguresReproduceItsVerdictAndAMeasuredHotKeyGoesOverTarget() {
        List<MeasuredLanes.Verdict> v =
                MeasuredLanes.assess(
                        contract,
                        MeasuredLanes.parse(
                                "# lane|rate|units|share\n"
                                        + "L09A|5000|2|1\n"
                                        + "L10|1500|6|0.5\n"
                                        + "L01|2000|1|0.001\n"));
        assertThat(v).extracting(x -> x.lane().id()).containsExactly("L01", "L09A", "L10");
        // L09A: the seed's 769.23 on 13 shards
        assertThat(v.get(1).loadPerShard()).isEqualByComparingTo("769.23");
        assertThat(v.get(1).state()).isEqualTo("FEASIBLE");
        // L10 has no shards in the contract: one key takes 1500 x 6 x 0.5 = 4500 > 800
        assertThat(v.get(2).shards()).isEqualByComparingTo(BigDecimal.ONE);
        assertThat(v.get(2).loadPerShard()).isEqualByComparingTo("4500");
        assertThat(v.get(2).state()).isEqualTo("OVER_TARGET");
        assertThat(v.get(0).loadPerShard()).isEqualByComparingTo("2");
        assertThat(v.get(0).feasible()).isTrue();
    }

    @Test
    void badLinesAndUnknownLanesAreRejected() {
        assertThatThrownBy(() -> MeasuredLanes.parse("L10|1|2"))
                .hasMessageContaining("lane|rate|units|share");
        assertThatThrownBy(() -> MeasuredLanes.parse("L10|1|2|1.5")).hasMessageContaining("[0, 1]");
        assertThatThrownBy(() -> MeasuredLanes.assess(contract, MeasuredLanes.parse("L99|1|1|1")))
                .hasMessageContaining("no lane L99");
    }

    @Test
    void theCliPrintsMeasuredBesideTheContract(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("measured.txt");
        Files.writeString(
                file,
                new MeasuredLanes.Measured(
                                        "L12",
                                        new BigDecimal("40"),
                                        new BigDecimal("2"),
                                        new BigDecimal("0.25"))
                                .line()
                        + "\n");
        StringWriter out = new StringWriter();
        CommandLine cmd = CapacityCli.commandLine();
        cmd.setOut(new PrintWriter(out));
        cmd.setErr(new PrintWriter(new StringWriter()));
        assertThat(cmd.execute("lanes", "--measured", file.toString()))
                .isEqualTo(CapacityCli.CONSISTENT);
        assertThat(out.toString())
                .contains("# measured")
                .containsPattern(
                        "L12\\s+AP12\\s+IDX11\\s+WRITE\\s+40\\s+2000\\s+2\\s+2\\s+0.25\\s+NA\\s+1\\s+800\\s+20.00\\s+FEASIBLE\\s+LOAD_TEST_REQUIRED");
    }
}
