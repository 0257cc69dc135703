package io.streamledger.sinks.versioned;

import static io.streamledger.sinks.versioned.Writes.id;
import static io.streamledger.sinks.versioned.Writes.position;
import static org.assertj.core.api.Assertions.assertThat;

import io.streamledger.sinks.error.VersionedSinkException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.flink.metrics.groups.UnregisteredMetricsGroup;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ReturnConsumedCapacity;

/**
 * The writer's per-flush logic against an in-process fake client (seed CS06/AP13): coalescing,
 * stale counting, requeue of only the retryable remainder, fatal handling, limits.
 */
class VersionedBatchSubmitterTest {
    private final FakeItemWriteClient client = new FakeItemWriteClient();
    private final VersionedSinkMetrics metrics =
            new VersionedSinkMetrics(new UnregisteredMetricsGroup());
    private VersionedBatchSubmitter submitter;

    private VersionedBatchSubmitter submitter(WriteGuard guard, int concurrency, int maxRetries) {
        VersionedSinkSettings settings =
                new VersionedSinkSettings(
                        guard, ReturnConsumedCapacity.TOTAL, concurrency, maxRetries, 1, 2, true);
        submitter = new VersionedBatchSubmitter(client, settings, metrics);
        return submitter;
    }

    @AfterEach
    void close() {
        if (submitter != null) {
            submitter.close();
        }
    }

    private RecordingResultHandler.Outcome submit(List<VersionedWrite> batch) throws Exception {
        RecordingResultHandler handler = new RecordingResultHandler();
        submitter.submit(batch, handler);
        RecordingResultHandler.Outcome outcome = handler.await();
        assertThat(handler.calls()).as("the handler is told exactly once").isEqualTo(1);
        return outcome;
    }

    @Test
    void writesToTheSameItemCoalesceToOneCallWithTheNewestVersion() throws Exception {
        submitter(WriteGuard.versionGuard(), 16, 3);

        var outcome =
                submit(
                        List.of(
                                position("a", "AAPL", 2),
                                position("a", "AAPL", 5),
                                position("a", "AAPL", 4),
                                position("b", "AAPL", 1)));

        assertThat(outcome.complete).isTrue();
        assertThat(client.calls())
                .containsExactly(
                        "update " + id("a", "AAPL") + " v5", "update " + id("b", "AAPL") + " v1");
        assertThat(client.version(id("a", "AAPL"))).isEqualTo(5L);
        assertThat(metrics.coalescedWrites()).isEqualTo(2);
        assertThat(metrics.appliedWrites()).isEqualTo(2);
        assertThat(metrics.consumedWriteUnits()).isEqualTo(2 * FakeItemWriteClient.UNITS_PER_WRITE);
        assertThat(metrics.writeUnitsPerEvent()).isEqualTo(0.5);
    }

    @Test
    void aStaleWriteIsCountedAndDoesNotRegressTheItem() throws Exception {
        submitter(WriteGuard.versionGuard(), 16, 3);
        submit(List.of(position("a", "AAPL", 9)));

        var outcome = submit(List.of(position("a", "AAPL", 3), position("a", "MSFT", 1)));

        assertThat(outcome.complete).isTrue();
        assertThat(client.version(id("a", "AAPL"))).isEqualTo(9L);
        assertThat(metrics.staleWrites()).isEqualTo(1);
        assertThat(metrics.appliedWrites()).isEqualTo(2);
        assertThat(metrics.fatalErrors()).isZero();
    }

    @Test
    void onlyTheThrottledRemainderIsHandedBackForRetry() throws Exception {
        submitter(WriteGuard.versionGuard(), 16, 3);
        client.failNext(id("b", "AAPL"), FakeItemWriteClient.throttled());
        client.failNext(id("d", "AAPL"), FakeItemWriteClient.throttled());

        var outcome =
                submit(
                        List.of(
                                position("a", "AAPL", 1),
                                position("b", "AAPL", 1),
                                position("c", "AAPL", 1),
                                position("d", "AAPL", 1)));

        assertThat(outcome.retry)
                .containsExactly(position("b", "AAPL", 1), position("d", "AAPL", 1));
        assertThat(outcome.retry).allSatisfy(w -> assertThat(w.attempt()).isEqualTo(1));
        assertThat(metrics.retries()).isEqualTo(2);
        assertThat(metrics.appliedWrites()).isEqualTo(2);

        // the writer re-buffers the remainder; the next flush sends just those two and lands them
        var second = submit(outcome.retry);
        assertThat(second.complete).isTrue();
        assertThat(client.calls()).hasSize(6);
        assertThat(client.version(id("b", "AAPL"))).isEqualTo(1L);
        assertThat(client.version(id("d", "AAPL"))).isEqualTo(1L);
    }

