package io.streamledger.jobs.recon;

import io.streamledger.jobs.config.JobOptions;
import io.streamledger.jobs.config.JobOptions.TransportKind;
import io.streamledger.jobs.deadletter.DeadLetters;
import io.streamledger.jobs.deadletter.Reinjection;
import io.streamledger.jobs.deadletter.ReplaySource;
import io.streamledger.jobs.deadletter.Replays;
import io.streamledger.jobs.source.ChangeSources;
import io.streamledger.jobs.source.ParseChanges;
import io.streamledger.jobs.source.RawChangeSource;
import io.streamledger.jobs.source.RecordMapper;
import io.streamledger.jobs.source.SourceDeadLetter;
import io.streamledger.jobs.source.SourceTypes;
import io.streamledger.model.change.ChangeRecord;
import io.streamledger.model.table.TableNaming;
import io.streamledger.model.table.Tables;
import io.streamledger.operators.recon.BreakRecord;
import io.streamledger.operators.recon.PositionLookup;
import io.streamledger.operators.recon.ReconBatch;
import io.streamledger.operators.recon.ReconConfig;
import io.streamledger.operators.recon.ReconEvent;
import io.streamledger.operators.recon.ReconEvents;
import io.streamledger.operators.recon.ReconState;
import io.streamledger.operators.recon.Reconciliation;
import java.util.List;
import java.util.Optional;
import javax.annotation.Nullable;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.java.utils.ParameterTool;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * The reconciliation job (AP14/AP15): fills from the Execution stream and trading postings +
 * securities authorities from the Ledger stream, reconciled per tenant and declared event-time
 * window; each window closes into an IDX13 batch (version-guarded) and IDX14/IDX15 breaks
 * (create-once), so restarting a window's batch is idempotent. With the Orders stream, the order ↔
 * fill check (CS04) adds its findings to the same windows. Late records and unreadable source
 * records go to the dead-letter table; a replay request re-injects a source record before its
 * stream's watermarks (CS08). Sources and every sink are arguments ({@link Sinks}).
 */
public final class ReconciliationJob {

    public static final String ROLE_EXECUTION = "recon-execution";
    public static final String ROLE_LEDGER = "recon-ledger";
    public static final String ROLE_ORDERS = "recon-orders";
    public static final String PARSE_EXECUTION_UID = "recon-parse-execution-v1";
    public static final String PARSE_LEDGER_UID = "recon-parse-ledger-v1";
    public static final String PARSE_ORDERS_UID = "recon-parse-orders-v1";
    public static final String BATCH_SINK_UID = "recon-batch-sink-v1";
    public static final String BREAK_SINK_UID = "recon-break-sink-v1";
    public static final String LATE_SINK_UID = "recon-late-sink-v1";
    public static final String DEAD_LETTER_SINK_UID = "recon-dead-letter-sink-v1";
    public static final String TRADE_FACTS_UID = "recon-trade-facts-v1";

    /**
     * Replay input: {@code -source-v1}, {@code -records-v1}, {@code -outcomes-v1} (Reinjection).
     */
    public static final String REPLAY_UID_PREFIX = "recon-replay";

    public static final String REPLAY_SOURCE_UID = Reinjection.sourceUid(REPLAY_UID_PREFIX);
    public static final String REPLAY_FILLS_UID = "recon-replay-fills-v1";
    public static final String REPLAY_LEDGER_UID = "recon-replay-ledger-v1";
    public static final String REPLAY_ORDERS_UID = "recon-replay-orders-v1";
    public static final String REPLAY_SETTLE_SINK_UID = "recon-replay-settle-sink-v1";

    /** Role of the job in dead-letter entries. */
    public static final String ROLE = "recon";

    /**
     * The job's sinks.
     *
     * @param batches effect sink: AP14 batches (version-guarded)
     * @param breaks AP15 breaks (create-once)
     * @param late records later than the window's allowed lateness
     * @param deadLetters source records of either stream that could not be parsed or mapped
     */
    public record Sinks(
            Sink<ReconBatch> batches,
            Sink<BreakRecord> breaks,
            Sink<ReconEvent> late,
            Sink<SourceDeadLetter> deadLetters) {

        /** Production sinks: Reconciliation table rows and the dead-letter table. */
        public static Sinks dynamoDb(ReadableConfig conf) {
            return new Sinks(
                    batchSink(conf),
                    BreakSinks.dynamoDb(conf),
                    DeadLetters.sink(conf, DeadLetters.fromLateRecord(ROLE, ReconState.WINDOW_UID)),
                    DeadLetters.sink(conf, DeadLetters.fromSource(ROLE, PARSE_EXECUTION_UID)));
        }
    }

