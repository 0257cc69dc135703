package io.streamledger.jobs.recon;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.streamledger.aws.deadletter.DeadLetterView;
import io.streamledger.jobs.config.JobOptions;
import io.streamledger.jobs.config.JobOptions.KinesisPayload;
import io.streamledger.jobs.config.JobOptions.TransportKind;
import io.streamledger.jobs.deadletter.ReplaySource;
import io.streamledger.jobs.it.CollectSink;
import io.streamledger.jobs.source.ParseChanges;
import io.streamledger.jobs.source.RecordMapper;
import io.streamledger.jobs.testing.TestRecords;
import io.streamledger.model.deadletter.DeadLetterReason;
import io.streamledger.model.keys.DeadLetterKey;
import io.streamledger.operators.recon.ReconEvent;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.graph.StreamNode;
import org.junit.jupiter.api.Test;

/**
 * CS08 replay of the reconciliation job (AP14): a source entry is parsed again by the parse step of
 * the stream whose mapper claims it (fills, ledger, orders), a late record is refused with its
 * reason, and the replay input exists only when replay tenants are configured.
 */
class ReconReplayTest {

    private static final long AT = 1_764_496_800_000L;

    private static ParseChanges<ReconEvent> parse(String table, RecordMapper<ReconEvent> mapper) {
        return new ParseChanges<>(table, KinesisPayload.DYNAMODB_CHANGE, mapper);
    }

    private static final ParseChanges<ReconEvent> FILLS =
            parse("Execution", new ReconciliationJob.ExecutionMapper());
    private static final ParseChanges<ReconEvent> LEDGER =
            parse("Ledger", new ReconciliationJob.LedgerMapper());
    private static final ParseChanges<ReconEvent> ORDERS =
            parse("Orders", new ReconciliationJob.OrdersMapper());

    private static final ReplaySource.Decoder<ReconEvent> WITH_ORDERS =
            ReconciliationJob.replayDecoder(List.of(FILLS, LEDGER, ORDERS), TransportKind.KINESIS);
    private static final ReplaySource.Decoder<ReconEvent> WITHOUT_ORDERS =
            ReconciliationJob.replayDecoder(List.of(FILLS, LEDGER), TransportKind.KINESIS);

    static DeadLetterView entry(DeadLetterReason reason, String payload, String encoding) {
        return TestRecords.replayRequested(
                DeadLetterKey.UNKNOWN_TENANT,
                ReconciliationJob.ROLE,
                reason,
                payload,
                encoding,
                "arn:aws:kinesis:us-east-1:0:stream/x/shardId-000000000001/4711");
    }

    static String trade() {
        Map<String, String> t = new LinkedHashMap<>();
        t.put("PK", "TEN#t1#ORDER#o-1");
        t.put("SK", "TRADE#2026-11-30T10:00:00.000Z#tr-1");
        t.put("tenant", "t1");
        t.put("tradeId", "tr-1");
        t.put("orderId", "o-1");
        t.put("account", "acct-1");
        t.put("symbol", "NVDA");
        t.put("side", "BUY");
        t.put("quantity", "N:10");
        t.put("price", "N:100.25");
        t.put("currency", "USD");
        t.put("executedAt", "2026-11-30T10:00:00Z");
        return TestRecords.insert("x-1", "Execution", AT, t);
    }

    static String order() {
        Map<String, String> o = new LinkedHashMap<>();
        o.put("PK", "TEN#t1#ORDER#o-1");
        o.put("SK", "META");
        o.put("tenant", "t1");
        o.put("orderId", "o-1");
        o.put("account", "acct-1");
        o.put("symbol", "NVDA");
        o.put("quantity", "N:10");
        o.put("filledQuantity", "N:10");
        o.put("version", "N:3");
        o.put("status", "FILLED");
        o.put("createdAt", "2026-11-30T09:59:00Z");
        return TestRecords.insert("o-1-3", "Orders", AT, o);
    }

