package io.streamledger.jobs.recon;

import static org.assertj.core.api.Assertions.assertThat;

import io.streamledger.jobs.it.CollectSink;
import io.streamledger.jobs.source.ParseChanges;
import io.streamledger.jobs.source.SourceDeadLetter;
import io.streamledger.jobs.testing.TestRecords;
import io.streamledger.operators.recon.BreakRecord;
import io.streamledger.operators.recon.ReconBatch;
import io.streamledger.operators.recon.ReconReason;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.junit.jupiter.api.Test;

/**
 * The reconciliation job on a MiniCluster with test sinks and an in-memory position lookup (no
 * endpoint): a fill without its ledger transaction closes its window into a BREAKS batch and a
 * MISSING_LEDGER_TXN break; an unreadable record of either stream reaches the dead-letter sink.
 */
class ReconciliationJobITCase {

    @Test
    void batchesBreaksAndDeadLettersReachTheirSinks() throws Exception {
        Instant at = Instant.parse("2026-11-30T10:00:00Z");
        Map<String, String> trade = new LinkedHashMap<>();
        trade.put("PK", "TEN#t1#ORDER#o-1");
        trade.put("SK", "TRADE#2026-11-30T10:00:00.000Z#tr-1");
        trade.put("tenant", "t1");
        trade.put("tradeId", "tr-1");
        trade.put("account", "acct-1");
        trade.put("symbol", "NVDA");
        trade.put("side", "BUY");
        trade.put("quantity", "N:10");
        trade.put("price", "N:100.25");
        trade.put("currency", "USD");
        trade.put("executedAt", at.toString());
        Map<String, String> other = new LinkedHashMap<>();
        other.put("PK", "TEN#t1#ACCT#acct-1");
        other.put("SK", "COUNTER#x");
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.getConfig().disableGenericTypes();
        env.setParallelism(1);
        Configuration conf = new Configuration();
        new ReconciliationJob(
                        TestRecords.source(
                                List.of(
                                        TestRecords.kinesis(
                                                1,
                                                TestRecords.insert(
                                                        "x-1",
                                                        "Execution",
                                                        at.toEpochMilli(),
                                                        trade)),
                                        TestRecords.kinesis(2, "{\"broken\":"))),
                        TestRecords.source(
                                List.of(
                                        TestRecords.kinesis(
                                                1,
                                                TestRecords.insert(
                                                        "l-1",
                                                        "Ledger",
                                                        at.toEpochMilli(),
                                                        other)))),
                        new ReconciliationJob.Sinks(
                                new CollectSink<>("recon-it-batches"),
                                new CollectSink<>("recon-it-breaks"),
                                new CollectSink<>("recon-it-late"),
                                new CollectSink<>("recon-it-dead")),
                        (tenant, account, symbol) -> null,
                        conf)
                .build(env);
        env.execute("recon-job-it");

        assertThat(CollectSink.<ReconBatch>values("recon-it-batches"))
                .as("batches; dead letters %s", CollectSink.values("recon-it-dead"))
                .filteredOn(b -> b.closed)
                .singleElement()
                .satisfies(
                        b -> {
                            assertThat(b.tenant).isEqualTo("t1");
                            assertThat(b.outcome).isEqualTo("BREAKS");
                        });
        assertThat(CollectSink.<BreakRecord>values("recon-it-breaks"))
                .extracting(BreakRecord::getReason)
                .containsExactly(ReconReason.MISSING_LEDGER_TXN.name());
        assertThat(CollectSink.<SourceDeadLetter>values("recon-it-dead"))
                .extracting(SourceDeadLetter::getReason)
                .containsExactly(ParseChanges.UNPARSEABLE);
        // nothing arrived after its window's lateness in this input (ordered, one shard)
        assertThat(CollectSink.<Object>values("recon-it-late")).isEmpty();
    }
}