    private final RawChangeSource executionSource;
    private final RawChangeSource ledgerSource;
    private final @Nullable RawChangeSource ordersSource;
    private final Sinks sinks;
    private final PositionLookup positions;
    private final ReadableConfig conf;

    /** Fill ↔ ledger ↔ projection only (no Orders stream: no order ↔ fill check). */
    public ReconciliationJob(
            RawChangeSource executionSource,
            RawChangeSource ledgerSource,
            Sinks sinks,
            PositionLookup positions,
            ReadableConfig conf) {
        this(executionSource, ledgerSource, null, sinks, positions, conf);
    }

    /**
     * @param ordersSource the Orders table's changes for the order ↔ fill check (CS04), or null
     */
    public ReconciliationJob(
            RawChangeSource executionSource,
            RawChangeSource ledgerSource,
            @Nullable RawChangeSource ordersSource,
            Sinks sinks,
            PositionLookup positions,
            ReadableConfig conf) {
        this.executionSource = executionSource;
        this.ledgerSource = ledgerSource;
        this.ordersSource = ordersSource;
        this.sinks = sinks;
        this.positions = positions;
        this.conf = conf;
    }

    public record Streams(
            DataStream<ReconBatch> batches,
            DataStream<BreakRecord> breaks,
            DataStream<ReconEvent> tooLate,
            DataStream<SourceDeadLetter> deadLetters) {}

