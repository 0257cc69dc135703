package io.streamledger.savepoints.proof;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** CS09 step 6: the report's digest covers exactly the bytes written, and any change moves it. */
class ProofReportTest {

    @TempDir Path tmp;

    private static ObjectNode report(boolean passed, String total) {
        ObjectNode r = JsonNodeFactory.instance.objectNode();
        ObjectNode ns = r.putObject("namespace");
        ns.put("projection", "portfolio");
        ns.put("version", 2);
        r.putObject("controlTotals").putObject("CASH:USD").put("posted", total);
        r.put("passed", passed);
        r.putArray("failures");
        return r;
    }

    @Test
    void digestIsSha256OfTheWrittenFileAndSurvivesARoundTrip() throws Exception {
        ProofReport p = ProofReport.of(report(true, "10.10"));
        p.write(tmp);
        byte[] written = Files.readAllBytes(tmp.resolve(ProofReport.JSON_FILE));
        assertThat(ProofReport.sha256(written)).isEqualTo(p.digest()).hasSize(64);
        assertThat(ProofReport.read(tmp.resolve(ProofReport.JSON_FILE)).digest())
                .isEqualTo(p.digest());
        assertThat(Files.readString(tmp.resolve(ProofReport.DIGEST_FILE)))
                .startsWith(p.digest() + "  proof.json");
        assertThat(Files.readString(tmp.resolve(ProofReport.SUMMARY_FILE)))
                .contains("RESULT: PASSED");
    }

    @Test
    void anyChangeToTheReportChangesTheDigest() {
        assertThat(ProofReport.of(report(true, "10.10")).digest())
                .isNotEqualTo(ProofReport.of(report(true, "10.11")).digest())
                .isNotEqualTo(ProofReport.of(report(false, "10.10")).digest());
    }

    @Test
    void controlTotalsCompareExactDecimalsNotSpellings() {
        ControlTotal a = new ControlTotal();
        a.add(
                new java.math.BigDecimal("10.10"),
                java.math.BigDecimal.ZERO,
                new java.math.BigDecimal("10.10"));
        ControlTotal b = new ControlTotal();
        b.add(
                new java.math.BigDecimal("10.1"),
                java.math.BigDecimal.ZERO,
                new java.math.BigDecimal("10.1"));
        ControlTotal c = new ControlTotal();
        c.add(
                new java.math.BigDecimal("10.11"),
                java.math.BigDecimal.ZERO,
                new java.math.BigDecimal("10.11"));
        assertThat(a.sameAs(b)).isTrue();
        assertThat(a.sameAs(c)).isFalse();
    }
}
