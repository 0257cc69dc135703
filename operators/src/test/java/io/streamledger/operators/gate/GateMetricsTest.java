package io.streamledger.operators.gate;

import static io.streamledger.operators.gate.GateTestSupport.ev;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.HashSet;
import java.util.Set;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.Gauge;
import org.apache.flink.metrics.Histogram;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.runtime.jobgraph.OperatorID;
import org.apache.flink.runtime.metrics.groups.InternalOperatorMetricGroup;
import org.apache.flink.runtime.metrics.util.InterceptingOperatorMetricGroup;
import org.apache.flink.runtime.metrics.util.InterceptingTaskMetricGroup;
import org.apache.flink.runtime.operators.testutils.MockEnvironment;
import org.apache.flink.runtime.operators.testutils.MockEnvironmentBuilder;
import org.apache.flink.streaming.api.operators.KeyedProcessOperator;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.junit.jupiter.api.Test;

/** The gate's counters and gauges (CS07: gaps visible) move with what the gate does. */
class GateMetricsTest {

    private static final GateConfig CONFIG =
            GateConfig.of(Duration.ofHours(1), Duration.ofSeconds(1), 10);

    /** Captures every metric registered under any subgroup, by its plain name. */
    private static final class Captured extends InterceptingOperatorMetricGroup {
        private Set<String> groups;

        @Override
        public MetricGroup addGroup(String name) {
            if (groups == null) {
                groups = new HashSet<>();
            }
            groups.add(name);
            return this;
        }

        long count(String name) {
            return ((Counter) get(name)).getCount();
        }

        Object gauge(String name) {
            return ((Gauge<?>) get(name)).getValue();
        }
    }

    private static MockEnvironment environment(Captured operatorGroup) {
        return new MockEnvironmentBuilder()
                .setMetricGroup(
                        new InterceptingTaskMetricGroup() {
                            @Override
                            public InternalOperatorMetricGroup getOrAddOperator(
                                    OperatorID id, String name) {
                                return operatorGroup;
                            }
                        })
                .build();
    }

    @Test
    void nextVersionGateCountsEveryOutcomeAndReportsParking() throws Exception {
        Captured m = new Captured();
        try (MockEnvironment env = environment(m);
                var h =
                        new KeyedOneInputStreamOperatorTestHarness<>(
                                new NextVersionGateOperator(new NextVersionGate(CONFIG)),
                                new SourceKeySelector(),
                                GateState.SOURCE_KEY,
                                env)) {
            h.getExecutionConfig().disableGenericTypes();
            h.open();
            h.setProcessingTime(1_000L);
            GateEvent first = ev("k", 1);
            first.setIngestTimeMillis(900L);
            h.processElement(first, 0L);
            assertThat(m.gauge("sourceLagMs")).isEqualTo(100L);

            GateEvent noIngestTime = ev("k", 3);
            noIngestTime.setEventTimeMillis(700L);
            h.processElement(noIngestTime, 0L);
            assertThat(m.gauge("sourceLagMs")).isEqualTo(300L);
            h.processElement(ev("k", 4), 0L);
            h.processElement(ev("k", 3), 0L); // parked duplicate
            h.processElement(ev("k", 1), 0L); // stale
            assertThat(m.gauge("parked")).isEqualTo(2L);
            assertThat(m.gauge("openGaps")).isEqualTo(1);
            h.setProcessingTime(1_500L);
            assertThat((Long) m.gauge("oldestGapAgeMs")).isPositive();

            h.setProcessingTime(2_000L); // SLA passes
            h.processElement(ev("k", 2), 0L);
            for (long v = 5; v <= 20; v++) {
                GateEvent e = ev("k", v);
                e.setEventTimeMillis(1_900L);
                h.processElement(e, 0L);
            }

            assertThat(m.groups).contains(GateState.METRIC_GROUP);
            assertThat(m.count("applied")).isEqualTo(20);
            assertThat(m.count("stale")).isEqualTo(1);
            assertThat(m.count("duplicates")).isEqualTo(1);
            assertThat(m.count("parkedTotal")).isEqualTo(2);
            assertThat(m.count("gapsOpened")).isEqualTo(1);
            assertThat(m.count("gapBreaks")).isEqualTo(1);
            assertThat(m.count("deadLettered")).isZero();
            assertThat(m.count("gapsArrived")).isEqualTo(1);
            assertThat(m.count("gapsSkipped")).isZero();
            assertThat(m.gauge("parked")).isEqualTo(0L);
            assertThat(m.gauge("openGaps")).isEqualTo(0);
            assertThat(m.gauge("oldestGapAgeMs")).isEqualTo(0L);
            Histogram freshness = (Histogram) m.get("freshnessMs");
            assertThat(freshness.getCount()).isEqualTo(1); // 1 in 16 applied is sampled
            assertThat(freshness.getStatistics().getMax()).isEqualTo(100L);
        }
    }

    @Test
    void skipsAreCountedAppliedNoOpAndRefused() throws Exception {
        Captured m = new Captured();
        try (MockEnvironment env = environment(m);
                var h =
                        new KeyedOneInputStreamOperatorTestHarness<>(
                                new NextVersionGateOperator(new NextVersionGate(CONFIG)),
                                new SourceKeySelector(),
                                GateState.SOURCE_KEY,
                                env)) {
            h.getExecutionConfig().disableGenericTypes();
            h.open();
            h.processElement(ev("k", 1), 0L);
            h.processElement(ev("k", 3), 0L);
            h.processElement(GapSkip.request("k", 4, "id", "ops:a"), 0L); // not the missing one
            assertThat(m.gauge("openGaps")).isEqualTo(1);
            h.processElement(GapSkip.request("k", 2, "id", "ops:a"), 0L);
            h.processElement(GapSkip.request("k", 2, "id", "ops:a"), 0L); // again: done already

            assertThat(m.count("gapsSkipped")).isEqualTo(1);
            assertThat(m.count("skipNoops")).isEqualTo(1);
            assertThat(m.count("skipRefused")).isEqualTo(1);
            assertThat(m.count("gapsArrived")).isZero();
            assertThat(m.count("applied")).isEqualTo(2);
            assertThat(m.gauge("openGaps")).isEqualTo(0);
            assertThat(m.gauge("parked")).isEqualTo(0L);
        }
    }

    @Test
    void inboxCountsPassedDuplicatesAndPurgedReceipts() throws Exception {
        Captured m = new Captured();
        try (MockEnvironment env = environment(m);
                var h =
                        new KeyedOneInputStreamOperatorTestHarness<>(
                                new KeyedProcessOperator<>(new InboxDedupe(CONFIG)),
                                new SourceKeySelector(),
                                GateState.SOURCE_KEY,
                                env)) {
            h.getExecutionConfig().disableGenericTypes();
            h.open();
            h.processElement(ev("k", 1, "a"), 0L);
            h.processElement(ev("k", 2, "a"), 0L);
            h.processElement(ev("k", 3, "b"), 0L);
            h.setProcessingTime(Duration.ofHours(2).toMillis());

            assertThat(m.count("inboxPassed")).isEqualTo(2);
            assertThat(m.count("duplicates")).isEqualTo(1);
            assertThat(m.count("inboxPurged")).isEqualTo(2);
        }
    }
}