    public Streams build(StreamExecutionEnvironment env) {
        TableNaming naming = new TableNaming(conf.get(JobOptions.TABLE_PREFIX));
        ParseChanges<ReconEvent> parseFills =
                new ParseChanges<>(
                        naming.physicalName(Tables.EXECUTION),
                        conf.get(JobOptions.KINESIS_PAYLOAD),
                        new ExecutionMapper());
        ParseChanges<ReconEvent> parseLedger =
                new ParseChanges<>(
                        naming.physicalName(Tables.LEDGER),
                        conf.get(JobOptions.KINESIS_PAYLOAD),
                        new LedgerMapper());
        ParseChanges<ReconEvent> parseOrders =
                new ParseChanges<>(
                        naming.physicalName(Tables.ORDERS),
                        conf.get(JobOptions.KINESIS_PAYLOAD),
                        new OrdersMapper());
        SingleOutputStreamOperator<ReconEvent> fills =
                executionSource
                        .open(env)
                        .process(parseFills, ReconState.EVENT)
                        .uid(PARSE_EXECUTION_UID)
                        .name("reconciliation: parse fills");
        SingleOutputStreamOperator<ReconEvent> ledger =
                ledgerSource
                        .open(env)
                        .process(parseLedger, ReconState.EVENT)
                        .uid(PARSE_LEDGER_UID)
                        .name("reconciliation: parse ledger");
        DataStream<ReconEvent> fillInput = fills;
        DataStream<ReconEvent> ledgerInput = ledger;
        DataStream<ReconEvent> replayedOrders = null;
        if (!conf.get(JobOptions.REPLAY_TENANTS).isEmpty()) {
            List<ParseChanges<ReconEvent>> parses =
                    ordersSource == null
                            ? List.of(parseFills, parseLedger)
                            : List.of(parseFills, parseLedger, parseOrders);
            Reinjection.Streams<ReconEvent> replays =
                    Reinjection.stream(
                            env,
                            conf,
                            ROLE,
                            replayDecoder(parses, conf.get(JobOptions.TRANSPORT)),
                            ReconState.EVENT,
                            REPLAY_UID_PREFIX);
            // each record where its stream's parsed records enter: before that stream's
            // business-time watermarks, so it meets its window (or its late path) like the original
            fillInput = fills.union(replayed(replays, ReconEvent.Kind.FILL, REPLAY_FILLS_UID));
            ledgerInput = ledger.union(replayed(replays, null, REPLAY_LEDGER_UID));
            if (ordersSource != null) {
                replayedOrders = replayed(replays, ReconEvent.Kind.ORDER, REPLAY_ORDERS_UID);
            }
            Reinjection.settle(replays.outcomes(), conf, ROLE, REPLAY_SETTLE_SINK_UID);
        }
        ReconConfig config = ReconOptions.reconConfig(conf);
        DataStream<ReconEvent> timedFills =
                Reconciliation.withBusinessTime(
                        fillInput,
                        ReconState.FILL_TIMESTAMPS_UID,
                        conf.get(ReconOptions.RECON_OUT_OF_ORDERNESS),
                        conf.get(ReconOptions.RECON_IDLENESS));
        DataStream<ReconEvent> windowInput =
                timedFills
                        .filter(ReconciliationJob::isTradeFact)
                        .uid(TRADE_FACTS_UID)
                        .name("reconciliation: trades (bust marks to the order-fill check only)")
                        .union(
                                Reconciliation.withBusinessTime(
                                        ledgerInput,
                                        ReconState.LEDGER_TIMESTAMPS_UID,
                                        conf.get(ReconOptions.RECON_OUT_OF_ORDERNESS),
                                        conf.get(ReconOptions.RECON_IDLENESS)));
        DataStream<SourceDeadLetter> deadLetters =
                fills.getSideOutput(SourceTypes.DEAD_LETTERS)
                        .union(ledger.getSideOutput(SourceTypes.DEAD_LETTERS));
        if (ordersSource != null) {
            SingleOutputStreamOperator<ReconEvent> orders =
                    ordersSource
                            .open(env)
                            .process(parseOrders, ReconState.EVENT)
                            .uid(PARSE_ORDERS_UID)
                            .name("reconciliation: parse orders");
            DataStream<ReconEvent> timedOrders =
                    Reconciliation.withBusinessTime(
                            replayedOrders == null ? orders : orders.union(replayedOrders),
                            ReconState.ORDER_TIMESTAMPS_UID,
                            conf.get(ReconOptions.RECON_OUT_OF_ORDERNESS),
                            conf.get(ReconOptions.RECON_IDLENESS));
            windowInput =
                    windowInput.union(
                            Reconciliation.orderFillFindings(
                                    timedOrders.union(timedFills), config));
            deadLetters = deadLetters.union(orders.getSideOutput(SourceTypes.DEAD_LETTERS));
        }
        Reconciliation.Streams reconciled = Reconciliation.apply(windowInput, config, positions);
        SingleOutputStreamOperator<ReconBatch> batches = reconciled.batches();
        DataStream<BreakRecord> breaks = batches.getSideOutput(ReconState.BREAKS);
        batches.sinkTo(sinks.batches()).uid(BATCH_SINK_UID).name("reconciliation: batches (IDX13)");
        breaks.sinkTo(sinks.breaks())
                .uid(BREAK_SINK_UID)
                .name("reconciliation: breaks (IDX14/IDX15, create-once)");
        DataStream<ReconEvent> late = reconciled.late();
        late.sinkTo(sinks.late())
                .uid(LATE_SINK_UID)
                .name("reconciliation: late records (dead-letter table)");
        deadLetters
                .sinkTo(sinks.deadLetters())
                .uid(DEAD_LETTER_SINK_UID)
                .name("reconciliation: source dead letters (dead-letter table)");
        return new Streams(batches, breaks, late, deadLetters);
    }

    /**
     * The replayed records of one stream: fills, order versions, or (kind null) the ledger's
     * postings and authorities.
     */
    private static DataStream<ReconEvent> replayed(
            Reinjection.Streams<ReconEvent> replays, ReconEvent.Kind kind, String uid) {
        return replays.records()
                .filter(
                        e ->
                                kind != null
                                        ? e.kind == kind
                                        : e.kind != ReconEvent.Kind.FILL
                                                && e.kind != ReconEvent.Kind.ORDER)
                .setParallelism(1)
                .uid(uid)
                .name("reconciliation: replayed " + (kind == null ? "ledger" : kind) + " records");
    }

