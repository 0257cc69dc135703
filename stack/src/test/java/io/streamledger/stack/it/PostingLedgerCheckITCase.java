package io.streamledger.stack.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.streamledger.jobs.config.JobOptions;
import io.streamledger.jobs.it.CollectSink;
import io.streamledger.jobs.ledgercheck.LedgerCheckJob;
import io.streamledger.jobs.posting.PostingJob;
import io.streamledger.jobs.recon.ReconOptions;
import io.streamledger.jobs.source.ChangeSources;
import io.streamledger.model.change.OutboxEventCodec;
import io.streamledger.model.table.Tables;
import io.streamledger.operators.recon.BreakRecord;
import io.streamledger.sinks.posting.PostingTransactionSink;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.apache.flink.api.common.restartstrategy.RestartStrategies;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.runtime.testutils.InMemoryReporter;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.services.dynamodb.model.Put;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;

/**
 * The ledger-check job (CS11) over a ledger written by the real posting job (not by the test): the
 * checks must find nothing wrong with it.
 */
class PostingLedgerCheckITCase {

    private static final InMemoryReporter METRICS = InMemoryReporter.createWithRetainedMetrics();

    @RegisterExtension
    static final MiniClusterExtension CLUSTER =
            new MiniClusterExtension(
                    new org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration
                                    .Builder()
                            .setConfiguration(METRICS.addToConfiguration(new Configuration()))
                            .setNumberTaskManagers(1)
                            .setNumberSlotsPerTaskManager(2)
                            .build());

    /** Every ledger-check deadline (txn, control, gap). */
    private static final Duration SLA = Duration.ofSeconds(3);

    private LocalStack stack;

    @BeforeEach
    void start() {
        stack = new LocalStack("plc" + UUID.randomUUID().toString().substring(0, 8) + "_", false);
    }

    @AfterEach
    void stop() {
        stack.close();
    }

    @Test
    void postingJobLedgerPassesEveryCheck() throws Exception {
        Workload w = new Workload(31, 2, 4, 3, 60, 4);
        String ctx = stack.table(Tables.CONTEXT);
        int f = 0;
        for (int o = 0; o < w.orderAccepted.size(); o++) {
            List<TransactWriteItem> tx = new ArrayList<>();
            tx.add(put(ctx, LocalStack.sdk(OutboxEventCodec.toItem(w.orderAccepted.get(o)))));
            for (int k = 0; k < 3 && f < w.fills.size(); k++, f++) {
                tx.add(put(ctx, LocalStack.sdk(OutboxEventCodec.toItem(w.fills.get(f).event()))));
            }
            stack.ddb.transactWriteItems(b -> b.transactItems(tx));
        }

        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(2);
        env.enableCheckpointing(500);
        env.setRestartStrategy(RestartStrategies.fixedDelayRestart(3, 200));
        Configuration postingConf = stack.configReading(Tables.CONTEXT);
        postingConf.set(JobOptions.POSTING_BACKOFF_BASE, Duration.ofMillis(5));
        new PostingJob(
                        ChangeSources.fromConfig(postingConf, PostingJob.ROLE),
                        new PostingJob.Sinks(
                                new PostingTransactionSink(PostingJob.settings(postingConf)),
                                new CollectSink<>("postingRejected"),
                                new CollectSink<>("postingDeadLetters"),
                                new CollectSink<>("postingGapBreaks"),
                                new CollectSink<>("postingGateDeadLetters")),
                        postingConf)
                .build(env);
        Configuration checkConf = stack.configReading(Tables.LEDGER);
        checkConf.set(ReconOptions.TXN_SLA, SLA);
        checkConf.set(ReconOptions.CONTROL_SLA, SLA);
        checkConf.set(ReconOptions.GAP_SLA, SLA);
        // a quiet ledger shard is caught up after 3 s: the watermark reaches the last deadlines
        checkConf.set(JobOptions.IDLE_SOURCE_TIMEOUT, Duration.ofSeconds(3));
        checkConf.set(JobOptions.WATERMARK_OUT_OF_ORDERNESS, Duration.ofSeconds(1));
        // the workload never funds its client accounts ("acct-*") and the posting job books fills
        // as facts without an available-balance policy, so those go negative by design: with the
        // default policy every such version is a NEGATIVE_AVAILABLE break (seen: 10+ here)
        checkConf.set(ReconOptions.OVERDRAFT_EXEMPT, "HOUSE-,acct-");
        new LedgerCheckJob(
                        ChangeSources.fromConfig(checkConf, LedgerCheckJob.ROLE),
                        new CollectSink<BreakRecord>("ledgerBreaks"),
                        new CollectSink<>("ledgerDeadLetters"),
                        checkConf)
                .build(env)
                .facts()
                .sinkTo(new CollectSink<>("ledgerFacts"));
        JobClient job = env.executeAsync("posting-ledgercheck-it");
        try {
            long deadline = System.nanoTime() + Duration.ofSeconds(90).toNanos();
            while (stack.scan(stack.table(Tables.INBOX)).size() < w.fills.size()) {
                assertThat(System.nanoTime()).as("posting converged").isLessThan(deadline);
                assertThat(job.getJobStatus().get().isGloballyTerminalState()).isFalse();
                Thread.sleep(500);
            }
            // every ledger change was written by then; past it + the SLA every deadline fired
            InputWatermarks.await(
                    METRICS,
                    job,
                    LedgerCheckJob.BREAK_SINK_NAME,
                    Instant.now().plus(SLA),
                    Duration.ofSeconds(60));
        } finally {
            if (!job.getJobStatus().get().isGloballyTerminalState()) {
                job.cancel().get();
            }
        }
        List<BreakRecord> breaks = new ArrayList<>(CollectSink.<BreakRecord>values("ledgerBreaks"));
        assertThat(CollectSink.<Object>values("ledgerDeadLetters"))
                .as("ledger dead letters")
                .isEmpty();
        assertThat(breaks).as(breaks.toString()).isEmpty();
        long postings =
                stack.scan(stack.table(Tables.LEDGER)).stream()
                        .filter(i -> i.get("SK").s().startsWith("POST#"))
                        .count();
        assertThat(postings).isGreaterThan(100);
        assertThat(CollectSink.values("ledgerFacts").size()).isGreaterThan((int) postings);
    }

    private static TransactWriteItem put(
            String table,
            java.util.Map<String, software.amazon.awssdk.services.dynamodb.model.AttributeValue>
                    item) {
        return TransactWriteItem.builder()
                .put(Put.builder().tableName(table).item(item).build())
                .build();
    }
}
