package io.streamledger.jobs.source;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.apache.flink.api.common.eventtime.Watermark;
import org.apache.flink.api.connector.source.ReaderOutput;
import org.apache.flink.api.connector.source.SourceOutput;
import org.apache.flink.api.connector.source.SourceReader;
import org.apache.flink.api.connector.source.SourceSplit;
import org.apache.flink.core.io.InputStatus;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.SimpleCounter;
import org.apache.flink.metrics.groups.UnregisteredMetricsGroup;
import org.junit.jupiter.api.Test;

/** The idle pause around connector 4.3.0's Kinesis reader: only a round of empty polls waits. */
class IdlePacedReaderTest {

    private final ScriptedReader delegate = new ScriptedReader();
    private final Deque<CompletableFuture<Void>> timers = new ArrayDeque<>();
    private final SimpleCounter pauses = new SimpleCounter();
    private final IdlePacedReader<String, Split> reader =
            new IdlePacedReader<>(
                    delegate,
                    Duration.ofMillis(200),
                    d -> {
                        CompletableFuture<Void> f = new CompletableFuture<>();
                        timers.add(f);
                        return f;
                    },
                    new UnregisteredMetricsGroup() {
                        @Override
                        public Counter counter(String name) {
                            return name.equals(IdlePacedReader.IDLE_PAUSES)
                                    ? pauses
                                    : super.counter(name);
                        }
                    });
    private final Collecting output = new Collecting();

    @Test
    void aPollThatFindsNothingWaitsForThePauseThenForTheReader() throws Exception {
        delegate.script.add(Step.NOTHING);

        assertThat(reader.pollNext(output)).isEqualTo(InputStatus.NOTHING_AVAILABLE);

        CompletableFuture<Void> available = reader.isAvailable();
        assertThat(available).isNotDone(); // the delegate is available, the pause is not over
        assertThat(pauses.getCount()).isEqualTo(1);
        timers.remove().complete(null);
        assertThat(available).isDone();
        assertThat(reader.isAvailable()).isSameAs(delegate.available);
    }

    @Test
    void aPollThatEmittedARecordNeverPausesWhicheverOutputItUsed() throws Exception {
        delegate.script.add(Step.EMIT_ON_SPLIT_THEN_NOTHING);
        delegate.script.add(Step.EMIT_ON_MAIN_THEN_NOTHING);

        assertThat(reader.pollNext(output)).isEqualTo(InputStatus.NOTHING_AVAILABLE);
        assertThat(reader.isAvailable()).isSameAs(delegate.available);
        assertThat(reader.pollNext(output)).isEqualTo(InputStatus.NOTHING_AVAILABLE);
        assertThat(reader.isAvailable()).isSameAs(delegate.available);

        assertThat(output.records).containsExactly("split:r", "main:r");
        assertThat(timers).isEmpty();
        assertThat(pauses.getCount()).isZero();
    }

    @Test
    void moreAvailableNeverPausesAndANewPollAfterAPauseStartsClean() throws Exception {
        delegate.script.add(Step.NOTHING);
        delegate.script.add(Step.MORE);
        delegate.script.add(Step.EMIT_ON_MAIN_THEN_NOTHING);

        reader.pollNext(output);
        timers.remove().complete(null);
        assertThat(reader.pollNext(output)).isEqualTo(InputStatus.MORE_AVAILABLE);
        assertThat(reader.isAvailable()).isSameAs(delegate.available);
        reader.pollNext(output);
        assertThat(reader.isAvailable()).isSameAs(delegate.available);
        assertThat(pauses.getCount()).isEqualTo(1);
    }

    @Test
    void withTwoShardsItPausesOnlyAfterTwoEmptyPollsInARow() throws Exception {
        reader.addSplits(List.of(new Split("shard-1"), new Split("shard-2")));
        delegate.script.add(Step.NOTHING);
        delegate.script.add(Step.EMIT_ON_MAIN_THEN_NOTHING); // a record resets the round
        delegate.script.add(Step.NOTHING);
        delegate.script.add(Step.NOTHING);

        reader.pollNext(output);
        reader.pollNext(output);
        reader.pollNext(output);
        assertThat(reader.isAvailable()).isSameAs(delegate.available);
        reader.pollNext(output);
        assertThat(reader.isAvailable()).isNotDone();
        assertThat(pauses.getCount()).isEqualTo(1);
    }

    @Test
    void aCheckpointCorrectsTheShardCountWhenAShardFinished() throws Exception {
        reader.addSplits(List.of(new Split("shard-1"), new Split("shard-2")));
        delegate.splits.remove(0); // read to its end after a reshard
        reader.snapshotState(3);
        delegate.script.add(Step.NOTHING);

        reader.pollNext(output);
        assertThat(reader.isAvailable()).isNotDone();
    }

    @Test
    void splitsAndCheckpointsAreTheDelegates() throws Exception {
        reader.addSplits(List.of(new Split("shard-1")));
        assertThat(reader.snapshotState(7)).extracting(Split::splitId).containsExactly("shard-1");
        reader.notifyCheckpointComplete(7);
        assertThat(delegate.completed).containsExactly(7L);
    }

    private enum Step {
        NOTHING,
        MORE,
        EMIT_ON_MAIN_THEN_NOTHING,
        EMIT_ON_SPLIT_THEN_NOTHING
    }

    private record Split(String splitId) implements SourceSplit {}

    private static final class ScriptedReader implements SourceReader<String, Split> {
        final Deque<Step> script = new ArrayDeque<>();
        final CompletableFuture<Void> available = CompletableFuture.completedFuture(null);
        final List<Split> splits = new ArrayList<>();
        final List<Long> completed = new ArrayList<>();

        @Override
        public void start() {}

        @Override
        public InputStatus pollNext(ReaderOutput<String> output) {
            switch (script.remove()) {
                case MORE:
                    return InputStatus.MORE_AVAILABLE;
                case EMIT_ON_MAIN_THEN_NOTHING:
                    output.collect("main:r");
                    return InputStatus.NOTHING_AVAILABLE;
                case EMIT_ON_SPLIT_THEN_NOTHING:
                    output.createOutputForSplit("shard-1").collect("split:r", 1L);
                    return InputStatus.NOTHING_AVAILABLE;
                default:
                    return InputStatus.NOTHING_AVAILABLE;
            }
        }

        @Override
        public List<Split> snapshotState(long checkpointId) {
            return List.copyOf(splits);
        }

        @Override
        public CompletableFuture<Void> isAvailable() {
            return available;
        }

        @Override
        public void addSplits(List<Split> s) {
            splits.addAll(s);
        }

        @Override
        public void notifyNoMoreSplits() {}

        @Override
        public void notifyCheckpointComplete(long checkpointId) {
            completed.add(checkpointId);
        }

        @Override
        public void close() {}
    }

    private static final class Collecting implements ReaderOutput<String> {
        final List<String> records = new ArrayList<>();

        @Override
        public void collect(String record) {
            records.add(record);
        }

        @Override
        public void collect(String record, long timestamp) {
            records.add(record);
        }

        @Override
        public void emitWatermark(Watermark watermark) {}

        @Override
        public void markIdle() {}

        @Override
        public void markActive() {}

        @Override
        public SourceOutput<String> createOutputForSplit(String splitId) {
            return this;
        }

        @Override
        public void releaseOutputForSplit(String splitId) {}
    }
}
