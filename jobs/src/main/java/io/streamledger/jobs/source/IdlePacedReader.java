package io.streamledger.jobs.source;

import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.apache.flink.api.common.eventtime.Watermark;
import org.apache.flink.api.connector.source.ReaderOutput;
import org.apache.flink.api.connector.source.SourceEvent;
import org.apache.flink.api.connector.source.SourceOutput;
import org.apache.flink.api.connector.source.SourceReader;
import org.apache.flink.api.connector.source.SourceSplit;
import org.apache.flink.core.io.InputStatus;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.MetricGroup;

/**
 * Delegates to a source reader and, once a round of polls as long as its split count emitted
 * nothing (every shard asked once and found empty), reports itself unavailable for {@code pause}:
 * the task thread waits instead of draining empty fetches, and the reader's fetcher, whose
 * hand-over queue fills, stops calling the service until the pause ends. Each idle shard is so
 * asked about once per pause (Kinesis allows 5 GetRecords per shard and second); a poll that
 * emitted a record resets the round, so a busy stream is read as before.
 */
final class IdlePacedReader<T, S extends SourceSplit> implements SourceReader<T, S> {

    /** Counter of pauses taken (one per idle round). */
    static final String IDLE_PAUSES = "idlePauses";

    private final SourceReader<T, S> delegate;
    private final Duration pause;
    private final Function<Duration, CompletableFuture<Void>> timer;
    private final Counter pauses;
    private final EmissionTracker<T> tracker = new EmissionTracker<>();
    private CompletableFuture<Void> paused;
    private int splits; // assigned splits: added ones, corrected by every checkpoint's snapshot
    private int emptyPolls;

    IdlePacedReader(
            SourceReader<T, S> delegate,
            Duration pause,
            Function<Duration, CompletableFuture<Void>> timer,
            MetricGroup metrics) {
        this.delegate = delegate;
        this.pause = pause;
        this.timer = timer;
        this.pauses = metrics.counter(IDLE_PAUSES);
    }

    /** Completes after the duration on the JDK's delay scheduler. */
    static Function<Duration, CompletableFuture<Void>> wallClockTimer() {
        return d ->
                CompletableFuture.runAsync(
                        () -> {},
                        CompletableFuture.delayedExecutor(d.toMillis(), TimeUnit.MILLISECONDS));
    }

    @Override
    public void start() {
        delegate.start();
    }

    @Override
    public InputStatus pollNext(ReaderOutput<T> output) throws Exception {
        InputStatus status = delegate.pollNext(tracker.wrap(output));
        if (tracker.emittedSinceReset()) {
            emptyPolls = 0;
        } else if (status == InputStatus.NOTHING_AVAILABLE && ++emptyPolls >= Math.max(1, splits)) {
            emptyPolls = 0;
            paused = timer.apply(pause);
            pauses.inc();
        }
        tracker.reset();
        return status;
    }

    @Override
    public CompletableFuture<Void> isAvailable() {
        CompletableFuture<Void> p = paused;
        if (p == null) {
            return delegate.isAvailable();
        }
        if (p.isDone()) {
            paused = null;
            return delegate.isAvailable();
        }
        return p.thenCompose(v -> delegate.isAvailable());
    }

    @Override
    public List<S> snapshotState(long checkpointId) {
        List<S> state = delegate.snapshotState(checkpointId);
        splits = state.size(); // finished (closed, read to the end) shards drop out here
        return state;
    }

    @Override
    public void addSplits(List<S> added) {
        splits += added.size();
        delegate.addSplits(added);
    }

    @Override
    public void notifyNoMoreSplits() {
        delegate.notifyNoMoreSplits();
    }

    @Override
    public void handleSourceEvents(SourceEvent sourceEvent) {
        delegate.handleSourceEvents(sourceEvent);
    }

    @Override
    public void pauseOrResumeSplits(
            Collection<String> splitsToPause, Collection<String> splitsToResume) {
        delegate.pauseOrResumeSplits(splitsToPause, splitsToResume);
    }

    @Override
    public void notifyCheckpointComplete(long checkpointId) throws Exception {
        delegate.notifyCheckpointComplete(checkpointId);
    }

    @Override
    public void notifyCheckpointAborted(long checkpointId) throws Exception {
        delegate.notifyCheckpointAborted(checkpointId);
    }

    @Override
    public void close() throws Exception {
        delegate.close();
    }

    /** Remembers whether any record went out through the reader's output or a split's output. */
    static final class EmissionTracker<T> {
        private boolean emitted;
        private ReaderOutput<T> wrappedFor;
        private ReaderOutput<T> wrapper;

        boolean emittedSinceReset() {
            return emitted;
        }

        void reset() {
            emitted = false;
        }

        ReaderOutput<T> wrap(ReaderOutput<T> output) {
            if (output != wrappedFor) { // the task passes the same output on every poll
                wrappedFor = output;
                wrapper = new TrackingReaderOutput(output);
            }
            return wrapper;
        }

        private final class TrackingReaderOutput extends TrackingSourceOutput
                implements ReaderOutput<T> {
            private final ReaderOutput<T> reader;
            private final Map<String, SourceOutput<T>> splitOutputs = new HashMap<>();

            TrackingReaderOutput(ReaderOutput<T> reader) {
                super(reader);
                this.reader = reader;
            }

            @Override
            public SourceOutput<T> createOutputForSplit(String splitId) {
                return splitOutputs.computeIfAbsent(
                        splitId, id -> new TrackingSourceOutput(reader.createOutputForSplit(id)));
            }

            @Override
            public void releaseOutputForSplit(String splitId) {
                splitOutputs.remove(splitId);
                reader.releaseOutputForSplit(splitId);
            }
        }

        private class TrackingSourceOutput implements SourceOutput<T> {
            private final SourceOutput<T> out;

            TrackingSourceOutput(SourceOutput<T> out) {
                this.out = out;
            }

            @Override
            public void collect(T record) {
                emitted = true;
                out.collect(record);
            }

            @Override
            public void collect(T record, long timestamp) {
                emitted = true;
                out.collect(record, timestamp);
            }

            @Override
            public void emitWatermark(Watermark watermark) {
                out.emitWatermark(watermark);
            }

            @Override
            public void markIdle() {
                out.markIdle();
            }

            @Override
            public void markActive() {
                out.markActive();
            }
        }
    }
}
