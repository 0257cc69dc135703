package io.streamledger.sinks.posting;

import io.streamledger.operators.posting.TradeFill;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.sink2.SinkWriter;
import org.apache.flink.api.connector.sink2.WriterInitContext;

/**
 * The posting job's effect sink (AP09 + AP10 + AP12): each fill becomes ONE TransactWriteItems of
 * its inbox receipt, balanced posting rows, account-month counters and authority deltas, planned by
 * {@link io.streamledger.operators.posting.PostingTransactionPlan} and written by {@link
 * PostingTransactionWriter}: per lane in arrival order, lanes concurrently, and every fill written
 * before a checkpoint barrier passes. Give it a stream keyed by {@link
 * io.streamledger.operators.posting.PostingLane} so one subtask owns a lane.
 */
public final class PostingTransactionSink implements Sink<TradeFill> {

    private static final long serialVersionUID = 1L;

    private final PostingSettings settings;
    private final PostingOutcomeListener listener;

    public PostingTransactionSink(PostingSettings settings, PostingOutcomeListener listener) {
        this.settings = settings;
        this.listener = listener;
    }

    public PostingTransactionSink(PostingSettings settings) {
        this(settings, PostingOutcomeListener.NONE);
    }

    public PostingSettings settings() {
        return settings;
    }

    @Override
    @Deprecated
    public SinkWriter<TradeFill> createWriter(InitContext context) {
        return new PostingTransactionWriter(settings, listener, context.metricGroup());
    }

    @Override
    public SinkWriter<TradeFill> createWriter(WriterInitContext context) {
        return new PostingTransactionWriter(settings, listener, context.metricGroup());
    }
}
