package io.streamledger.jobs.posting;

import static org.assertj.core.api.Assertions.assertThat;

import io.streamledger.jobs.config.JobOptions;
import io.streamledger.jobs.it.CollectSink;
import io.streamledger.jobs.source.ParseChanges;
import io.streamledger.jobs.source.SourceDeadLetter;
import io.streamledger.jobs.testing.TestRecords;
import io.streamledger.operators.posting.PostingOutcome;
import io.streamledger.operators.posting.PostingStatus;
import io.streamledger.operators.posting.TradeFill;
import java.util.List;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.junit.jupiter.api.Test;

/**
 * The posting job on a MiniCluster with test sinks only (no endpoint): postable fills reach the
 * effect sink keyed by lane, a fill the rules reject reaches the rejected sink with its reason and
 * payload, and an unreadable record the source dead-letter sink (AP09/AP10, CS08).
 */
class PostingJobITCase {

    @Test
    void everyRecordEndsInExactlyOneOfItsSinks() throws Exception {
        Configuration conf = new Configuration();
        conf.set(JobOptions.TRANSPORT, JobOptions.TransportKind.KINESIS);
        conf.set(JobOptions.KINESIS_PAYLOAD, JobOptions.KinesisPayload.OUTBOX_EVENT);
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.getConfig().disableGenericTypes();
        env.setParallelism(2);
        new PostingJob(
                        TestRecords.source(
                                List.of(
                                        TestRecords.kinesis(
                                                1,
                                                TestRecords.tradeExecuted(
                                                        "e-1", "t1", "acct-1", "BUY", "10",
                                                        "100.25")),
                                        TestRecords.kinesis(2, "not json at all"),
                                        TestRecords.kinesis(
                                                3,
                                                TestRecords.tradeExecuted(
                                                        "e-3", "t1", "acct-2", "BUY", "0",
                                                        "100.25")),
                                        TestRecords.kinesis(
                                                4,
                                                TestRecords.tradeExecuted(
                                                        "e-4", "t2", "acct-1", "SELL", "5",
                                                        "99.5")))),
                        new PostingJob.Sinks(
                                new CollectSink<>("posting-it-postings"),
                                new CollectSink<>("posting-it-rejected"),
                                new CollectSink<>("posting-it-dead"),
                                new CollectSink<>("posting-it-gap-breaks"),
                                new CollectSink<>("posting-it-gate-dead")),
                        conf)
                .build(env);
        env.execute("posting-job-it");

        assertThat(CollectSink.<TradeFill>values("posting-it-postings"))
                .extracting(TradeFill::getEventId)
                .containsExactlyInAnyOrder("e-1", "e-4");
        assertThat(CollectSink.<PostingOutcome>values("posting-it-rejected"))
                .singleElement()
                .satisfies(
                        o -> {
                            assertThat(o.getEventId()).isEqualTo("e-3");
                            assertThat(o.getStatus()).isEqualTo(PostingStatus.REJECTED);
                            assertThat(o.getReason()).contains("quantity");
                            assertThat(o.getPayload()).contains("\"eventId\":\"e-3\"");
                        });
        assertThat(CollectSink.<SourceDeadLetter>values("posting-it-dead"))
                .singleElement()
                .satisfies(
                        d -> {
                            assertThat(d.getReason()).isEqualTo(ParseChanges.UNPARSEABLE);
                            assertThat(d.getPayload()).isEqualTo("not json at all");
                            assertThat(d.getSequenceNumber()).isEqualTo("2");
                        });
    }
}
