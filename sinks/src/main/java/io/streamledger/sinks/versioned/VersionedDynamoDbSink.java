package io.streamledger.sinks.versioned;

import io.streamledger.sinks.client.ItemWriteClientProvider;
import io.streamledger.sinks.serialization.VersionedWriteStateSerializer;
import java.util.Collection;
import java.util.List;
import org.apache.flink.api.connector.sink2.StatefulSink;
import org.apache.flink.api.connector.sink2.WriterInitContext;
import org.apache.flink.connector.base.sink.AsyncSinkBase;
import org.apache.flink.connector.base.sink.writer.BufferedRequestState;
import org.apache.flink.connector.base.sink.writer.ElementConverter;
import org.apache.flink.connector.base.sink.writer.config.AsyncSinkWriterConfiguration;
import org.apache.flink.core.io.SimpleVersionedSerializer;

/**
 * A DynamoDB sink whose writes are guarded, so replays and restores from older savepoints never
 * move an item backwards (seed CS06, AP13, AP07): VERSION_GUARD projections or CREATE_ONCE rows.
 * Build it with {@link #builder()}; see sinks/README.md for guarantees, settings and metrics.
 */
public final class VersionedDynamoDbSink<InputT> extends AsyncSinkBase<InputT, VersionedWrite> {
    private static final long serialVersionUID = 1L;

    private final VersionedSinkSettings settings;
    private final ItemWriteClientProvider clientProvider;

    VersionedDynamoDbSink(
            ElementConverter<InputT, VersionedWrite> converter,
            int maxBatchSize,
            int maxInFlightRequests,
            int maxBufferedRequests,
            long maxBatchSizeInBytes,
            long maxTimeInBufferMS,
            long maxRecordSizeInBytes,
            long requestTimeoutMS,
            VersionedSinkSettings settings,
            ItemWriteClientProvider clientProvider) {
        super(
                converter,
                maxBatchSize,
                maxInFlightRequests,
                maxBufferedRequests,
                maxBatchSizeInBytes,
                maxTimeInBufferMS,
                maxRecordSizeInBytes,
                requestTimeoutMS,
                false); // a timed-out request is resent: the guard makes a repeat harmless
        this.settings = settings;
        this.clientProvider = clientProvider;
    }

    public static <InputT> VersionedDynamoDbSinkBuilder<InputT> builder() {
        return new VersionedDynamoDbSinkBuilder<>();
    }

    public VersionedSinkSettings settings() {
        return settings;
    }

    private AsyncSinkWriterConfiguration writerConfiguration() {
        return AsyncSinkWriterConfiguration.builder()
                .setMaxBatchSize(getMaxBatchSize())
                .setMaxBatchSizeInBytes(getMaxBatchSizeInBytes())
                .setMaxInFlightRequests(getMaxInFlightRequests())
                .setMaxBufferedRequests(getMaxBufferedRequests())
                .setMaxTimeInBufferMS(getMaxTimeInBufferMS())
                .setMaxRecordSizeInBytes(getMaxRecordSizeInBytes())
                .setRequestTimeoutMS(getRequestTimeoutMS())
                .setFailOnTimeout(getFailOnTimeout())
                .build();
    }

    private int clientConcurrency() {
        return settings.maxConcurrentWritesPerBatch() * getMaxInFlightRequests();
    }

    @Override
    @Deprecated
    public StatefulSink.StatefulSinkWriter<InputT, BufferedRequestState<VersionedWrite>>
            createWriter(InitContext context) {
        return restoreWriter(context, List.of());
    }

    @Override
    @Deprecated
    public StatefulSink.StatefulSinkWriter<InputT, BufferedRequestState<VersionedWrite>>
            restoreWriter(
                    InitContext context,
                    Collection<BufferedRequestState<VersionedWrite>> recoveredState) {
        return new VersionedDynamoDbSinkWriter<>(
                getElementConverter(),
                context,
                writerConfiguration(),
                settings,
                clientProvider.create(clientConcurrency(), context.metricGroup()),
                recoveredState);
    }

    @Override
    public StatefulSink.StatefulSinkWriter<InputT, BufferedRequestState<VersionedWrite>>
            createWriter(WriterInitContext context) {
        return restoreWriter(context, List.of());
    }

    @Override
    public StatefulSink.StatefulSinkWriter<InputT, BufferedRequestState<VersionedWrite>>
            restoreWriter(
                    WriterInitContext context,
                    Collection<BufferedRequestState<VersionedWrite>> recoveredState) {
        return new VersionedDynamoDbSinkWriter<>(
                getElementConverter(),
                context,
                writerConfiguration(),
                settings,
                clientProvider.create(clientConcurrency(), context.metricGroup()),
                recoveredState);
    }

    @Override
    public SimpleVersionedSerializer<BufferedRequestState<VersionedWrite>>
            getWriterStateSerializer() {
        return new VersionedWriteStateSerializer();
    }
}