    @Test
    void aRetriedWriteMergesWithANewerWriteInTheNextFlush() throws Exception {
        submitter(WriteGuard.versionGuard(), 16, 3);
        client.failNext(id("a", "AAPL"), FakeItemWriteClient.throttled());
        var first = submit(List.of(position("a", "AAPL", 1)));

        List<VersionedWrite> next = new ArrayList<>(first.retry);
        next.add(position("a", "AAPL", 2));
        var second = submit(next);

        assertThat(second.complete).isTrue();
        assertThat(client.version(id("a", "AAPL"))).isEqualTo(2L);
        assertThat(metrics.coalescedWrites()).isEqualTo(1);
    }

    @Test
    void aValidationErrorFailsTheFlushAndIsCounted() throws Exception {
        submitter(WriteGuard.versionGuard(), 16, 3);
        client.failNext(id("b", "AAPL"), FakeItemWriteClient.validation());

        var outcome = submit(List.of(position("a", "AAPL", 1), position("b", "AAPL", 1)));

        assertThat(outcome.fatal)
                .isInstanceOf(VersionedSinkException.class)
                .hasMessageContaining("ValidationException (HTTP 400)")
                .hasMessageContaining(Writes.TABLE);
        assertThat(metrics.fatalErrors()).isEqualTo(1);
        assertThat(metrics.appliedWrites()).isEqualTo(1);
    }

    @Test
    void aWriteThatCannotBeGuardedIsFatalWithAClearReason() throws Exception {
        submitter(WriteGuard.versionGuard(), 16, 3);
        VersionedWrite setsVersion =
                VersionedWrite.of(
                        "T",
                        Map.of("PK", AttributeValue.fromS("p")),
                        Map.of("sourceVersion", AttributeValue.fromN("3")),
                        3);

        var outcome = submit(List.of(setsVersion));

        assertThat(outcome.fatal).hasMessageContaining("sets the guard's version attribute");
        assertThat(client.calls()).isEmpty();
    }

    @Test
    void retriesStopAtTheLimitWithAFatalError() throws Exception {
        submitter(WriteGuard.versionGuard(), 16, 2);
        client.failNext(
                id("a", "AAPL"),
                FakeItemWriteClient.throttled(),
                FakeItemWriteClient.throttled(),
                FakeItemWriteClient.throttled());

        List<VersionedWrite> batch = List.of(position("a", "AAPL", 1));
        RecordingResultHandler.Outcome outcome = submit(batch);
        int rounds = 1;
        while (outcome.retry != null) {
            outcome = submit(outcome.retry);
            rounds++;
        }

        assertThat(rounds).isEqualTo(3);
        assertThat(outcome.fatal).hasMessageContaining("gave up on 1 writes after 2 retries");
        assertThat(metrics.retries()).isEqualTo(2);
        assertThat(metrics.fatalErrors()).isEqualTo(1);
    }

    @Test
    void concurrentCallsPerFlushStayWithinTheLimit() throws Exception {
        submitter(WriteGuard.versionGuard(), 3, 3);
        client.holdCompletions();
        List<VersionedWrite> batch = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            batch.add(position("acct" + i, "AAPL", 1));
        }
        RecordingResultHandler handler = new RecordingResultHandler();

        submitter.submit(batch, handler);
        assertThat(client.calls()).hasSize(3);
        client.releaseAll();

        assertThat(handler.await().complete).isTrue();
        assertThat(client.calls()).hasSize(20);
        assertThat(client.maxOutstanding()).isEqualTo(3);
    }

    @Test
    void createOnceUsesPutIfAbsentAndCountsRepeatsAsStale() throws Exception {
        submitter(WriteGuard.createOnce(), 16, 3);
        VersionedWrite breakRow =
                VersionedWrite.of(
                        "Reconciliation",
                        Map.of(
                                "PK",
                                AttributeValue.fromS("BRK#fill-1"),
                                "SK",
                                AttributeValue.fromS("A")),
                        Map.of("reason", AttributeValue.fromS("missing ledger txn")),
                        0);

        submit(List.of(breakRow, breakRow));
        var outcome = submit(List.of(breakRow));

        assertThat(outcome.complete).isTrue();
        assertThat(client.calls()).containsExactly("put BRK#fill-1|A v0", "put BRK#fill-1|A v0");
        assertThat(metrics.appliedWrites()).isEqualTo(1);
        assertThat(metrics.coalescedWrites()).isEqualTo(1);
        assertThat(metrics.staleWrites()).isEqualTo(1);
    }

    @Test
    void closeClosesTheClient() {
        submitter(WriteGuard.versionGuard(), 1, 0).close();
        submitter = null;
        assertThat(client.closed).isTrue();
    }
}
