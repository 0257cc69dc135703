package io.streamledger.sinks.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.streamledger.aws.metrics.DynamoDbMetric;
import io.streamledger.aws.metrics.DynamoDbMetricsRecorder;
import io.streamledger.aws.metrics.Route;
import org.apache.flink.metrics.Gauge;
import org.apache.flink.metrics.Histogram;
import org.apache.flink.metrics.testutils.MetricListener;
import org.junit.jupiter.api.Test;

/** The per-AP DynamoDB metrics as Flink metric groups: one key/value group per label. */
class FlinkMetricsBackendTest {

    @Test
    void labelsBecomeKeyValueGroupsAndCountsAreFractional() {
        MetricListener listener = new MetricListener();
        DynamoDbMetricsRecorder recorder =
                FlinkMetricsBackend.recorder(listener.getMetricGroup(), 3);
        Route ledger = recorder.route("AP10", "Ledger", null);
        recorder.request(ledger, "TransactWriteItems", 0.004);
        recorder.request(ledger, "TransactWriteItems", 0.006);
        recorder.consumed(ledger, 0, 2.5);
        recorder.consumed(ledger, 0, 1.0);

        String[] route = {"ap", "AP10", "route", "IDX10", "table", "Ledger", "index", "base"};
        assertThat(
                        gauge(
                                listener,
                                route,
                                "operation",
                                "TransactWriteItems",
                                DynamoDbMetric.REQUESTS.prometheusName()))
                .isEqualTo(2.0);
        assertThat(gauge(listener, route, DynamoDbMetric.CONSUMED_WRITE_UNITS.prometheusName()))
                .isEqualTo(3.5);
        Histogram latency =
                listener.getHistogram(
                                concat(
                                        route,
                                        "operation",
                                        "TransactWriteItems",
                                        "streamledger_dynamodb_latency_microseconds"))
                        .orElseThrow();
        assertThat(latency.getCount()).isEqualTo(2);
        assertThat(latency.getStatistics().getMax()).isEqualTo(6000);
    }

    @Test
    void hotKeyGaugesPerRankAndTheMaxShare() {
        MetricListener listener = new MetricListener();
        DynamoDbMetricsRecorder recorder =
                FlinkMetricsBackend.recorder(listener.getMetricGroup(), 2);
        recorder.key("AP10", "T#ACC-1#2026-12#0");
        recorder.key("AP10", "T#ACC-1#2026-12#0");
        recorder.key("AP10", "T#ACC-2#2026-12#0");
        recorder.key("AP09", "ignored: AP09's lanes are not LOAD_TEST_REQUIRED");
        assertThat(
                        gauge(
                                listener,
                                new String[] {"ap", "AP10", "rank", "1"},
                                DynamoDbMetric.HOT_KEY_REQUESTS.prometheusName()))
                .isEqualTo(2.0);
        assertThat(
                        gauge(
                                listener,
                                new String[] {"ap", "AP10"},
                                DynamoDbMetric.MAX_KEY_SHARE.prometheusName()))
                .isEqualTo(2.0 / 3);
        assertThat(recorder.hotKeys("AP09")).isEmpty();
    }

    private static double gauge(MetricListener l, String[] path, String... rest) {
        Gauge<Object> g = l.getGauge(concat(path, rest)).orElseThrow();
        return (Double) g.getValue();
    }

    private static String[] concat(String[] a, String... b) {
        String[] out = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }
}
