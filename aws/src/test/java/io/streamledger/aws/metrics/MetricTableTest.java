package io.streamledger.aws.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** The README's metric table documents every {@link DynamoDbMetric} as it is exported. */
class MetricTableTest {
    private static final Pattern ROW =
            Pattern.compile("^\\| `(streamledger_dynamodb_\\w+)` \\| (\\w+) \\| ([\\w, ]+) \\|");

    @Test
    void everyMetricIsDocumentedWithItsTypeAndLabels() throws IOException {
        Map<String, String[]> rows = new HashMap<>();
        for (String line : Files.readAllLines(Path.of("README.md"))) {
            Matcher m = ROW.matcher(line);
            if (m.find()) {
                rows.put(m.group(1), new String[] {m.group(2), m.group(3)});
            }
        }
        assertThat(rows).hasSameSizeAs(DynamoDbMetric.values());
        for (DynamoDbMetric metric : DynamoDbMetric.values()) {
            String[] row = rows.get(metric.prometheusName());
            assertThat(row).as(metric.prometheusName()).isNotNull();
            assertThat(row[0]).isEqualTo(metric.type().name().toLowerCase(java.util.Locale.ROOT));
            assertThat(List.of(row[1].split(",\\s*"))).isEqualTo(metric.labels());
        }
    }

    @Test
    void baseNamesDropWhatPrometheusClientsAppend() {
        assertThat(DynamoDbMetric.REQUESTS.baseName()).isEqualTo("streamledger_dynamodb_requests");
        assertThat(DynamoDbMetric.LATENCY.baseName()).isEqualTo("streamledger_dynamodb_latency");
        assertThat(DynamoDbMetric.LATENCY.unit()).isEqualTo("seconds");
        assertThat(DynamoDbMetric.ITEM_SIZE.unit()).isEqualTo("bytes");
        assertThat(DynamoDbMetric.MAX_KEY_SHARE.baseName())
                .isEqualTo("streamledger_dynamodb_max_key_share");
    }
}
