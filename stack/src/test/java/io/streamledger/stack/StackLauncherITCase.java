package io.streamledger.stack;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The one-command stack runs a short seeded workload end to end and its summary is consistent:
 * every admitted fill became exactly one balanced ledger transaction (AP09/AP10/CS11), the
 * Portfolio view equals the AP12 authority with zero open gaps (AP07/AP13), a short reconciliation
 * window closes AP14 batches, cancels release AP12 reservations, no AP15 break or AP18 repair is
 * open, and the ops links are listed; a second run on the same data dir restores both jobs from the
 * first run's savepoints and stays consistent.
 */
class StackLauncherITCase {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir Path dir;

    @Test
    void shortWorkloadThenRerunOnTheSameDataDir() throws Exception {
        JsonNode first = run("--reset", "--duration", "22s");
        long fills1 = admitted(first, WorkloadGenerator.ROUTE_FILL);
        long deposits1 = admitted(first, WorkloadGenerator.ROUTE_LEDGER);
        assertThat(fills1).isPositive();
        assertThat(admitted(first, WorkloadGenerator.ROUTE_ORDER)).isPositive();
        assertConsistent(first, fills1, deposits1);
        assertThat(metric(first, "posting", "posting.applied")).isEqualTo(fills1);
        assertThat(first.path("restoredFrom").size()).isZero();
        assertThat(first.path("freshnessSamples").asInt()).isPositive();
        assertThat(first.path("firstRowSecondsFromJvm").asDouble()).isPositive();
        // AP14: the short window closes batches within the run; AP12: cancels release
        JsonNode audit = first.path("audit");
        assertThat(audit.path("batchesByState").path("CLOSED").asLong())
                .as("closed batches %s", audit.path("batchesByState"))
                .isPositive();
        assertThat(admitted(first, WorkloadGenerator.ROUTE_CANCEL)).isPositive();
        assertThat(audit.path("reservationsByState").path("RELEASED").asLong()).isPositive();
        assertThat(audit.path("reservationsByState").path("CONSUMED").asLong()).isPositive();
        assertThat(audit.path("openBreaksByAge").size()).isZero();
        assertThat(first.path("openRepairsByAge").size()).isZero();
        assertThat(first.path("opsLinks").path("breaks").asText())
                .endsWith("/v1/ops/breaks?status=OPEN");
        assertThat(first.path("opsLinks").path("audit").asText()).contains("/v1/ops/audit?date=");
        // the service's time-driven duties ran and their metrics reached the summary
        JsonNode duties = first.path("duties");
        assertThat(duties.fieldNames())
                .toIterable()
                .contains("expiryDue", "expired", "expiryLagSeconds", "escalations");
        assertThat(duties.path("expired").asLong()).as("the workload places GTC orders").isZero();
        assertThat(first.path("relayRunning").asBoolean()).isFalse();

        JsonNode second = run("--duration", "5s");
        long fills2 = admitted(second, WorkloadGenerator.ROUTE_FILL);
        long deposits2 = admitted(second, WorkloadGenerator.ROUTE_LEDGER);
        assertThat(second.path("restoredFrom").has("posting")).isTrue();
        assertThat(second.path("restoredFrom").has("projection")).isTrue();
        // the tables hold both runs: still one transaction and one receipt per fill
        assertConsistent(second, fills1 + fills2, deposits1 + deposits2);
    }

    private JsonNode run(String... extra) throws Exception {
        Path summary = dir.resolve("summary-" + System.nanoTime() + ".json");
        String[] base = {
            "--data-dir",
            dir.resolve("data").toString(),
            "--rate",
            "20/s",
            "--ui-port",
            "0",
            "--no-progress",
            "--checkpoint-interval",
            "2s",
            "--drain-timeout",
            "120s",
            "--recon-window",
            "2s",
            "--recon-lateness",
            "12s",
            "--recon-out-of-orderness",
            "2s",
            "--summary-json",
            summary.toString()
        };
        String[] args = new String[base.length + extra.length];
        System.arraycopy(base, 0, args, 0, base.length);
        System.arraycopy(extra, 0, args, base.length, extra.length);
        assertThat(StackMain.commandLine(args).execute(args)).isZero();
        return JSON.readTree(summary.toFile());
    }

    private static void assertConsistent(JsonNode s, long fills, long deposits) {
        JsonNode audit = s.path("audit");
        assertThat(audit.path("inboxReceipts").asLong())
                .as("one receipt per fill")
                .isEqualTo(fills);
        assertThat(audit.path("trades").asLong()).isEqualTo(fills);
        assertThat(audit.path("ledgerTransactions").asLong())
                .as("one transaction per fill plus the deposits")
                .isEqualTo(fills + deposits);
        assertThat(audit.path("unbalancedTransactions").asLong()).isZero();
        assertThat(audit.path("authorities").asLong()).isPositive();
        assertThat(audit.path("portfolioRows").asLong())
                .isEqualTo(audit.path("authorities").asLong());
        assertThat(audit.path("portfolioRowsBehind").asLong()).isZero();
        assertThat(audit.path("portfolioRowsWithOpenGap").asLong()).isZero();
        assertThat(audit.path("authoritiesNotEqualToPostings").asLong()).isZero();
        // no short sales, exempt house/bank accounts: the ledger checks find nothing to flag
        assertThat(audit.path("breaksByReason").size())
                .as("breaks %s", audit.path("breaksByReason"))
                .isZero();
        assertThat(s.path("jobStatus").path("ledgercheck").asText()).isEqualTo("RUNNING");
        assertThat(s.path("jobStatus").path("reconciliation").asText()).isEqualTo("RUNNING");
        assertThat(metric(s, "ledgercheck", "ledgercheck.checksEvaluated")).isPositive();
        assertThat(metric(s, "projection", "gate.openGaps")).isZero();
        assertThat(metric(s, "projection", "gate.gapBreaks")).isZero();
        assertThat(metric(s, "posting", "posting.rejected")).isZero();
        assertThat(s.path("jobStatus").path("posting").asText()).isEqualTo("RUNNING");
        assertThat(s.path("jobStatus").path("projection").asText()).isEqualTo("RUNNING");
        s.path("routes")
                .forEach(r -> assertThat(r.path("failed").asLong()).as("failed requests").isZero());
    }

    private static long admitted(JsonNode s, String route) {
        return s.path("routes").path(route).path("admitted").asLong();
    }

    private static long metric(JsonNode s, String job, String name) {
        JsonNode v = s.path("jobMetrics").path(job).path(name);
        assertThat(v.isMissingNode()).as("metric %s of %s", name, job).isFalse();
        return Math.round(v.asDouble());
    }
}
