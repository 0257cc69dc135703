package io.streamledger.jobs.projection;

import io.streamledger.operators.gate.DeadLetter;
import io.streamledger.operators.gate.GapBreak;
import io.streamledger.operators.projection.ProjectionUpdate;
import java.io.Serializable;
import org.apache.flink.api.connector.sink2.Sink;

/**
 * Where the projection job writes (STYLE habit 2: sinks are arguments): view rows, checkpoint rows,
 * gap breaks (until the reconciliation table exists, AP15) and gate dead letters.
 */
public interface ProjectionSinks extends Serializable {

    Sink<ProjectionUpdate> viewRows();

    Sink<ProjectionUpdate> checkpointRows();

    Sink<GapBreak> gapBreaks();

    Sink<DeadLetter> deadLetters();
}
