package io.streamledger.aws.metrics;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.DoubleAdder;
import java.util.function.DoubleSupplier;

/** A {@link MetricsBackend} that keeps every value in maps, for assertions. */
final class InMemoryMetricsBackend implements MetricsBackend {
    record Key(DynamoDbMetric metric, List<String> labels) {}

    final Map<Key, DoubleAdder> counters = new ConcurrentHashMap<>();
    final Map<Key, List<Double>> distributions = new ConcurrentHashMap<>();
    final Map<Key, DoubleSupplier> gauges = new ConcurrentHashMap<>();

    @Override
    public Count counter(DynamoDbMetric metric, List<String> labelValues) {
        check(metric, labelValues);
        DoubleAdder a =
                counters.computeIfAbsent(new Key(metric, labelValues), k -> new DoubleAdder());
        return a::add;
    }

    @Override
    public Distribution distribution(DynamoDbMetric metric, List<String> labelValues) {
        check(metric, labelValues);
        List<Double> values =
                distributions.computeIfAbsent(
                        new Key(metric, labelValues),
                        k -> java.util.Collections.synchronizedList(new ArrayList<>()));
        return values::add;
    }

    @Override
    public void gauge(DynamoDbMetric metric, List<String> labelValues, DoubleSupplier value) {
        check(metric, labelValues);
        gauges.put(new Key(metric, labelValues), value);
    }

    double count(DynamoDbMetric metric, String... labels) {
        DoubleAdder a = counters.get(new Key(metric, List.of(labels)));
        return a == null ? 0.0 : a.sum();
    }

    /** Sum over every series of {@code metric} whose labels start with {@code prefix}. */
    double sum(DynamoDbMetric metric, String... prefix) {
        return counters.entrySet().stream()
                .filter(
                        e ->
                                e.getKey().metric() == metric
                                        && startsWith(e.getKey().labels(), prefix))
                .mapToDouble(e -> e.getValue().sum())
                .sum();
    }

    List<Double> values(DynamoDbMetric metric, String... labels) {
        return distributions.getOrDefault(new Key(metric, List.of(labels)), List.of());
    }

    double gauge(DynamoDbMetric metric, String... labels) {
        DoubleSupplier s = gauges.get(new Key(metric, List.of(labels)));
        return s == null ? Double.NaN : s.getAsDouble();
    }

    private static boolean startsWith(List<String> labels, String[] prefix) {
        for (int i = 0; i < prefix.length; i++) {
            if (!labels.get(i).equals(prefix[i])) {
                return false;
            }
        }
        return true;
    }

    private static void check(DynamoDbMetric metric, List<String> labelValues) {
        if (labelValues.size() != metric.labels().size()) {
            throw new AssertionError(
                    metric + " expects labels " + metric.labels() + ", got " + labelValues);
        }
    }
}
