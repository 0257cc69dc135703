package io.streamledger.jobs.projection;

import io.streamledger.jobs.source.SourceDeadLetter;
import io.streamledger.operators.gate.DeadLetter;
import io.streamledger.operators.gate.GapBreak;
import io.streamledger.operators.gate.ParkedGap;
import io.streamledger.operators.projection.ProjectionUpdate;
import java.io.Serializable;
import org.apache.flink.api.connector.sink2.Sink;

/**
 * Where the projection job writes (AP07/AP13/AP15, CS08): view rows, checkpoint rows, gap breaks,
 * gate dead letters and source dead letters.
 */
public interface ProjectionSinks extends Serializable {

    Sink<ProjectionUpdate> viewRows();

    Sink<ProjectionUpdate> checkpointRows();

    Sink<GapBreak> gapBreaks();

    Sink<DeadLetter> deadLetters();

    Sink<SourceDeadLetter> sourceDeadLetters();

    /** The gate's parked-gap records (CS07); null leaves them and the skip source out. */
    default Sink<ParkedGap> parkedGaps() {
        return null;
    }
}
