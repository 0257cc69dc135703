package io.streamledger.stack.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.OptionalLong;
import java.util.regex.Pattern;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.metrics.Gauge;
import org.apache.flink.metrics.Metric;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.runtime.testutils.InMemoryReporter;

/**
 * Waits for an operator's input watermark (Flink's {@code currentInputWatermark}) of every subtask
 * of the latest attempt: once a sink's reaches {@code t}, every record the checks emitted for input
 * up to {@code t} has been written by it — the CS11 checks decide on the same watermark — so a test
 * can assert "no break" without a fixed wait. A sink that writes at its checkpoint flush (the
 * DynamoDB break sink) has written them once {@link #awaitCheckpoints} two more checkpoints
 * completed after that.
 */
public final class InputWatermarks {

    private static final String GAUGE = "currentInputWatermark";

    private InputWatermarks() {}

    /** The lowest input watermark over the subtasks of {@code operatorName}, if all have one. */
    public static OptionalLong lowest(
            InMemoryReporter metrics, JobClient job, String operatorName) {
        Map<String, Integer> attemptBySubtask = new HashMap<>();
        Map<String, Long> watermarkBySubtask = new HashMap<>();
        for (MetricGroup g :
                metrics.findOperatorMetricGroups(job.getJobID(), Pattern.quote(operatorName))) {
            Map<String, String> vars = g.getAllVariables();
            String subtask = vars.get("<subtask_index>");
            int attempt = Integer.parseInt(vars.getOrDefault("<task_attempt_num>", "0"));
            Metric m = metrics.getMetricsByGroup(g).get(GAUGE);
            if (!(m instanceof Gauge<?> gauge)
                    || attempt < attemptBySubtask.getOrDefault(subtask, -1)) {
                continue;
            }
            attemptBySubtask.put(subtask, attempt);
            watermarkBySubtask.put(subtask, ((Number) gauge.getValue()).longValue());
        }
        return watermarkBySubtask.values().stream().mapToLong(Long::longValue).min();
    }

    /**
     * Waits until every subtask of {@code operatorName} has an input watermark ≥ {@code at}.
     *
     * @throws AssertionError at {@code timeout} or when the job ends first
     */
    public static void await(
            InMemoryReporter metrics,
            JobClient job,
            String operatorName,
            Instant at,
            Duration timeout)
            throws Exception {
        long started = System.nanoTime();
        long deadline = started + timeout.toNanos();
        OptionalLong seen = OptionalLong.empty();
        while (System.nanoTime() < deadline) {
            assertThat(job.getJobStatus().get().isGloballyTerminalState())
                    .as("job ended while waiting for the watermark of %s", operatorName)
                    .isFalse();
            seen = lowest(metrics, job, operatorName);
            if (seen.isPresent() && seen.getAsLong() >= at.toEpochMilli()) {
                System.out.printf(
                        "input watermark of %s passed %s after %d ms of waiting%n",
                        operatorName, at, Duration.ofNanos(System.nanoTime() - started).toMillis());
                return;
            }
            Thread.sleep(200);
        }
        throw new AssertionError(
                "input watermark of "
                        + operatorName
                        + " is "
                        + (seen.isPresent() ? Instant.ofEpochMilli(seen.getAsLong()) : "absent")
                        + " after "
                        + timeout
                        + ", waited for "
                        + at);
    }

    /**
     * Checkpoints of {@code job} completed so far (Flink's {@code numberOfCompletedCheckpoints}).
     */
    public static long completedCheckpoints(InMemoryReporter metrics, JobClient job) {
        return metrics.findJobMetricGroups(job.getJobID(), "numberOfCompletedCheckpoints").stream()
                .map(t -> t.f2)
                .filter(Gauge.class::isInstance)
                .mapToLong(m -> ((Number) ((Gauge<?>) m).getValue()).longValue())
                .max()
                .orElse(0);
    }

    /**
     * Waits until {@code more} checkpoints completed after this call: the second one's barrier left
     * the sources after the call, so every sink flushed what it held before it.
     */
    public static void awaitCheckpoints(
            InMemoryReporter metrics, JobClient job, int more, Duration timeout) throws Exception {
        long target = completedCheckpoints(metrics, job) + more;
        long deadline = System.nanoTime() + timeout.toNanos();
        while (completedCheckpoints(metrics, job) < target) {
            assertThat(System.nanoTime())
                    .as("%d more checkpoints within %s", more, timeout)
                    .isLessThan(deadline);
            assertThat(job.getJobStatus().get().isGloballyTerminalState())
                    .as("job ended while waiting for checkpoints")
                    .isFalse();
            Thread.sleep(100);
        }
    }
}
