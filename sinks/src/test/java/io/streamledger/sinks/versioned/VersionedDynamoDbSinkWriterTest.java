package io.streamledger.sinks.versioned;

import static io.streamledger.sinks.versioned.Writes.id;
import static io.streamledger.sinks.versioned.Writes.position;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.Collection;
import java.util.List;
import java.util.OptionalLong;
import org.apache.flink.api.common.JobInfo;
import org.apache.flink.api.common.TaskInfo;
import org.apache.flink.api.common.operators.MailboxExecutor;
import org.apache.flink.api.common.operators.ProcessingTimeService;
import org.apache.flink.api.common.serialization.SerializationSchema;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.api.connector.sink2.SinkWriter;
import org.apache.flink.api.connector.sink2.WriterInitContext;
import org.apache.flink.connector.base.sink.writer.BufferedRequestState;
import org.apache.flink.connector.base.sink.writer.ElementConverter;
import org.apache.flink.connector.base.sink.writer.config.AsyncSinkWriterConfiguration;
import org.apache.flink.metrics.groups.SinkWriterMetricGroup;
import org.apache.flink.metrics.groups.UnregisteredMetricsGroup;
import org.apache.flink.runtime.mailbox.SyncMailboxExecutor;
import org.apache.flink.runtime.metrics.groups.InternalSinkWriterMetricGroup;
import org.apache.flink.streaming.runtime.tasks.TestProcessingTimeService;
import org.apache.flink.util.UserCodeClassLoader;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.ReturnConsumedCapacity;

/**
 * The writer inside AsyncSinkWriter (seed AP13 replay safety): what a checkpoint does with the
 * buffer, with and without flushOnCheckpoint, and that restored state is sent. The fake client
 * completes synchronously, so the synchronous mailbox never has to yield.
 */
class VersionedDynamoDbSinkWriterTest {
    private static final ElementConverter<VersionedWrite, VersionedWrite> IDENTITY = (w, ctx) -> w;
    private static final SinkWriter.Context NO_CONTEXT =
            new SinkWriter.Context() {
                @Override
                public long currentWatermark() {
                    return Long.MIN_VALUE;
                }

                @Override
                public Long timestamp() {
                    return null;
                }
            };

    private final FakeItemWriteClient client = new FakeItemWriteClient();

    private VersionedDynamoDbSinkWriter<VersionedWrite> writer(
            boolean flushOnCheckpoint, Collection<BufferedRequestState<VersionedWrite>> state) {
        VersionedSinkSettings settings =
                new VersionedSinkSettings(
                        WriteGuard.versionGuard(),
                        ReturnConsumedCapacity.TOTAL,
                        4,
                        3,
                        1,
                        2,
                        flushOnCheckpoint);
        AsyncSinkWriterConfiguration config =
                AsyncSinkWriterConfiguration.builder()
                        .setMaxBatchSize(10)
                        .setMaxBatchSizeInBytes(1 << 20)
                        .setMaxInFlightRequests(2)
                        .setMaxBufferedRequests(100)
                        .setMaxTimeInBufferMS(60_000) // the test's clock never fires it
                        .setMaxRecordSizeInBytes(400 * 1024)
                        .build();
        return new VersionedDynamoDbSinkWriter<>(
                IDENTITY, new TestContext(), config, settings, client, state);
    }

    private static void writeFive(VersionedDynamoDbSinkWriter<VersionedWrite> w) throws Exception {
        w.write(position("a", "AAPL", 1), NO_CONTEXT);
        w.write(position("a", "AAPL", 3), NO_CONTEXT);
        w.write(position("a", "AAPL", 2), NO_CONTEXT);
        w.write(position("b", "AAPL", 1), NO_CONTEXT);
        w.write(position("c", "AAPL", 1), NO_CONTEXT);
    }

    @Test
    void aCheckpointDrainsTheBufferWhenFlushOnCheckpointIsOn() throws Exception {
        var w = writer(true, List.of());
        writeFive(w);
        assertThat(client.calls()).as("below the batch size nothing is sent yet").isEmpty();

        w.flush(false); // what Flink calls before the checkpoint barrier

        assertThat(client.calls()).hasSize(3);
        assertThat(client.version(id("a", "AAPL"))).isEqualTo(3L);
        assertThat(w.snapshotState(1).get(0).getBufferedRequestEntries()).isEmpty();
        w.close();
    }

    @Test
    void withoutFlushOnCheckpointTheBufferIsSnapshotAndSentAfterRestore() throws Exception {
        var w = writer(false, List.of());
        writeFive(w);

        w.flush(false);
        List<BufferedRequestState<VersionedWrite>> state = w.snapshotState(1);
        w.close();

        assertThat(client.calls()).isEmpty();
        assertThat(state.get(0).getBufferedRequestEntries()).hasSize(5);

        var restored = writer(false, state);
        restored.flush(true); // end of input sends everything
        assertThat(client.version(id("a", "AAPL"))).isEqualTo(3L);
        assertThat(client.version(id("b", "AAPL"))).isEqualTo(1L);
        assertThat(client.version(id("c", "AAPL"))).isEqualTo(1L);
        restored.close();
    }

    @Test
    void aFullBatchIsSentWithoutWaitingForACheckpoint() throws Exception {
        var w = writer(true, List.of());
        for (int i = 0; i < 10; i++) {
            w.write(position("acct" + i, "MSFT", 1), NO_CONTEXT);
        }

        assertThat(client.calls()).hasSize(10);
        w.close();
        assertThat(client.closed).isTrue();
    }

    /** Just enough of Flink's writer context for AsyncSinkWriter outside a task. */
    private static final class TestContext implements WriterInitContext {
        private final SinkWriterMetricGroup metrics =
                InternalSinkWriterMetricGroup.wrap(
                        UnregisteredMetricsGroup.createOperatorMetricGroup());
        private final TestProcessingTimeService time = new TestProcessingTimeService();
        private final MailboxExecutor mailbox = new SyncMailboxExecutor();

        @Override
        public UserCodeClassLoader getUserCodeClassLoader() {
            throw new UnsupportedOperationException();
        }

        @Override
        public MailboxExecutor getMailboxExecutor() {
            return mailbox;
        }

        @Override
        public ProcessingTimeService getProcessingTimeService() {
            return time;
        }

        @Override
        public SinkWriterMetricGroup metricGroup() {
            return metrics;
        }

        @Override
        public SerializationSchema.InitializationContext
                asSerializationSchemaInitializationContext() {
            throw new UnsupportedOperationException();
        }

        @Override
        public boolean isObjectReuseEnabled() {
            return false;
        }

        @Override
        public <IN> TypeSerializer<IN> createInputSerializer() {
            throw new UnsupportedOperationException();
        }

        @Override
        public OptionalLong getRestoredCheckpointId() {
            return OptionalLong.empty();
        }

        @Override
        public JobInfo getJobInfo() {
            throw new UnsupportedOperationException();
        }

        @Override
        public TaskInfo getTaskInfo() {
            throw new UnsupportedOperationException();
        }
    }
}
