package io.streamledger.stack;

import static org.assertj.core.api.Assertions.assertThat;

import io.streamledger.model.contract.CapacityCli;
import io.streamledger.model.contract.ContractResources;
import io.streamledger.model.contract.MeasuredLanes;
import io.streamledger.model.table.Tables;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The stack's two Prometheus endpoints under a short workload, scraped with a real HTTP client: the
 * command service's admin port (per-AP DynamoDB series of the CS01 order and CS04 fill
 * transactions, HTTP routes) and Flink's Prometheus reporter (the posting sink's AP10 and the
 * projection sinks' AP07/AP13 series, gate and posting sink counters).
 */
class StackMetricsITCase {
    private static final HttpClient WEB =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @TempDir Path dir;

    @Test
    void bothEndpointsServePerApSeriesAndTheGateAndSinkMetrics() throws Exception {
        Map<String, String> keys = WorkloadGenerator.demoKeys(1);
        Path data = dir.resolve("data");
        int prometheusPort = freePort();
        try (StackServices services = new StackServices(data, 0, 0, 0, keys, false);
                StackCluster cluster =
                        new StackCluster(
                                new StackCluster.Settings(
                                        0,
                                        1,
                                        Duration.ofSeconds(2),
                                        "hashmap",
                                        prometheusPort,
                                        data,
                                        false,
                                        0))) {
            cluster.submitPosting(services.jobConfig(Tables.CONTEXT, true));
            cluster.submitProjection(services.jobConfig(Tables.LEDGER, false));
            new WorkloadGenerator(
                            new WorkloadGenerator.Shape(7, 1, 2, 2, 20, Duration.ofSeconds(4), 2),
                            services.commandUrl(),
                            keys)
                    .run();

            List<String> command = scrape(services.commandMetricsUrl());
            assertThat(series(command, "streamledger_dynamodb_requests_total", "ap=\"CS01\""))
                    .isNotEmpty();
            assertThat(series(command, "streamledger_dynamodb_requests_total", "ap=\"CS04\""))
                    .isNotEmpty();
            assertThat(
                            series(
                                    command,
                                    "streamledger_dynamodb_consumed_write_units_total",
                                    "ap=\"CS01\""))
                    .isNotEmpty();
            assertThat(series(command, "streamledger_http_requests_total", "route=\"/v1/orders\""))
                    .isNotEmpty();

            // the run's measured lanes, as --measured-lanes writes them, judged by bin/capacity
            var measured =
                    MeasuredLaneFile.measure(
                            ContractResources.contract(),
                            services.commandMetrics,
                            Duration.ofSeconds(4));
            assertThat(measured).extracting(MeasuredLanes.Measured::laneId).contains("L01", "L08");
            Path lanes = dir.resolve("measured-lanes.txt");
            MeasuredLaneFile.write(lanes, measured);
            java.io.StringWriter table = new java.io.StringWriter();
            var capacity = CapacityCli.commandLine();
            capacity.setOut(new java.io.PrintWriter(table));
            assertThat(capacity.execute("lanes", "--measured", lanes.toString())).isZero();
            String measuredTable =
                    table.toString().substring(table.toString().indexOf("# measured"));
            System.out.println(measuredTable);
            assertThat(measuredTable).contains("L08", "L01");

            String flink = "http://127.0.0.1:" + prometheusPort + "/";
            List<String> jobs =
                    awaitScrape(
                            flink,
                            lines ->
                                    !series(
                                                            lines,
                                                            "streamledger_dynamodb_requests_total",
                                                            "ap=\"AP10\"")
                                                    .isEmpty()
                                            && !series(
                                                            lines,
                                                            "streamledger_dynamodb_requests_total",
                                                            "ap=\"AP07\"")
                                                    .isEmpty()
                                            && !series(lines, "_gate_applied").isEmpty()
                                            // the counter read comes first; wait for a posting
                                            && !series(
                                                            lines,
                                                            "consumed_write_units_total",
                                                            "ap=\"AP10\"",
                                                            "route=\"IDX10\"")
                                                    .isEmpty()
                                            && !series(lines, "_posting_applied").isEmpty());
            series(jobs, "streamledger_dynamodb_").stream()
                    .limit(5)
                    .forEach(l -> System.out.println("jobs endpoint: " + l));
            assertThat(
                            series(
                                    jobs,
                                    "flink_taskmanager_job_task_operator_ap_route_table_index_streamledger_dynamodb_consumed_write_units_total",
                                    "ap=\"AP10\"",
                                    "route=\"IDX10\""))
                    .as("the posting transaction's ledger units")
                    .isNotEmpty();
            assertThat(series(jobs, "streamledger_dynamodb_requests_total", "ap=\"AP13\""))
                    .isNotEmpty();
            assertThat(series(jobs, "streamledger_dynamodb_max_key_share", "ap=\"AP10\""))
                    .isNotEmpty();
        }
    }

    /**
     * Lines of a series whose name contains {@code name} and whose labels contain {@code labels}.
     */
    private static List<String> series(List<String> lines, String name, String... labels) {
        return lines.stream()
                .filter(l -> !l.startsWith("#"))
                .filter(l -> l.contains(name))
                .filter(l -> Arrays.stream(labels).allMatch(l::contains))
                .toList();
    }

    private static List<String> awaitScrape(String url, Predicate<List<String>> ready)
            throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        List<String> last = List.of();
        while (System.nanoTime() < deadline) {
            try {
                last = scrape(url);
                if (ready.test(last)) {
                    return last;
                }
            } catch (IOException e) {
                // reporter not bound yet: poll again
            }
            Thread.sleep(500);
        }
        throw new AssertionError("series not exported within 60 s; last scrape: " + last);
    }

    private static List<String> scrape(String url) throws IOException, InterruptedException {
        HttpResponse<String> r =
                WEB.send(
                        HttpRequest.newBuilder(URI.create(url))
                                .timeout(Duration.ofSeconds(10))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).isEqualTo(200);
        return List.of(r.body().split("\n"));
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }
}
