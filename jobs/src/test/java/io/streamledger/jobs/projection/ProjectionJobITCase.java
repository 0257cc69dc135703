package io.streamledger.jobs.projection;

import static org.assertj.core.api.Assertions.assertThat;

import io.streamledger.jobs.it.CollectSink;
import io.streamledger.jobs.source.ParseChanges;
import io.streamledger.jobs.source.SourceDeadLetter;
import io.streamledger.jobs.testing.TestRecords;
import io.streamledger.operators.gate.DeadLetter;
import io.streamledger.operators.gate.GapBreak;
import io.streamledger.operators.projection.ProjectionUpdate;
import java.util.List;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.junit.jupiter.api.Test;

/**
 * The projection job on a MiniCluster with test sinks (no endpoint): an unreadable Ledger record
 * reaches the source dead-letter sink; nothing reaches the view, checkpoint, break or gate sinks.
 */
class ProjectionJobITCase {

    @Test
    void sourceDeadLettersReachTheirSink() throws Exception {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.getConfig().disableGenericTypes();
        env.setParallelism(1);
        new ProjectionJob(
                        TestRecords.source(List.of(TestRecords.kinesis(3, "{\"eventID\":1}"))),
                        new ProjectionSinks() {
                            @Override
                            public Sink<ProjectionUpdate> viewRows() {
                                return new CollectSink<>("projection-it-view");
                            }

                            @Override
                            public Sink<ProjectionUpdate> checkpointRows() {
                                return new CollectSink<>("projection-it-checkpoints");
                            }

                            @Override
                            public Sink<GapBreak> gapBreaks() {
                                return new CollectSink<>("projection-it-breaks");
                            }

                            @Override
                            public Sink<DeadLetter> deadLetters() {
                                return new CollectSink<>("projection-it-gate-dead");
                            }

                            @Override
                            public Sink<SourceDeadLetter> sourceDeadLetters() {
                                return new CollectSink<>("projection-it-dead");
                            }
                        },
                        new Configuration())
                .build(env);
        env.execute("projection-job-it");

        assertThat(CollectSink.<SourceDeadLetter>values("projection-it-dead"))
                .extracting(SourceDeadLetter::getReason)
                .containsExactly(ParseChanges.UNPARSEABLE);
        for (String empty :
                List.of(
                        "projection-it-view",
                        "projection-it-checkpoints",
                        "projection-it-breaks",
                        "projection-it-gate-dead")) {
            assertThat(CollectSink.<Object>values(empty)).as(empty).isEmpty();
        }
    }
}
