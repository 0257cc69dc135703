package io.streamledger.stack;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.flink.api.common.JobID;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.MetricOptions;

/**
 * Reads the jobs' domain metrics (posting.*, gate.*, source.*, sink counters; DESIGN "Operations"
 * metric list, AP09/AP13) from the Flink REST API the web UI uses, summed over operators and
 * subtasks by their last two name segments, e.g. {@code gate.applied}.
 */
final class JobMetrics {

    /**
     * How often the REST metric cache refreshes from the TaskManagers; a request answers from the
     * last refresh and starts the next one behind it, so one read can be a whole run old.
     */
    static final Duration FETCH_INTERVAL = Duration.ofSeconds(1);

    private static final ObjectMapper JSON = new ObjectMapper();
    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final String base;

    /** The cluster side of {@link #FETCH_INTERVAL}. */
    static void configure(Configuration conf) {
        conf.setString(
                MetricOptions.METRIC_FETCHER_UPDATE_INTERVAL.key(),
                FETCH_INTERVAL.toMillis() + " ms");
    }

    JobMetrics(String restBase) {
        this.base =
                restBase.endsWith("/") ? restBase.substring(0, restBase.length() - 1) : restBase;
    }

    /** {@code group.metric} → sum over every vertex and subtask of the job. */
    Map<String, Double> domainMetrics(JobID job) throws IOException, InterruptedException {
        Map<String, Double> out = new TreeMap<>();
        JsonNode vertices = get("/jobs/" + job).path("vertices");
        for (JsonNode v : vertices) {
            String vid = v.path("id").asText();
            List<String> ids = new ArrayList<>();
            for (JsonNode m : get("/jobs/" + job + "/vertices/" + vid + "/metrics")) {
                String id = m.path("id").asText();
                if (isDomainMetric(id)) {
                    ids.add(id);
                }
            }
            // the query string has a length limit: ask in small groups
            for (int i = 0; i < ids.size(); i += 20) {
                String q =
                        URLEncoder.encode(
                                String.join(",", ids.subList(i, Math.min(ids.size(), i + 20))),
                                StandardCharsets.UTF_8);
                for (JsonNode m : get("/jobs/" + job + "/vertices/" + vid + "/metrics?get=" + q)) {
                    String key = shortName(m.path("id").asText());
                    double value;
                    try {
                        value = Double.parseDouble(m.path("value").asText());
                    } catch (NumberFormatException notNumeric) {
                        continue;
                    }
                    out.merge(key, value, Double::sum);
                }
            }
        }
        return out;
    }

    /** Whether every vertex of the job has all its subtasks RUNNING (not only scheduled). */
    boolean allTasksRunning(JobID job) throws IOException, InterruptedException {
        JsonNode vertices = get("/jobs/" + job).path("vertices");
        if (vertices.isEmpty()) {
            return false;
        }
        for (JsonNode v : vertices) {
            if (!"RUNNING".equals(v.path("status").asText())) {
                return false;
            }
        }
        return true;
    }

    /** Metric ids look like {@code 0.<operator>.<group>.<name>}; ours have a known group. */
    static boolean isDomainMetric(String id) {
        String s = shortName(id);
        return s.startsWith("posting.")
                || s.startsWith("gate.")
                || s.startsWith("source.")
                || s.startsWith("projection.")
                || s.startsWith("ledgercheck.")
                || s.startsWith("breaks.")
                || s.startsWith("recon.");
    }

    static String shortName(String id) {
        int last = id.lastIndexOf('.');
        int prev = last > 0 ? id.lastIndexOf('.', last - 1) : -1;
        return prev >= 0 ? id.substring(prev + 1) : id;
    }

    private JsonNode get(String path) throws IOException, InterruptedException {
        HttpResponse<String> r =
                http.send(
                        HttpRequest.newBuilder(URI.create(base + path))
                                .timeout(Duration.ofSeconds(10))
                                .GET()
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() != 200) {
            throw new IOException("GET " + path + " -> " + r.statusCode() + ": " + r.body());
        }
        return JSON.readTree(r.body());
    }
}
