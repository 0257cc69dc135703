package io.streamledger.sinks.metrics;

import io.streamledger.aws.metrics.DynamoDbMetric;
import io.streamledger.aws.metrics.DynamoDbMetricsRecorder;
import io.streamledger.aws.metrics.MetricsBackend;
import java.util.List;
import java.util.concurrent.atomic.DoubleAdder;
import java.util.function.DoubleSupplier;
import org.apache.flink.metrics.Gauge;
import org.apache.flink.metrics.Histogram;
import org.apache.flink.metrics.HistogramStatistics;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.runtime.metrics.DescriptiveStatisticsHistogram;

/**
 * {@link MetricsBackend} on a Flink {@link MetricGroup} (seed capacity metrics in every job): each
 * label becomes a key/value group, so the Flink UI lists the series and the Prometheus reporter
 * turns the keys into labels; counts are {@code Double} gauges (capacity units are fractional) and
 * distributions Flink histograms over the last {@link #HISTOGRAM_WINDOW} observations.
 */
public final class FlinkMetricsBackend implements MetricsBackend {
    /** Observations a histogram keeps for its quantiles. */
    public static final int HISTOGRAM_WINDOW = 1024;

    private final MetricGroup group;

    public FlinkMetricsBackend(MetricGroup group) {
        this.group = group;
    }

    /** A recorder of {@code topN} hot keys per AP registering in {@code group}. */
    public static DynamoDbMetricsRecorder recorder(MetricGroup group, int topN) {
        return DynamoDbMetricsRecorder.create(new FlinkMetricsBackend(group), topN);
    }

    /** As {@link #recorder(MetricGroup, int)} with the default number of hot keys. */
    public static DynamoDbMetricsRecorder recorder(MetricGroup group) {
        return recorder(group, DynamoDbMetricsRecorder.DEFAULT_TOP_N);
    }

    @Override
    public Count counter(DynamoDbMetric metric, List<String> labelValues) {
        DoubleAdder sum = new DoubleAdder();
        labelled(metric, labelValues).gauge(metric.prometheusName(), (Gauge<Double>) sum::sum);
        return sum::add;
    }

    @Override
    public Distribution distribution(DynamoDbMetric metric, List<String> labelValues) {
        SynchronizedHistogram h = new SynchronizedHistogram();
        boolean seconds = "seconds".equals(metric.unit());
        labelled(metric, labelValues).histogram(flinkName(metric), h);
        return v -> h.update(Math.round(seconds ? v * 1e6 : v));
    }

    @Override
    public void gauge(DynamoDbMetric metric, List<String> labelValues, DoubleSupplier value) {
        labelled(metric, labelValues)
                .gauge(metric.prometheusName(), (Gauge<Double>) value::getAsDouble);
    }

    /**
     * The metric's name in the job's metric groups: its Prometheus name, except that a histogram in
     * seconds holds microseconds ({@code _latency_microseconds}; Flink histograms take longs).
     */
    public static String flinkName(DynamoDbMetric metric) {
        return "seconds".equals(metric.unit())
                ? metric.baseName() + "_microseconds"
                : metric.prometheusName();
    }

    private MetricGroup labelled(DynamoDbMetric metric, List<String> values) {
        if (values.size() != metric.labels().size()) {
            throw new IllegalArgumentException(
                    metric + " has labels " + metric.labels() + ", got " + values);
        }
        MetricGroup g = group;
        for (int i = 0; i < values.size(); i++) {
            g = g.addGroup(metric.labels().get(i), values.get(i));
        }
        return g;
    }

    /** A Flink histogram safe for SDK callback threads updating it while reporters read it. */
    private static final class SynchronizedHistogram implements Histogram {
        private final DescriptiveStatisticsHistogram delegate =
                new DescriptiveStatisticsHistogram(HISTOGRAM_WINDOW);

        @Override
        public synchronized void update(long value) {
            delegate.update(value);
        }

        @Override
        public synchronized long getCount() {
            return delegate.getCount();
        }

        @Override
        public synchronized HistogramStatistics getStatistics() {
            return delegate.getStatistics();
        }
    }
}