    @Test
    void aSourceEntryIsParsedByTheStreamWhoseMapperClaimsIt() {
        ReconEvent fill =
                WITH_ORDERS.decode(entry(DeadLetterReason.UNMAPPABLE_EVENT, trade(), "utf-8"));
        assertThat(fill.kind).isEqualTo(ReconEvent.Kind.FILL);
        assertThat(fill.fill().tradeId()).isEqualTo("tr-1");
        // behind its shard by now: a replay holds no shard's watermark back
        assertThat(fill.sourceShard).isNull();

        ReconEvent version =
                WITH_ORDERS.decode(entry(DeadLetterReason.UNMAPPABLE_EVENT, order(), "utf-8"));
        assertThat(version.kind).isEqualTo(ReconEvent.Kind.ORDER);
        assertThat(version.order().version()).isEqualTo(3);
        // without the Orders stream the job has no order <-> fill check to take it
        assertThatThrownBy(
                        () ->
                                WITHOUT_ORDERS.decode(
                                        entry(DeadLetterReason.UNMAPPABLE_EVENT, order(), "utf-8")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("the record is no event of this job");
    }

    @Test
    void aStreamedRecordCarriesItsShardForTheBusinessTimeWatermarks() throws Exception {
        ReconEvent e = FILLS.parse(TestRecords.kinesis(1, trade())).orElseThrow();
        assertThat(e.sourceShard).isEqualTo("shardId-000000000000");
    }

    @Test
    void aLateRecordAStillBrokenRecordAndOtherKindsAreRefusedWithTheirReason() {
        assertThatThrownBy(
                        () -> WITH_ORDERS.decode(entry(DeadLetterReason.LATE_RECORD, "{}", "json")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage(DeadLetterReason.LATE_RECORD.replayRefusal());
        assertThatThrownBy(
                        () ->
                                WITH_ORDERS.decode(
                                        entry(DeadLetterReason.UNPARSEABLE_RECORD, "{", "utf-8")))
                .hasMessageStartingWith("still " + ParseChanges.UNPARSEABLE + ":");
        assertThatThrownBy(
                        () ->
                                WITH_ORDERS.decode(
                                        entry(DeadLetterReason.REJECTED_FILL, "{}", "json")))
                .hasMessageContaining("source records only, not REJECTED_FILL");
    }

    @Test
    void theReplayInputIsWiredOnlyWithReplayTenantsUnderStableUids() {
        assertThat(uids(new Configuration()))
                .noneMatch(u -> u != null && u.startsWith("recon-replay"));
        Configuration conf = new Configuration();
        conf.set(JobOptions.REPLAY_TENANTS, List.of("t1"));
        assertThat(uids(conf))
                .contains(
                        "recon-replay-source-v1",
                        "recon-replay-records-v1",
                        "recon-replay-outcomes-v1",
                        ReconciliationJob.REPLAY_FILLS_UID,
                        ReconciliationJob.REPLAY_LEDGER_UID,
                        ReconciliationJob.REPLAY_SETTLE_SINK_UID)
                .doesNotContain(ReconciliationJob.REPLAY_ORDERS_UID);
        assertThat(ReconciliationJob.REPLAY_SOURCE_UID).isEqualTo("recon-replay-source-v1");
    }

    private static List<String> uids(Configuration conf) {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        new ReconciliationJob(
                        TestRecords.source(List.of()),
                        TestRecords.source(List.of()),
                        new ReconciliationJob.Sinks(
                                new CollectSink<>("recon-replay-batches"),
                                new CollectSink<>("recon-replay-breaks"),
                                new CollectSink<>("recon-replay-late"),
                                new CollectSink<>("recon-replay-dead")),
                        (tenant, account, symbol) -> null,
                        conf)
                .build(env);
        return env.getStreamGraph().getStreamNodes().stream()
                .map(StreamNode::getTransformationUID)
                .toList();
    }
}
