package io.streamledger.jobs.source;

import java.time.Duration;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.connector.source.Boundedness;
import org.apache.flink.api.connector.source.Source;
import org.apache.flink.api.connector.source.SourceReader;
import org.apache.flink.api.connector.source.SourceReaderContext;
import org.apache.flink.api.connector.source.SourceSplit;
import org.apache.flink.api.connector.source.SplitEnumerator;
import org.apache.flink.api.connector.source.SplitEnumeratorContext;
import org.apache.flink.api.java.typeutils.ResultTypeQueryable;
import org.apache.flink.core.io.SimpleVersionedSerializer;

/**
 * A source whose readers pause after a round of polls that found nothing ({@link IdlePacedReader});
 * splits, enumerator and their serializers are the wrapped source's, so its state and uid are
 * unchanged. For {@code KinesisStreamsSource} 4.3.0, whose polling reader calls GetRecords in a
 * loop with no wait on an idle shard (FLINK-36947, fixed only in connector 5.x): CPU and GetRecords
 * throttling on every idle shard.
 */
public final class IdlePacedSource<T, S extends SourceSplit, E>
        implements Source<T, S, E>, ResultTypeQueryable<T> {
    private static final long serialVersionUID = 1L;

    private final Source<T, S, E> delegate;
    private final TypeInformation<T> type;
    private final long pauseMillis;

    public IdlePacedSource(Source<T, S, E> delegate, TypeInformation<T> type, Duration pause) {
        if (pause.isNegative()) {
            throw new IllegalArgumentException("pause must not be negative: " + pause);
        }
        this.delegate = delegate;
        this.type = type;
        this.pauseMillis = pause.toMillis();
    }

    @Override
    public Boundedness getBoundedness() {
        return delegate.getBoundedness();
    }

    @Override
    public SourceReader<T, S> createReader(SourceReaderContext context) throws Exception {
        SourceReader<T, S> reader = delegate.createReader(context);
        return pauseMillis == 0
                ? reader
                : new IdlePacedReader<>(
                        reader,
                        Duration.ofMillis(pauseMillis),
                        IdlePacedReader.wallClockTimer(),
                        context.metricGroup());
    }

    @Override
    public SplitEnumerator<S, E> createEnumerator(SplitEnumeratorContext<S> context)
            throws Exception {
        return delegate.createEnumerator(context);
    }

    @Override
    public SplitEnumerator<S, E> restoreEnumerator(SplitEnumeratorContext<S> context, E checkpoint)
            throws Exception {
        return delegate.restoreEnumerator(context, checkpoint);
    }

    @Override
    public SimpleVersionedSerializer<S> getSplitSerializer() {
        return delegate.getSplitSerializer();
    }

    @Override
    public SimpleVersionedSerializer<E> getEnumeratorCheckpointSerializer() {
        return delegate.getEnumeratorCheckpointSerializer();
    }

    @Override
    public TypeInformation<T> getProducedType() {
        return type;
    }
}
