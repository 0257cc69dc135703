package io.streamledger.aws.metrics;

import java.util.List;
import java.util.function.DoubleSupplier;

/**
 * Where {@link DynamoDbMetricsRecorder} registers its meters: Micrometer in the command service,
 * Flink metric groups in the jobs. Each call returns the meter for one metric and one set of label
 * values (same order as {@link DynamoDbMetric#labels()}); the recorder caches what it gets.
 */
public interface MetricsBackend {

    /** A monotonically increasing sum (requests, capacity units). */
    interface Count {
        void add(double amount);
    }

    /** A distribution of observations (latency in seconds, item sizes in bytes). */
    interface Distribution {
        void record(double value);
    }

    Count counter(DynamoDbMetric metric, List<String> labelValues);

    Distribution distribution(DynamoDbMetric metric, List<String> labelValues);

    void gauge(DynamoDbMetric metric, List<String> labelValues, DoubleSupplier value);
}
