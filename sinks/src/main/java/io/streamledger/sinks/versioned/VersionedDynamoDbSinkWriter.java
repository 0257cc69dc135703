package io.streamledger.sinks.versioned;

import io.streamledger.sinks.client.ItemWriteClient;
import java.util.Collection;
import java.util.List;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.sink2.WriterInitContext;
import org.apache.flink.connector.base.sink.writer.AsyncSinkWriter;
import org.apache.flink.connector.base.sink.writer.BufferedRequestState;
import org.apache.flink.connector.base.sink.writer.ElementConverter;
import org.apache.flink.connector.base.sink.writer.ResultHandler;
import org.apache.flink.connector.base.sink.writer.config.AsyncSinkWriterConfiguration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The versioned sink's writer (seed CS06/AP13): AsyncSinkWriter buffering, batching, in-flight
 * limits and state, with each batch sent by {@link VersionedBatchSubmitter}.
 *
 * <p>Flink calls {@code flush(false)} before a checkpoint barrier, which only waits for in-flight
 * requests and snapshots the rest of the buffer. With {@code flushOnCheckpoint} (the default) the
 * writer drains its buffer too, so a completed checkpoint means its writes are in DynamoDB and the
 * state stays small; without it the buffered writes are replayed from state after a restore, which
 * the guard makes harmless.
 */
final class VersionedDynamoDbSinkWriter<InputT> extends AsyncSinkWriter<InputT, VersionedWrite> {
    private static final Logger LOG = LoggerFactory.getLogger(VersionedDynamoDbSinkWriter.class);

    private final VersionedBatchSubmitter submitter;
    private final VersionedSinkMetrics metrics;

    /** Table of the last batch, to name this writer in its closing line. */
    private volatile String table = "?";

    private final WriteGuard guard;
    private final boolean flushOnCheckpoint;

    VersionedDynamoDbSinkWriter(
            ElementConverter<InputT, VersionedWrite> converter,
            WriterInitContext context,
            AsyncSinkWriterConfiguration configuration,
            VersionedSinkSettings settings,
            ItemWriteClient client,
            Collection<BufferedRequestState<VersionedWrite>> states) {
        super(converter, context, configuration, states);
        this.guard = settings.guard();
        this.flushOnCheckpoint = settings.flushOnCheckpoint();
        this.metrics = new VersionedSinkMetrics(context.metricGroup());
        this.submitter = new VersionedBatchSubmitter(client, settings, metrics);
    }

    VersionedDynamoDbSinkWriter(
            ElementConverter<InputT, VersionedWrite> converter,
            Sink.InitContext context,
            AsyncSinkWriterConfiguration configuration,
            VersionedSinkSettings settings,
            ItemWriteClient client,
            Collection<BufferedRequestState<VersionedWrite>> states) {
        super(converter, context, configuration, states);
        this.guard = settings.guard();
        this.flushOnCheckpoint = settings.flushOnCheckpoint();
        this.metrics = new VersionedSinkMetrics(context.metricGroup());
        this.submitter = new VersionedBatchSubmitter(client, settings, metrics);
    }

    @Override
    protected void submitRequestEntries(
            List<VersionedWrite> requestEntries, ResultHandler<VersionedWrite> resultHandler) {
        table = requestEntries.get(0).tableName();
        submitter.submit(requestEntries, resultHandler);
    }

    @Override
    protected long getSizeInBytes(VersionedWrite requestEntry) {
        return ItemSizeEstimator.sizeOf(requestEntry, guard);
    }

    @Override
    public void flush(boolean endOfInput) throws InterruptedException {
        super.flush(endOfInput || flushOnCheckpoint);
    }

    @Override
    public void close() {
        // the writer's totals once, so a run's write units per event can be read from its log
        LOG.info(
                "versioned sink writer for {} closing: {} applied writes, {} write units, {} stale,"
                        + " {} coalesced, {} retries",
                table,
                metrics.appliedWrites(),
                metrics.consumedWriteUnits(),
                metrics.staleWrites(),
                metrics.coalescedWrites(),
                metrics.retries());
        submitter.close();
    }
}
