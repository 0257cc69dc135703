package io.streamledger.jobs.posting;

import io.streamledger.aws.deadletter.DeadLetterView;
import io.streamledger.jobs.config.JobOptions;
import io.streamledger.jobs.config.JobOptions.TransportKind;
import io.streamledger.jobs.deadletter.DeadLetters;
import io.streamledger.jobs.deadletter.ReplayOutcomes;
import io.streamledger.jobs.deadletter.ReplaySettlementSink;
import io.streamledger.jobs.deadletter.ReplaySource;
import io.streamledger.jobs.deadletter.Replays;
import io.streamledger.jobs.gaps.ParkedGaps;
import io.streamledger.jobs.projection.ProjectionJob;
import io.streamledger.jobs.recon.BreakSinks;
import io.streamledger.jobs.recon.GapBreaks;
import io.streamledger.jobs.source.ChangeSources;
import io.streamledger.jobs.source.ParseChanges;
import io.streamledger.jobs.source.RawChangeSource;
import io.streamledger.jobs.source.RecordMapper;
import io.streamledger.jobs.source.SourceDeadLetter;
import io.streamledger.jobs.source.SourceTypes;
import io.streamledger.model.change.ChangeRecord;
import io.streamledger.model.change.OutboxEvent;
import io.streamledger.model.deadletter.DeadLetterReason;
import io.streamledger.model.ledger.HouseAccounts;
import io.streamledger.model.ledger.RoundingPolicy;
import io.streamledger.model.table.TableNaming;
import io.streamledger.model.table.Tables;
import io.streamledger.operators.gate.DeadLetter;
import io.streamledger.operators.gate.GapBreak;
import io.streamledger.operators.gate.GateConfig;
import io.streamledger.operators.gate.GateEvent;
import io.streamledger.operators.gate.ParkedGap;
import io.streamledger.operators.posting.ExecutionOrder;
import io.streamledger.operators.posting.ExecutionOrderState;
import io.streamledger.operators.posting.FillPostingRules;
import io.streamledger.operators.posting.PostingGuard;
import io.streamledger.operators.posting.PostingLane;
import io.streamledger.operators.posting.PostingOutcome;
import io.streamledger.operators.posting.PostingState;
import io.streamledger.operators.posting.ReplayHorizon;
import io.streamledger.operators.posting.TradeFill;
import io.streamledger.operators.posting.TradeFills;
import io.streamledger.sinks.posting.PostingOutcomeListener;
import io.streamledger.sinks.posting.PostingRejectionSink;
import io.streamledger.sinks.posting.PostingRejections;
import io.streamledger.sinks.posting.PostingSettings;
import io.streamledger.sinks.posting.PostingTransactionSink;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import javax.annotation.Nullable;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.java.utils.ParameterTool;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * The posting job (AP09 + AP10 + AP12): TradeExecuted outbox events from the Context table's stream
 * (or the relay's Kinesis stream) → parse → per-account execution order ({@link ExecutionOrder},
 * CS07; replays of source dead letters join before it, of set-aside fills after it, CS08) → guard
 * (rules reject with a named reason) → keyed by {@link PostingLane} → the transaction sink (one
 * balanced ledger transaction, inbox receipt and authority update per fill, in one DynamoDB
 * transaction). Source and every sink are arguments; {@link #main} wires the production ones.
 */
public final class PostingJob {

    /** Role name in source uids and dead-letter entries. */
    public static final String ROLE = "posting";

    public static final String DEAD_LETTER_SINK_UID = "posting-dead-letter-sink-v1";
    public static final String REJECTED_SINK_UID = "posting-rejected-sink-v1";
    public static final String GAP_BREAK_SINK_UID = "posting-exec-order-break-sink-v1";
    public static final String GATE_DEAD_LETTER_SINK_UID = "posting-exec-order-dead-letter-sink-v1";
    public static final String REPLAY_SOURCE_UID = "posting-replay-source-v1";
    public static final String REPLAY_BEFORE_GATE_UID = "posting-replay-before-gate-v1";
    public static final String REPLAY_AFTER_GATE_UID = "posting-replay-after-gate-v1";
    public static final String REPLAY_FAILED_UID = "posting-replay-failed-v1";
    public static final String REPLAY_PARKED_UID = "posting-replay-parked-v1";
    public static final String REPLAY_SETTLE_SINK_UID = "posting-replay-settle-sink-v1";
    public static final String PARKED_GAP_SINK_UID = "posting-exec-order-parked-gap-sink-v1";
    public static final String SKIP_SOURCE_UID = "posting-exec-order-skip-source-v1";

    /**
     * The job's sinks.
     *
     * @param postings effect sink: fills to post (production: {@link PostingTransactionSink})
     * @param rejected fills the rules reject, with their reason (production: dead letter + break)
     * @param deadLetters source records that could not be parsed or mapped
     * @param gapBreaks execution-order gaps older than their SLA (AP15 breaks)
     * @param gateDeadLetters fills the execution-order gate refused to hold
     * @param parkedGaps the gate's open/closed/skipped gaps (production: the parked-gap records);
     *     null leaves them and the skip source out
     */
    public record Sinks(
            Sink<TradeFill> postings,
            Sink<PostingOutcome> rejected,
            Sink<SourceDeadLetter> deadLetters,
            Sink<GapBreak> gapBreaks,
            Sink<DeadLetter> gateDeadLetters,
            @Nullable Sink<ParkedGap> parkedGaps) {

        /** Without the parked-gap records (test wiring). */
        public Sinks(
                Sink<TradeFill> postings,
                Sink<PostingOutcome> rejected,
                Sink<SourceDeadLetter> deadLetters,
                Sink<GapBreak> gapBreaks,
                Sink<DeadLetter> gateDeadLetters) {
            this(postings, rejected, deadLetters, gapBreaks, gateDeadLetters, null);
        }

        /** Production sinks: the DynamoDB transaction sink and the dead-letter table. */
        public static Sinks dynamoDb(ReadableConfig conf, PostingOutcomeListener listener) {
            return new Sinks(
                    new PostingTransactionSink(settings(conf), listener),
                    new PostingRejectionSink(
                            JobOptions.dynamoDbClient(conf),
                            rejections(conf),
                            PostingState.GUARD_UID,
                            DeadLetters.MAX_ATTEMPTS,
                            Duration.ofMillis(DeadLetters.BACKOFF_BASE_MILLIS),
                            Duration.ofMillis(DeadLetters.BACKOFF_MAX_MILLIS)),
                    DeadLetters.sink(conf, DeadLetters.fromSource(ROLE, PostingState.PARSE_UID)),
                    BreakSinks.gapBreaks(conf, GapBreaks.EXECUTION_ORDER_REASON),
                    DeadLetters.sink(
                            conf, DeadLetters.fromGate(ROLE, ExecutionOrderState.GATE_UID)),
                    ParkedGaps.sink(conf, ROLE, ExecutionOrderState.GATE_UID));
        }

        public static Sinks dynamoDb(ReadableConfig conf) {
            return dynamoDb(conf, PostingOutcomeListener.NONE);
        }
    }

    private final RawChangeSource source;
    private final Sinks sinks;
    private final ReadableConfig conf;

    public PostingJob(RawChangeSource source, Sinks sinks, ReadableConfig conf) {
        this.source = source;
        this.sinks = sinks;
        this.conf = conf;
    }

    /** The posting rules these options describe. */
    public static FillPostingRules rules(ReadableConfig conf) {
        return new FillPostingRules(
                RoundingPolicy.DEFAULT,
                new HouseAccounts(conf.get(JobOptions.POSTING_HOUSE_SHARDS)));
    }

    /** The shared gate limits with the execution-order gate's own gap SLA. */
    public static GateConfig executionOrderGateConfig(ReadableConfig conf) {
        return ProjectionJob.gateConfig(conf).withGapSla(conf.get(JobOptions.EXEC_ORDER_GAP_SLA));
    }

    /** Everything the transaction sink needs, resolved once from the options. */
    public static PostingSettings settings(ReadableConfig conf) {
        TableNaming naming = new TableNaming(conf.get(JobOptions.TABLE_PREFIX));
        return new PostingSettings(
                JobOptions.dynamoDbClient(conf),
                naming.physicalName(Tables.LEDGER),
                naming.physicalName(Tables.INBOX),
                conf.get(JobOptions.POSTING_CONSUMER),
                rules(conf),
                conf.get(JobOptions.POSTING_CAPACITY),
                conf.get(JobOptions.POSTING_TIMEOUT),
                conf.get(JobOptions.POSTING_MAX_ATTEMPTS),
                conf.get(JobOptions.POSTING_BACKOFF_BASE),
                conf.get(JobOptions.POSTING_BACKOFF_MAX),
                conf.get(JobOptions.POSTING_RECEIPT_RETENTION),
                conf.get(JobOptions.POSTING_MONTH_LIMIT),
                rejections(conf),
                conf.get(JobOptions.SHARD_MAP_REFRESH));
    }

    /** Where rejected and quarantined fills go: the dead-letter table and the break table. */
    public static PostingRejections rejections(ReadableConfig conf) {
        return new PostingRejections(ROLE, DeadLetters.table(conf), BreakSinks.rows(conf).writes());
    }

    /** The job's streams after {@link #build}: for tests and extra sinks. */
    public record Streams(
            ExecutionOrder.Streams order,
            DataStream<TradeFill> postable,
            DataStream<PostingOutcome> rejected,
            DataStream<SourceDeadLetter> deadLetters) {}

    /** Adds the job and its sinks to {@code env}. */
    public Streams build(StreamExecutionEnvironment env) {
        String contextTable = JobOptions.sourceTable(conf, Tables.CONTEXT);
        FillPostingRules rules = rules(conf);
        ParseChanges<TradeFill> parse =
                new ParseChanges<>(
                        contextTable, conf.get(JobOptions.KINESIS_PAYLOAD), new FillMapper());
        SingleOutputStreamOperator<TradeFill> fills =
                source.open(env)
                        .process(parse, PostingState.FILL)
                        .uid(PostingState.PARSE_UID)
                        .name(PostingState.PARSE_NAME);
        List<String> replayTenants = conf.get(JobOptions.REPLAY_TENANTS);
        DataStream<TradeFill> replaysAfterGate = null;
        DataStream<TradeFill> gateInput = fills;
        if (!replayTenants.isEmpty()) {
            DataStream<TradeFill> replays =
                    ReplaySource.stream(
                            env,
                            conf,
                            ROLE,
                            replayDecoder(
                                    parse,
                                    conf.get(JobOptions.TRANSPORT),
                                    conf.get(JobOptions.POSTING_RECEIPT_RETENTION),
                                    Clock.systemUTC()),
                            PostingState.FILL,
                            REPLAY_SOURCE_UID);
            // a source entry's fill never reached the gate: it joins where the original would have
            gateInput =
                    fills.union(
                            replays.filter(PostingJob::joinsBeforeGate)
                                    .setParallelism(1)
                                    .uid(REPLAY_BEFORE_GATE_UID)
                                    .name(
                                            "posting: replays of source dead letters (before the gate)"));
            // a set-aside fill's sequence was consumed when it was set aside: it joins after the
            // gate; its receipt keeps the effect once
            replaysAfterGate =
                    replays.filter(f -> !joinsBeforeGate(f))
                            .setParallelism(1)
                            .uid(REPLAY_AFTER_GATE_UID)
                            .name("posting: replays of set-aside fills (after the gate)");
        }
        // execution order per account before the guard: a rejected fill still advances its account
        DataStream<GateEvent> skips =
                sinks.parkedGaps() == null
                        ? null
                        : ParkedGaps.skipRequests(
                                env, conf, ROLE, ExecutionOrderState.GATE_UID, SKIP_SOURCE_UID);
        ExecutionOrder.Streams order =
                ExecutionOrder.apply(gateInput, skips, executionOrderGateConfig(conf));
        if (sinks.parkedGaps() != null) {
            order.gate()
                    .parkedGaps()
                    .sinkTo(sinks.parkedGaps())
                    .uid(PARKED_GAP_SINK_UID)
                    .name("posting: execution-order parked gaps (dead-letter table)");
        }
        order.gapBreaks()
                .sinkTo(sinks.gapBreaks())
                .uid(GAP_BREAK_SINK_UID)
                .name("posting: execution-order gap breaks (AP15)");
        order.deadLetters()
                .sinkTo(sinks.gateDeadLetters())
                .uid(GATE_DEAD_LETTER_SINK_UID)
                .name("posting: execution-order dead letters (dead-letter table)");
        DataStream<TradeFill> ordered = order.ordered();
        if (replaysAfterGate != null) {
            ordered = ordered.union(replaysAfterGate);
            // the gate's own outcomes of replays that joined before it (the sinks settle the rest)
            ReplayOutcomes.failedAtGate(
                            order.deadLetters(),
                            DeadLetters.fromGate(ROLE, ExecutionOrderState.GATE_UID),
                            REPLAY_FAILED_UID,
                            "posting: replays set aside again by the execution-order gate")
                    .union(
                            ReplayOutcomes.parked(
                                    order.gate().parkedReplays(),
                                    ROLE,
                                    ExecutionOrderState.GATE_UID,
                                    REPLAY_PARKED_UID,
                                    "posting: replays parked behind an execution-order gap"))
                    .addSink(
                            new ReplaySettlementSink(
                                    JobOptions.dynamoDbClient(conf), DeadLetters.table(conf), ROLE))
                    .setParallelism(1)
                    .uid(REPLAY_SETTLE_SINK_UID)
                    .name("posting: settle replays at the execution-order gate");
        }
        SingleOutputStreamOperator<TradeFill> postable =
                ordered.process(new PostingGuard(rules), PostingState.FILL)
                        .uid(PostingState.GUARD_UID)
                        .name(PostingState.GUARD_NAME);

        // one lane = tenant + house shard of the client account (see PostingLane)
        postable.keyBy(new PostingLane(rules.house()), Types.STRING)
                .sinkTo(sinks.postings())
                .uid(PostingState.SINK_UID)
                .name(PostingState.SINK_NAME);
        DataStream<PostingOutcome> rejected = postable.getSideOutput(PostingState.REJECTED);
        rejected.sinkTo(sinks.rejected())
                .uid(REJECTED_SINK_UID)
                .name("posting: rejected fills (dead-letter table)");
        DataStream<SourceDeadLetter> deadLetters = fills.getSideOutput(SourceTypes.DEAD_LETTERS);
        deadLetters
                .sinkTo(sinks.deadLetters())
                .uid(DEAD_LETTER_SINK_UID)
                .name("posting: source dead letters (dead-letter table)");
        return new Streams(order, postable, rejected, deadLetters);
    }

    /**
     * The posting job's replay decoder: a source entry's raw record parsed again by {@code parse}
     * (the job's own parse step: a record that still fails returns to OPEN with the parse step's
     * reason), {@link #replayedFill} for fill entries; each tagged with its entry. A fill admitted
     * so long ago that its receipt may have expired is refused ({@link ReplayHorizon}).
     */
    static ReplaySource.Decoder<TradeFill> replayDecoder(
            ParseChanges<TradeFill> parse,
            TransportKind transport,
            Duration receiptRetention,
            Clock clock) {
        return entry -> {
            TradeFill fill;
            if (Replays.fromSource(entry.reason())) {
                fill = Replays.reparse(entry, parse, transport);
                fill.tagReplay(entry.key(), entry.version());
            } else {
                fill = replayedFill(entry);
            }
            ReplayHorizon.requireReceiptLive(fill, receiptRetention, clock.instant());
            return fill;
        };
    }

    /**
     * Whether a replayed fill joins before the execution-order gate: one from a source entry (its
     * sequence never reached the gate, so the account's order rule applies to it as to the
     * original); a rejected or quarantined fill joins after it.
     */
    static boolean joinsBeforeGate(TradeFill f) {
        return f.isReplay() && Replays.fromSource(DeadLetterReason.of(f.getReplayReason()));
    }

    /**
     * The fill a REJECTED_FILL or QUARANTINED entry holds, tagged as its replay; other entries are
     * not fills of this job's input.
     */
    static TradeFill replayedFill(DeadLetterView entry) {
        if (entry.reason() != DeadLetterReason.REJECTED_FILL
                && entry.reason() != DeadLetterReason.QUARANTINED) {
            throw new IllegalArgumentException(
                    "the posting job re-injects fills (REJECTED_FILL, QUARANTINED) and source"
                            + " records, not "
                            + entry.reason());
        }
        if (!"json".equals(entry.payloadEncoding())) {
            throw new IllegalArgumentException("payload is " + entry.payloadEncoding());
        }
        TradeFill fill = TradeFills.fromJson(entry.payload());
        fill.tagReplay(entry.key(), entry.version());
        return fill;
    }

    /** Builds and runs. */
    public void execute(StreamExecutionEnvironment env) throws Exception {
        build(env);
        env.execute("streamledger posting");
    }

    /** Production wiring: options from the command line ({@code --key value}). */
    public static void main(String[] args) throws Exception {
        Configuration conf = ParameterTool.fromArgs(args).getConfiguration();
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
        new PostingJob(ChangeSources.fromConfig(conf, ROLE), Sinks.dynamoDb(conf), conf)
                .execute(env);
    }

    /** TradeExecuted events from Context change records or relayed envelopes. */
    static final class FillMapper implements RecordMapper<TradeFill> {
        private static final long serialVersionUID = 1L;

        @Override
        public Optional<TradeFill> fromChange(ChangeRecord change) {
            return TradeFills.fromChange(change);
        }

        @Override
        public Optional<TradeFill> fromOutbox(OutboxEvent event) {
            return TradeFills.fromOutbox(event, System.currentTimeMillis());
        }
    }
}
