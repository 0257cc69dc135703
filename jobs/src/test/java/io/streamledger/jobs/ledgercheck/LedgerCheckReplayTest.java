package io.streamledger.jobs.ledgercheck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.streamledger.aws.deadletter.DeadLetterView;
import io.streamledger.jobs.config.JobOptions;
import io.streamledger.jobs.config.JobOptions.KinesisPayload;
import io.streamledger.jobs.config.JobOptions.TransportKind;
import io.streamledger.jobs.deadletter.ReplaySource;
import io.streamledger.jobs.it.CollectSink;
import io.streamledger.jobs.source.ParseChanges;
import io.streamledger.jobs.testing.TestRecords;
import io.streamledger.model.deadletter.DeadLetterReason;
import io.streamledger.model.keys.DeadLetterKey;
import io.streamledger.model.keys.PostingKey;
import io.streamledger.operators.ledgercheck.FactKind;
import io.streamledger.operators.ledgercheck.LedgerCheckConfig;
import io.streamledger.operators.ledgercheck.LedgerFact;
import io.streamledger.operators.ledgercheck.TransactionBalanceCheck;
import io.streamledger.operators.recon.BreakRecord;
import java.time.Instant;
import java.time.YearMonth;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.graph.StreamNode;
import org.apache.flink.streaming.api.operators.KeyedProcessOperator;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.junit.jupiter.api.Test;

/**
 * CS08 replay of the ledger-check job (CS11, AP15): a source entry is parsed again by the job's own
 * parse step and re-enters the checks, which decide once per transaction, so a replayed duplicate
 * adds no break; what cannot re-enter meaningfully is refused with its reason.
 */
class LedgerCheckReplayTest {

    private static final LedgerCheckConfig CONFIG = LedgerCheckConfig.defaults();

    private static final ReplaySource.Decoder<LedgerFact> DECODER =
            LedgerCheckJob.replayDecoder(
                    new ParseChanges<>(
                            "Ledger",
                            KinesisPayload.DYNAMODB_CHANGE,
                            new LedgerCheckJob.FactMapper()),
                    TransportKind.KINESIS,
                    CONFIG);

    /** A Kinesis "for DynamoDB" INSERT of posting {@code line} of txn {@code txn}, created then. */
    static String posting(String txn, int line, String account, String amount, long createdMillis) {
        PostingKey k =
                new PostingKey(
                        "t1",
                        account,
                        YearMonth.of(2026, 12),
                        0,
                        Instant.parse("2026-12-01T10:00:00Z"),
                        txn,
                        line);
        Map<String, String> image = new LinkedHashMap<>();
        image.put("PK", k.pk());
        image.put("SK", k.sk());
        image.put("assetType", "CASH");
        image.put("asset", "USD");
        image.put("amount", "N:" + amount);
        image.put("lineCount", "N:2");
        return TestRecords.insert("ev-" + txn + "-" + line, "Ledger", createdMillis, image);
    }

    static DeadLetterView entry(DeadLetterReason reason, String payload) {
        return TestRecords.replayRequested(
                DeadLetterKey.UNKNOWN_TENANT,
                LedgerCheckJob.ROLE,
                reason,
                payload,
                "utf-8",
                "arn:aws:kinesis:us-east-1:0:stream/ledger/shardId-000000000001/4711");
    }

    @Test
    void aSourceEntryIsParsedAgainIntoItsFact() {
        long now = System.currentTimeMillis();
        LedgerFact f =
                DECODER.decode(
                        entry(
                                DeadLetterReason.UNMAPPABLE_EVENT,
                                posting("x1", 2, "HOUSE", "-10", now)));
        assertThat(f.kind).isEqualTo(FactKind.POSTING);
        assertThat(f.txnKey()).isEqualTo("t1/x1");
        assertThat(f.line).isEqualTo(2);
        assertThat(f.amount).isEqualTo("-10");
    }

