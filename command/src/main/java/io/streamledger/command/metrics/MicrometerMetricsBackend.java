package io.streamledger.command.metrics;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.streamledger.aws.metrics.DynamoDbMetric;
import io.streamledger.aws.metrics.MetricsBackend;
import java.util.List;
import java.util.function.DoubleSupplier;

/**
 * {@link MetricsBackend} on a Micrometer registry: counters, histograms with the metric's fixed
 * buckets, gauges; the Prometheus registry adds {@code _total} and the unit to the base names, so
 * the scraped names are {@link DynamoDbMetric#prometheusName()}.
 */
public final class MicrometerMetricsBackend implements MetricsBackend {
    private final MeterRegistry registry;

    public MicrometerMetricsBackend(MeterRegistry registry) {
        this.registry = registry;
    }

    @Override
    public Count counter(DynamoDbMetric metric, List<String> labelValues) {
        Counter c =
                Counter.builder(metric.baseName())
                        .description(metric.help())
                        .tags(tags(metric, labelValues))
                        .register(registry);
        return c::increment;
    }

    @Override
    public Distribution distribution(DynamoDbMetric metric, List<String> labelValues) {
        DistributionSummary s =
                DistributionSummary.builder(metric.baseName())
                        .description(metric.help())
                        .baseUnit(metric.unit())
                        .serviceLevelObjectives(
                                metric.buckets().stream()
                                        .mapToDouble(Double::doubleValue)
                                        .toArray())
                        .tags(tags(metric, labelValues))
                        .register(registry);
        return s::record;
    }

    @Override
    public void gauge(DynamoDbMetric metric, List<String> labelValues, DoubleSupplier value) {
        Gauge.builder(metric.baseName(), value, DoubleSupplier::getAsDouble)
                .description(metric.help())
                .tags(tags(metric, labelValues))
                .strongReference(true)
                .register(registry);
    }

    private static Tags tags(DynamoDbMetric metric, List<String> values) {
        if (values.size() != metric.labels().size()) {
            throw new IllegalArgumentException(
                    metric + " has labels " + metric.labels() + ", got " + values);
        }
        Tags t = Tags.empty();
        for (int i = 0; i < values.size(); i++) {
            t = t.and(metric.labels().get(i), values.get(i));
        }
        return t;
    }
}
