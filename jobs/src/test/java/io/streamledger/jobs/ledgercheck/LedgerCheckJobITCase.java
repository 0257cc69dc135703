package io.streamledger.jobs.ledgercheck;

import static org.assertj.core.api.Assertions.assertThat;

import io.streamledger.jobs.it.CollectSink;
import io.streamledger.jobs.source.ParseChanges;
import io.streamledger.jobs.source.SourceDeadLetter;
import io.streamledger.jobs.testing.TestRecords;
import java.util.List;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.junit.jupiter.api.Test;

/**
 * The ledger-check job on a MiniCluster with test sinks (no endpoint): an unreadable record reaches
 * the dead-letter sink with its reason and position, the job goes on and ends cleanly (CS08).
 */
class LedgerCheckJobITCase {

    @Test
    void unreadableRecordsAreDeadLetteredAndTheJobGoesOn() throws Exception {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.getConfig().disableGenericTypes();
        env.setParallelism(1);
        new LedgerCheckJob(
                        TestRecords.source(
                                List.of(
                                        TestRecords.kinesis(7, "\u0001binary?"),
                                        TestRecords.kinesis(8, "[]"))),
                        new CollectSink<>("ledgercheck-it-breaks"),
                        new CollectSink<>("ledgercheck-it-dead"),
                        new Configuration())
                .build(env);
        env.execute("ledgercheck-job-it");

        assertThat(CollectSink.<Object>values("ledgercheck-it-breaks")).isEmpty();
        assertThat(CollectSink.<SourceDeadLetter>values("ledgercheck-it-dead"))
                .extracting(SourceDeadLetter::getReason, SourceDeadLetter::getSequenceNumber)
                .containsExactlyInAnyOrder(
                        org.assertj.core.groups.Tuple.tuple(ParseChanges.UNPARSEABLE, "7"),
                        org.assertj.core.groups.Tuple.tuple(ParseChanges.UNPARSEABLE, "8"));
    }
}