    @Test
    void aRecordThatStillFailsAnotherKindOrAPostingPastItsTransactionsMemoryIsRefused() {
        assertThatThrownBy(() -> DECODER.decode(entry(DeadLetterReason.UNPARSEABLE_RECORD, "{")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("still " + ParseChanges.UNPARSEABLE + ":");
        assertThatThrownBy(() -> DECODER.decode(entry(DeadLetterReason.PARK_OVERFLOW, "{}")))
                .hasMessageContaining("source records only, not PARK_OVERFLOW");
        long old =
                System.currentTimeMillis()
                        - CONFIG.txnSlaMillis()
                        - CONFIG.doneRetentionMillis()
                        - 60_000;
        assertThatThrownBy(
                        () ->
                                DECODER.decode(
                                        entry(
                                                DeadLetterReason.UNMAPPABLE_EVENT,
                                                posting("x1", 2, "HOUSE", "-10", old))))
                .hasMessageContaining("posting x1 line 2")
                .hasMessageContaining("decided without it and forgotten after 35 min");
    }

    @Test
    void aReplayedLineCompletesItsTransactionAndItsDuplicateAddsNoBreak() throws Exception {
        long now = System.currentTimeMillis();
        LedgerFact streamed =
                DECODER.decode(
                        entry(
                                DeadLetterReason.UNMAPPABLE_EVENT,
                                posting("x1", 1, "CLIENT", "10", now)));
        LedgerFact replayed =
                DECODER.decode(
                        entry(
                                DeadLetterReason.UNMAPPABLE_EVENT,
                                posting("x1", 2, "HOUSE", "-10", now)));
        var h =
                new KeyedOneInputStreamOperatorTestHarness<>(
                        new KeyedProcessOperator<>(new TransactionBalanceCheck(CONFIG)),
                        LedgerFact::txnKey,
                        Types.STRING);
        h.open();
        h.processElement(streamed, now);
        h.processElement(replayed, now);
        h.processElement(replayed, now); // a second copy of the replay (e.g. after a failover)
        // the same transaction without its replayed line: the break the replay avoids
        h.processElement(
                DECODER.decode(
                        entry(
                                DeadLetterReason.UNMAPPABLE_EVENT,
                                posting("x2", 1, "CLIENT", "10", now))),
                now);
        h.processWatermark(Long.MAX_VALUE);
        List<BreakRecord> breaks = h.extractOutputValues();
        assertThat(breaks)
                .extracting(BreakRecord::getReason, BreakRecord::getSubject)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("TXN_INCOMPLETE", "x2"));
        h.close();
    }

    @Test
    void theReplayInputIsWiredOnlyWithReplayTenantsUnderStableUids() {
        assertThat(uids(new Configuration()))
                .noneMatch(u -> u != null && u.startsWith("ledgercheck-replay"));
        Configuration conf = new Configuration();
        conf.set(JobOptions.REPLAY_TENANTS, List.of("t1"));
        assertThat(uids(conf))
                .contains(
                        "ledgercheck-replay-source-v1",
                        "ledgercheck-replay-records-v1",
                        "ledgercheck-replay-outcomes-v1",
                        LedgerCheckJob.REPLAY_SETTLE_SINK_UID,
                        LedgerCheckJob.PARSE_UID);
        assertThat(LedgerCheckJob.REPLAY_SOURCE_UID).isEqualTo("ledgercheck-replay-source-v1");
        assertThat(ReplaySource.tenants(conf)).containsExactly("t1", DeadLetterKey.UNKNOWN_TENANT);
    }

    private static List<String> uids(Configuration conf) {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        new LedgerCheckJob(
                        TestRecords.source(List.of()),
                        new CollectSink<>("lc-replay-breaks"),
                        new CollectSink<>("lc-replay-dead"),
                        conf)
                .build(env);
        return env.getStreamGraph().getStreamNodes().stream()
                .map(StreamNode::getTransformationUID)
                .toList();
    }
}
