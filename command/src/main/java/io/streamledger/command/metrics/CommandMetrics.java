package io.streamledger.command.metrics;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.streamledger.aws.metrics.DynamoDbMetric;
import io.streamledger.aws.metrics.DynamoDbMetricsRecorder;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * The command service's metrics: one Prometheus registry holding the per-AP DynamoDB metrics of its
 * client (seed capacity model, by AP) and the HTTP route metrics, scraped from the admin port.
 */
public final class CommandMetrics {
    /** Prometheus name of the HTTP request counter. */
    public static final String HTTP_REQUESTS = "streamledger_http_requests_total";

    /** Prometheus name of the HTTP latency histogram. */
    public static final String HTTP_DURATION = "streamledger_http_request_duration_seconds";

    private static final double[] HTTP_BUCKETS = {
        0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5
    };

    private final PrometheusMeterRegistry registry =
            new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private final DynamoDbMetricsRecorder dynamo;
    // registered once per series: a registry lookup per request costs more than the count
    private final ConcurrentMap<HttpSeries, Counter> requests = new ConcurrentHashMap<>();
    private final ConcurrentMap<HttpSeries, DistributionSummary> durations =
            new ConcurrentHashMap<>();

    /** Hot-key sketches keep {@code topN} keys per AP. */
    public CommandMetrics(int topN) {
        this.dynamo = DynamoDbMetricsRecorder.create(new MicrometerMetricsBackend(registry), topN);
    }

    public static CommandMetrics create() {
        return new CommandMetrics(DynamoDbMetricsRecorder.DEFAULT_TOP_N);
    }

    /** The recorder to build the service's DynamoDB client with. */
    public DynamoDbMetricsRecorder dynamo() {
        return dynamo;
    }

    /** One HTTP request: {@code route} is the matched template, never the raw path. */
    public void httpRequest(String method, String route, int status, double seconds) {
        HttpSeries k = new HttpSeries(method, route, status);
        Counter c = requests.get(k);
        if (c == null) {
            c =
                    requests.computeIfAbsent(
                            k,
                            x ->
                                    Counter.builder("streamledger_http_requests")
                                            .tags(
                                                    "method",
                                                    method,
                                                    "route",
                                                    route,
                                                    "status",
                                                    Integer.toString(status))
                                            .register(registry));
        }
        c.increment();
        HttpSeries d = new HttpSeries(method, route, 0);
        DistributionSummary s = durations.get(d);
        if (s == null) {
            s =
                    durations.computeIfAbsent(
                            d,
                            x ->
                                    DistributionSummary.builder(
                                                    "streamledger_http_request_duration")
                                            .baseUnit("seconds")
                                            .serviceLevelObjectives(HTTP_BUCKETS)
                                            .tags("method", method, "route", route)
                                            .register(registry));
        }
        s.record(seconds);
    }

    /** One HTTP series' labels (status 0 for the duration, which has none). */
    private record HttpSeries(String method, String route, int status) {}

    /** Sum of a DynamoDB counter over the series of {@code ap} on {@code route}. */
    public double sum(DynamoDbMetric metric, String ap, String route) {
        return registry.find(metric.baseName()).tags("ap", ap, "route", route).counters().stream()
                .mapToDouble(Counter::count)
                .sum();
    }

    /** The Prometheus text exposition of every metric. */
    public String scrape() {
        return registry.scrape();
    }

    public PrometheusMeterRegistry registry() {
        return registry;
    }
}