    /**
     * A reconciliation entry's record: source entries are parsed again by the parse step of the
     * stream whose mapper claims them (execution, ledger, and orders when the job reads them); a
     * late record is refused (it is in the next batch revision of its window already), and the job
     * sets nothing else aside.
     */
    static ReplaySource.Decoder<ReconEvent> replayDecoder(
            List<ParseChanges<ReconEvent>> parses, TransportKind transport) {
        return entry -> {
            String refusal = entry.reason().replayRefusal();
            if (refusal != null) {
                throw new IllegalArgumentException(refusal);
            }
            if (!Replays.fromSource(entry.reason())) {
                throw new IllegalArgumentException(
                        "the reconciliation job re-injects source records only, not "
                                + entry.reason());
            }
            ReconEvent e = Reinjection.reparseAny(entry, parses, transport);
            e.sourceShard = null; // behind its shard by now: it holds no watermark back
            return e;
        };
    }

    /** The version-guarded IDX13 batch sink. */
    public static Sink<ReconBatch> batchSink(ReadableConfig conf) {
        BatchRows rows =
                new BatchRows(
                        new TableNaming(conf.get(JobOptions.TABLE_PREFIX))
                                .physicalName(Tables.RECONCILIATION));
        return JobOptions.<ReconBatch>versionedSink(
                        conf, BatchRows.GUARD, (b, ctx) -> rows.batch(b))
                .accessPattern("AP14")
                .build();
    }

    public static PositionLookup positions(ReadableConfig conf) {
        return new DynamoDbPositionLookup(
                JobOptions.dynamoDbClient(conf),
                new TableNaming(conf.get(JobOptions.TABLE_PREFIX))
                        .physicalName(
                                Tables.PORTFOLIO,
                                conf.get(JobOptions.PORTFOLIO_NAMESPACE_VERSION)));
    }

    /** The Orders stream's source when {@code conf} names it, else null (no order ↔ fill check). */
    public static @Nullable RawChangeSource ordersSource(ReadableConfig conf) {
        String arn = conf.getOptional(ReconOptions.ORDERS_STREAM_ARN).orElse(null);
        return arn == null ? null : ChangeSources.fromConfig(reading(conf, arn), ROLE_ORDERS);
    }

    /** A copy of {@code conf} reading {@code streamArn}. */
    public static Configuration reading(ReadableConfig conf, String streamArn) {
        Configuration c = new Configuration((Configuration) conf);
        c.set(JobOptions.STREAM_ARN, streamArn);
        return c;
    }

    public static void main(String[] args) throws Exception {
        Configuration conf = ParameterTool.fromArgs(args).getConfiguration();
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
        new ReconciliationJob(
                        ChangeSources.fromConfig(
                                reading(conf, conf.get(ReconOptions.EXECUTION_STREAM_ARN)),
                                ROLE_EXECUTION),
                        ChangeSources.fromConfig(
                                reading(conf, conf.get(ReconOptions.LEDGER_STREAM_ARN)),
                                ROLE_LEDGER),
                        ordersSource(conf),
                        Sinks.dynamoDb(conf),
                        positions(conf),
                        conf)
                .build(env);
        env.execute("streamledger reconciliation");
    }

    /**
     * A trade's INSERT; its bust mark (a MODIFY, the only image with it) is order ↔ fill evidence.
     */
    static boolean isTradeFact(ReconEvent e) {
        return e.kind != ReconEvent.Kind.FILL || e.bustOrderVersion == 0;
    }

    /**
     * The record's event, stamped with the shard it was read from (the per-shard business-time
     * watermarks; "" when the transport named none).
     */
    static Optional<ReconEvent> fromShard(ChangeRecord change, Optional<ReconEvent> event) {
        event.ifPresent(
                e ->
                        e.sourceShard =
                                change.sourcePosition() == null
                                        ? ""
                                        : change.sourcePosition().shardId());
        return event;
    }

    static final class ExecutionMapper implements RecordMapper<ReconEvent> {
        private static final long serialVersionUID = 1L;

        @Override
        public Optional<ReconEvent> fromChange(ChangeRecord change) {
            return fromShard(change, ReconEvents.fromExecution(change));
        }
    }

    static final class OrdersMapper implements RecordMapper<ReconEvent> {
        private static final long serialVersionUID = 1L;

        @Override
        public Optional<ReconEvent> fromChange(ChangeRecord change) {
            return fromShard(change, ReconEvents.fromOrders(change));
        }
    }

    static final class LedgerMapper implements RecordMapper<ReconEvent> {
        private static final long serialVersionUID = 1L;

        @Override
        public Optional<ReconEvent> fromChange(ChangeRecord change) {
            return fromShard(change, ReconEvents.fromLedger(change));
        }
    }
}
