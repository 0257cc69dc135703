package io.streamledger.stack;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.streamledger.command.api.HttpApi;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.LocalDate;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * The run's view of the ops API (AP14 batches, AP15 breaks, AP18 repairs, dead letters, the ops
 * audit): the URLs the summary links and the AP18 repair queue read through them with the stack's
 * auditor keys, counted by age.
 */
final class OpsLinks {

    /** Pages of the repair queue read per tenant: bounds the summary's reads. */
    private static final int MAX_PAGES = 20;

    private static final ObjectMapper JSON = new ObjectMapper();

    /** Age buckets in display order, by their upper bound. */
    private static final Map<String, Duration> BUCKETS = new LinkedHashMap<>();

    static {
        BUCKETS.put("<1m", Duration.ofMinutes(1));
        BUCKETS.put("1m-10m", Duration.ofMinutes(10));
        BUCKETS.put("10m-1h", Duration.ofHours(1));
        BUCKETS.put("1h-24h", Duration.ofHours(24));
    }

    private OpsLinks() {}

    /** The stack's read-only ops key of a tenant (role auditor). */
    static String auditorKey(String tenant) {
        return "demo-auditor-" + tenant;
    }

    /** The ops endpoints of the command service at {@code baseUrl}, by what they list. */
    static Map<String, String> links(String baseUrl, LocalDate today) {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("breaks", baseUrl + "/v1/ops/breaks?status=OPEN");
        m.put("batches", baseUrl + "/v1/ops/recon/batches?date=" + today);
        m.put("repairs", baseUrl + "/v1/ops/repairs");
        m.put("dead letters", baseUrl + "/v1/ops/dead-letters");
        m.put("audit", baseUrl + "/v1/ops/audit?date=" + today);
        return m;
    }

    /** {@code <1m}, {@code 1m-10m}, {@code 10m-1h}, {@code 1h-24h} or {@code >=24h}. */
    static String ageBucket(Duration age) {
        for (Map.Entry<String, Duration> b : BUCKETS.entrySet()) {
            if (age.compareTo(b.getValue()) < 0) {
                return b.getKey();
            }
        }
        return ">=24h";
    }

    /** Counts in display order of the buckets (only those that occur). */
    static Map<String, Long> ordered(Map<String, Long> byBucket) {
        Map<String, Long> out = new LinkedHashMap<>();
        for (String b : BUCKETS.keySet()) {
            if (byBucket.containsKey(b)) {
                out.put(b, byBucket.get(b));
            }
        }
        if (byBucket.containsKey(">=24h")) {
            out.put(">=24h", byBucket.get(">=24h"));
        }
        return out;
    }

    /**
     * Every tenant's unresolved AP18 records (GET /v1/ops/repairs, all pages up to a bound) by age.
     *
     * @throws IOException when the service does not answer 200
     */
    static Map<String, Long> repairsByAge(String baseUrl, Iterable<String> tenants)
            throws IOException, InterruptedException {
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
        Map<String, Long> counts = new TreeMap<>();
        for (String tenant : tenants) {
            String cursor = null;
            for (int page = 0; page < MAX_PAGES; page++) {
                String path =
                        "/v1/ops/repairs?limit=50"
                                + (cursor == null
                                        ? ""
                                        : "&cursor="
                                                + URLEncoder.encode(
                                                        cursor, StandardCharsets.UTF_8));
                HttpResponse<String> r =
                        http.send(
                                HttpRequest.newBuilder(URI.create(baseUrl + path))
                                        .timeout(Duration.ofSeconds(30))
                                        .header(HttpApi.HEADER_API_KEY, auditorKey(tenant))
                                        .GET()
                                        .build(),
                                HttpResponse.BodyHandlers.ofString());
                if (r.statusCode() != 200) {
                    throw new IOException(path + " answered " + r.statusCode() + ": " + r.body());
                }
                JsonNode body = JSON.readTree(r.body());
                body.path("items")
                        .forEach(
                                i ->
                                        counts.merge(
                                                ageBucket(
                                                        Duration.ofSeconds(
                                                                i.path("ageSeconds").asLong())),
                                                1L,
                                                Long::sum));
                cursor = body.path("cursor").isTextual() ? body.path("cursor").asText() : null;
                if (cursor == null) {
                    break;
                }
            }
        }
        return ordered(counts);
    }
}
