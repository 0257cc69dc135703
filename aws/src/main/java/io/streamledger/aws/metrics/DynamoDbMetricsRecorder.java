package io.streamledger.aws.metrics;

import io.streamledger.model.contract.Contract;
import io.streamledger.model.contract.ContractResources;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import javax.annotation.Nullable;

/**
 * Records per-AP DynamoDB metrics ({@link DynamoDbMetric}) on a {@link MetricsBackend}, and keeps a
 * bounded space-saving sketch of partition keys per AP whose lane is LOAD_TEST_REQUIRED in the
 * seed's lane contract (the measured max-key share those lanes lack). Thread-safe; one per client.
 */
public final class DynamoDbMetricsRecorder {
    /** Keys kept per AP sketch unless configured otherwise. */
    public static final int DEFAULT_TOP_N = 10;

    private final MetricsBackend backend;
    private final int topN;
    private final Set<String> hotKeyAps;
    private final RouteResolver routes;
    // series by label values: a Route, a Series (route + one more label) or a List of labels
    private final Map<DynamoDbMetric, ConcurrentMap<Object, MetricsBackend.Count>> counts =
            new EnumMap<>(DynamoDbMetric.class);
    private final Map<DynamoDbMetric, ConcurrentMap<Object, MetricsBackend.Distribution>>
            distributions = new EnumMap<>(DynamoDbMetric.class);
    // resolved once per (ap, table, index): every call of a client looks its route up
    private final ConcurrentMap<RouteKey, Route> resolved = new ConcurrentHashMap<>();
    private final ConcurrentMap<String, SpaceSaving> sketches = new ConcurrentHashMap<>();

    /** {@code topN} keys per sketch; sketches for {@code hotKeyAps}. */
    public DynamoDbMetricsRecorder(
            MetricsBackend backend, int topN, Set<String> hotKeyAps, Contract contract) {
        if (topN < 1) {
            throw new IllegalArgumentException("topN must be >= 1, got " + topN);
        }
        this.backend = backend;
        this.topN = topN;
        this.hotKeyAps = Set.copyOf(hotKeyAps);
        this.routes = new RouteResolver(contract);
        for (DynamoDbMetric m : DynamoDbMetric.values()) {
            counts.put(m, new ConcurrentHashMap<>());
            distributions.put(m, new ConcurrentHashMap<>());
        }
    }

    /** Sketches of {@code topN} keys for every AP with a LOAD_TEST_REQUIRED lane. */
    public static DynamoDbMetricsRecorder create(MetricsBackend backend, int topN) {
        Contract contract = ContractResources.contract();
        return new DynamoDbMetricsRecorder(
                backend, topN, RouteResolver.loadTestRequiredAps(contract), contract);
    }

    public static DynamoDbMetricsRecorder create(MetricsBackend backend) {
        return create(backend, DEFAULT_TOP_N);
    }

    /** The route labels of a call of {@code ap} on {@code table} ({@code index} null = base). */
    public Route route(String ap, String table, @Nullable String index) {
        RouteKey k = new RouteKey(ap, table, index);
        Route r = resolved.get(k);
        return r != null ? r : resolved.computeIfAbsent(k, x -> routes.route(ap, table, index));
    }

    private record RouteKey(String ap, String table, @Nullable String index) {}

    /** A route's series with one label more (operation, reason). */
    private record Series(Route route, String extra) {
        List<String> labels() {
            List<String> l = new ArrayList<>(route.labels());
            l.add(extra);
            return List.copyOf(l);
        }
    }

    /** True when {@code r} is a route the contract maps to its AP. */
    boolean ownRoute(Route r) {
        return routes.ownRoute(r);
    }

    Optional<String> partitionKeyAttribute(String table, @Nullable String index) {
        return routes.partitionKey(table, index);
    }

