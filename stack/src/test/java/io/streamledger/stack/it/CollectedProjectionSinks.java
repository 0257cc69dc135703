package io.streamledger.stack.it;

import io.streamledger.jobs.it.CollectSink;
import io.streamledger.jobs.projection.ProjectionSinks;
import io.streamledger.jobs.source.SourceDeadLetter;
import io.streamledger.operators.gate.DeadLetter;
import io.streamledger.operators.gate.GapBreak;
import io.streamledger.operators.projection.ProjectionUpdate;
import org.apache.flink.api.connector.sink2.Sink;

/**
 * The projection job's production view and IDX12 checkpoint sinks (AP07/AP13) with its gap breaks
 * and dead letters collected under the given names, so a test reads them back.
 */
record CollectedProjectionSinks(
        ProjectionSinks prod,
        String gapBreakSink,
        String gateDeadLetterSink,
        String sourceDeadLetterSink)
        implements ProjectionSinks {

    @Override
    public Sink<ProjectionUpdate> viewRows() {
        return prod.viewRows();
    }

    @Override
    public Sink<ProjectionUpdate> checkpointRows() {
        return prod.checkpointRows();
    }

    @Override
    public Sink<GapBreak> gapBreaks() {
        return new CollectSink<>(gapBreakSink);
    }

    @Override
    public Sink<DeadLetter> deadLetters() {
        return new CollectSink<>(gateDeadLetterSink);
    }

    @Override
    public Sink<SourceDeadLetter> sourceDeadLetters() {
        return new CollectSink<>(sourceDeadLetterSink);
    }
}
