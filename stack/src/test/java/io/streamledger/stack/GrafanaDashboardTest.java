package io.streamledger.stack;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.streamledger.aws.metrics.DynamoDbMetric;
import io.streamledger.sinks.metrics.FlinkMetricsBackend;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The provisioned Grafana dashboard (freshness, lag, gate counts, breaks, dead letters, capacity,
 * throttles and hot keys by AP) queries only metric names of the one metric table (aws README), and
 * the compose file provisions it with a Prometheus that scrapes both endpoints.
 */
class GrafanaDashboardTest {
    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    private static final String FLINK = "flink_taskmanager_job_task_operator_";
    private static final Pattern NAME = Pattern.compile("\\b((?:streamledger|flink)_\\w+)");
    private static final Pattern CELL = Pattern.compile("`([^`]+)`");

    private static Set<String> documented;

    @BeforeAll
    static void readTable() throws Exception {
        documented = new HashSet<>();
        for (String line : Files.readAllLines(ROOT.resolve("aws/README.md"))) {
            if (!line.startsWith("| `streamledger_") && !line.startsWith("| `" + FLINK)) {
                continue;
            }
            String[] cols = line.split("\\|");
            Matcher m = CELL.matcher(cols[1]);
            while (m.find()) {
                String n = m.group(1);
                documented.add(n.startsWith("…_") ? FLINK + n.substring(2) : n);
            }
        }
        // a job's DynamoDB metric: Flink prefix + its label keys + its Flink name (the table's
        // rule)
        for (DynamoDbMetric metric : DynamoDbMetric.values()) {
            assertThat(documented).contains(metric.prometheusName());
            documented.add(
                    FLINK
                            + String.join("_", metric.labels())
                            + "_"
                            + FlinkMetricsBackend.flinkName(metric));
        }
    }

    @Test
    void everyQueryUsesDocumentedNames() throws Exception {
        JsonNode dash =
                new ObjectMapper()
                        .readTree(
                                ROOT.resolve("docker/grafana/dashboards/streamledger.json")
                                        .toFile());
        List<String> exprs = new ArrayList<>();
        dash.path("panels")
                .forEach(p -> p.path("targets").forEach(t -> exprs.add(t.path("expr").asText())));
        assertThat(exprs).hasSizeGreaterThan(10);
        Set<String> used = new HashSet<>();
        for (String e : exprs) {
            Matcher m = NAME.matcher(e);
            while (m.find()) {
                used.add(m.group(1).replaceFirst("_(bucket|count|sum)$", ""));
            }
        }
        assertThat(used).isNotEmpty().allSatisfy(n -> assertThat(documented).as(n).contains(n));
        // the panels the operations view needs
        assertThat(String.join("\n", exprs))
                .contains(
                        "gate_freshnessMs",
                        "gate_sourceLagMs",
                        "gate_applied",
                        "gate_duplicates",
                        "gate_stale",
                        "gate_parked",
                        "recon_breaksEmitted",
                        "deadLetters_written",
                        "streamledger_dynamodb_consumed_write_units_total",
                        "streamledger_dynamodb_throttles_total",
                        "streamledger_dynamodb_max_key_share");
    }

    @Test
    void composeProvisionsTheDashboardAndScrapesBothEndpoints() throws Exception {
        ObjectMapper yaml = new ObjectMapper(new YAMLFactory());
        JsonNode compose = yaml.readTree(ROOT.resolve("docker/docker-compose.yml").toFile());
        String grafanaVolumes = compose.path("services").path("grafana").path("volumes").toString();
        assertThat(grafanaVolumes)
                .contains("./grafana/provisioning:/etc/grafana/provisioning")
                .contains("./grafana/dashboards:/var/lib/grafana/dashboards");
        JsonNode provider =
                yaml.readTree(
                        ROOT.resolve("docker/grafana/provisioning/dashboards/streamledger.yml")
                                .toFile());
        assertThat(provider.path("providers").get(0).path("options").path("path").asText())
                .isEqualTo("/var/lib/grafana/dashboards");
        JsonNode prom = yaml.readTree(ROOT.resolve("docker/prometheus/prometheus.yml").toFile());
        String targets = prom.path("scrape_configs").toString();
        assertThat(targets).contains("command-service:9464", "jobmanager:9249", "\"taskmanager\"");
        assertThat(compose.path("services").path("prometheus").path("volumes").toString())
                .contains("./prometheus/prometheus.yml:/etc/prometheus/prometheus.yml");
    }
}