    public void request(Route r, String operation, double latencySeconds) {
        Series labels = new Series(r, operation);
        count(DynamoDbMetric.REQUESTS, labels).add(1);
        distribution(DynamoDbMetric.LATENCY, labels).record(latencySeconds);
    }

    public void consumed(Route r, double readUnits, double writeUnits) {
        if (readUnits > 0) {
            count(DynamoDbMetric.CONSUMED_READ_UNITS, r).add(readUnits);
        }
        if (writeUnits > 0) {
            count(DynamoDbMetric.CONSUMED_WRITE_UNITS, r).add(writeUnits);
        }
    }

    public void throttle(Route r, String reason) {
        count(DynamoDbMetric.THROTTLES, new Series(r, reason)).add(1);
    }

    public void conditionalCheckFailed(Route r) {
        count(DynamoDbMetric.CONDITIONAL_CHECK_FAILURES, r).add(1);
    }

    public void cancellation(Route r, String reason) {
        count(DynamoDbMetric.TRANSACTION_CANCELLATIONS, new Series(r, reason)).add(1);
    }

    public void error(Route r, String reason) {
        count(DynamoDbMetric.ERRORS, new Series(r, reason)).add(1);
    }

    /** One retry of an operation of {@code ap} by its caller, for {@code cause}. */
    public void retry(String ap, String cause) {
        count(DynamoDbMetric.RETRIES, List.of(ap, cause)).add(1);
    }

    public void itemSize(Route r, long bytes) {
        distribution(DynamoDbMetric.ITEM_SIZE, r).record(bytes);
    }

    /** Offers a partition key of {@code ap}'s call to its sketch, if {@code ap} has one. */
    public void key(String ap, String partitionKey) {
        if (!hotKeyAps.contains(ap)) {
            return;
        }
        sketches.computeIfAbsent(ap, this::newSketch).offer(partitionKey);
    }

    private SpaceSaving newSketch(String ap) {
        SpaceSaving s = new SpaceSaving(topN);
        for (int rank = 1; rank <= topN; rank++) {
            int r = rank;
            backend.gauge(
                    DynamoDbMetric.HOT_KEY_REQUESTS,
                    List.of(ap, Integer.toString(rank)),
                    () -> s.countAt(r));
        }
        backend.gauge(DynamoDbMetric.MAX_KEY_SHARE, List.of(ap), s::maxShare);
        return s;
    }

    /** The busiest keys seen for {@code ap}, busiest first (empty when it has no sketch). */
    public List<SpaceSaving.Entry> hotKeys(String ap) {
        SpaceSaving s = sketches.get(ap);
        return s == null ? List.of() : s.top();
    }

    /** Busiest key's share of {@code ap}'s observed calls, empty before any. */
    public Optional<Double> maxKeyShare(String ap) {
        SpaceSaving s = sketches.get(ap);
        return s == null || s.total() == 0 ? Optional.empty() : Optional.of(s.maxShare());
    }

    public Set<String> hotKeyAps() {
        return hotKeyAps;
    }

    public int topN() {
        return topN;
    }

    private MetricsBackend.Count count(DynamoDbMetric m, Object series) {
        ConcurrentMap<Object, MetricsBackend.Count> byLabels = counts.get(m);
        MetricsBackend.Count c = byLabels.get(series);
        return c != null ? c : byLabels.computeIfAbsent(series, l -> backend.counter(m, labels(l)));
    }

    private MetricsBackend.Distribution distribution(DynamoDbMetric m, Object series) {
        ConcurrentMap<Object, MetricsBackend.Distribution> byLabels = distributions.get(m);
        MetricsBackend.Distribution d = byLabels.get(series);
        return d != null
                ? d
                : byLabels.computeIfAbsent(series, l -> backend.distribution(m, labels(l)));
    }

    @SuppressWarnings("unchecked")
    private static List<String> labels(Object series) {
        if (series instanceof Route r) {
            return r.labels();
        }
        if (series instanceof Series s) {
            return s.labels();
        }
        return (List<String>) series;
    }
}
