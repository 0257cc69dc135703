package io.streamledger.jobs.projection;

import io.streamledger.jobs.config.JobOptions;
import io.streamledger.jobs.config.JobOptions.TransportKind;
import io.streamledger.jobs.deadletter.DeadLetters;
import io.streamledger.jobs.deadletter.ReplayOutcome;
import io.streamledger.jobs.deadletter.ReplayOutcomes;
import io.streamledger.jobs.deadletter.ReplaySettlementSink;
import io.streamledger.jobs.deadletter.ReplaySource;
import io.streamledger.jobs.deadletter.Replays;
import io.streamledger.jobs.gaps.ParkedGaps;
import io.streamledger.jobs.source.ChangeSources;
import io.streamledger.jobs.source.ParseChanges;
import io.streamledger.jobs.source.RawChangeSource;
import io.streamledger.jobs.source.RecordMapper;
import io.streamledger.jobs.source.SourceDeadLetter;
import io.streamledger.jobs.source.SourceTypes;
import io.streamledger.model.change.ChangeRecord;
import io.streamledger.model.table.Tables;
import io.streamledger.operators.gate.DeadLetter;
import io.streamledger.operators.gate.GapNotice;
import io.streamledger.operators.gate.Gate;
import io.streamledger.operators.gate.GateConfig;
import io.streamledger.operators.gate.GateEvent;
import io.streamledger.operators.gate.GateState;
import io.streamledger.operators.gate.GateStreams;
import io.streamledger.operators.projection.AuthorityChanges;
import io.streamledger.operators.projection.ProjectionState;
import io.streamledger.operators.projection.ProjectionTracker;
import io.streamledger.operators.projection.ProjectionUpdate;
import io.streamledger.sinks.deadletter.DeadLetterConverter;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.java.functions.KeySelector;
import org.apache.flink.api.java.utils.ParameterTool;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.util.Collector;

/**
 * The projection job (AP07, AP13; CS06/CS07): AP12 authority changes from the Ledger table's stream
 * → gate (inbox dedupe + next version + parking + gap SLA) → Portfolio view rows (IDX07) and
 * projection checkpoints (IDX12) through the version-guarded sink; gap breaks, gate dead letters
 * and source dead letters to their own sinks (all arguments, {@link ProjectionSinks}). The view it
 * maintains never authorizes anything: see {@link PortfolioRows}.
 */
public final class ProjectionJob {

    /** Role name in source uids. */
    public static final String ROLE = "projection";

    public static final String PARSE_UID = "projection-parse-v1";
    public static final String PARSE_NAME = "projection: parse authority changes (AP12)";
    public static final String VIEW_SINK_UID = "projection-view-sink-v1";
    public static final String CHECKPOINT_SINK_UID = "projection-checkpoint-sink-v1";
    public static final String BREAK_SINK_UID = "projection-gap-break-sink-v1";
    public static final String DEAD_LETTER_SINK_UID = "projection-dead-letter-sink-v1";
    public static final String SOURCE_DEAD_LETTER_SINK_UID =
            "projection-source-dead-letter-sink-v1";

    /** The gate's operators that dead-letter events (validation, parking). */
    public static final String GATE_OPERATOR = GateState.NEXT_VERSION_UID;

    public static final String VIEW_FILTER_UID = "projection-view-filter-v1";
    public static final String PARKED_GAP_SINK_UID = "projection-parked-gap-sink-v1";
    public static final String SKIP_SOURCE_UID = "projection-gap-skip-source-v1";
    public static final String REPLAY_SOURCE_UID = "projection-replay-source-v1";
    public static final String REPLAY_APPLIED_UID = "projection-replay-applied-v1";
    public static final String REPLAY_STALE_UID = "projection-replay-stale-v1";
    public static final String REPLAY_DUPLICATE_UID = "projection-replay-duplicate-v1";
    public static final String REPLAY_FAILED_UID = "projection-replay-failed-v1";
    public static final String REPLAY_PARKED_UID = "projection-replay-parked-v1";
    public static final String REPLAY_SETTLE_SINK_UID = "projection-replay-settle-sink-v1";

    private final RawChangeSource source;
    private final ProjectionSinks sinks;
    private final ReadableConfig conf;

    public ProjectionJob(RawChangeSource source, ProjectionSinks sinks, ReadableConfig conf) {
        this.source = source;
        this.sinks = sinks;
        this.conf = conf;
    }

    /** Streams of the built job, for tests and extra sinks. */
    public record Streams(
            GateStreams gate,
            DataStream<ProjectionUpdate> updates,
            DataStream<SourceDeadLetter> sourceDeadLetters) {}

    public static GateConfig gateConfig(ReadableConfig conf) {
        return GateConfig.of(
                conf.get(JobOptions.GATE_DEDUPE_HORIZON),
                conf.get(JobOptions.GATE_GAP_SLA),
                conf.get(JobOptions.GATE_MAX_PARKED));
    }

    /** Adds the job and its sinks to {@code env}. */
    public Streams build(StreamExecutionEnvironment env) {
        String ledgerTable = JobOptions.sourceTable(conf, Tables.LEDGER);
        ParseChanges<GateEvent> parse =
                new ParseChanges<>(
                        ledgerTable, conf.get(JobOptions.KINESIS_PAYLOAD), new AuthorityMapper());
        SingleOutputStreamOperator<GateEvent> events =
                source.open(env)
                        .process(parse, GateState.GATE_EVENT)
                        .uid(PARSE_UID)
                        .name(PARSE_NAME);
        List<String> replayTenants = conf.get(JobOptions.REPLAY_TENANTS);
        DataStream<GateEvent> gateInput = events;
        if (!replayTenants.isEmpty()) {
            // before the gate: a replayed event meets its key's versions and inbox again, so an
            // applied one is a counted stale/duplicate no-op (effects exactly once)
            gateInput =
                    events.union(
                            ReplaySource.stream(
                                    env,
                                    conf,
                                    ROLE,
                                    replayDecoder(parse, conf.get(JobOptions.TRANSPORT)),
                                    GateState.GATE_EVENT,
                                    REPLAY_SOURCE_UID));
        }

        DataStream<GateEvent> skips =
                sinks.parkedGaps() == null
                        ? null
                        : ParkedGaps.skipRequests(env, conf, ROLE, GATE_OPERATOR, SKIP_SOURCE_UID);
        GateStreams gate = Gate.apply(gateInput, skips, gateConfig(conf));
        if (sinks.parkedGaps() != null) {
            gate.parkedGaps()
                    .sinkTo(sinks.parkedGaps())
                    .uid(PARKED_GAP_SINK_UID)
                    .name("projection: parked gaps (dead-letter table)");
        }

        KeySelector<GateEvent, String> byEventKey = GateEvent::getSourceKey;
        KeySelector<GapNotice, String> byNoticeKey = GapNotice::getSourceKey;
        SingleOutputStreamOperator<ProjectionUpdate> updates =
                gate.applied()
                        .connect(gate.gapNotices())
                        .keyBy(byEventKey, byNoticeKey, GateState.SOURCE_KEY)
                        .process(new ProjectionTracker(), ProjectionState.UPDATE)
                        .uid(ProjectionState.TRACKER_UID)
                        .name(ProjectionState.TRACKER_NAME);

        updates.filter(u -> u.getPayload() != null)
                .returns(ProjectionState.UPDATE)
                .uid(VIEW_FILTER_UID)
                .name("projection: rows with an applied version")
                .sinkTo(sinks.viewRows())
                .uid(VIEW_SINK_UID)
                .name("projection: Portfolio view rows (IDX07)");
        updates.sinkTo(sinks.checkpointRows())
                .uid(CHECKPOINT_SINK_UID)
                .name("projection: checkpoint rows (IDX12)");
        gate.gapBreaks()
                .sinkTo(sinks.gapBreaks())
                .uid(BREAK_SINK_UID)
                .name("projection: gap breaks (AP15, create-once)");
        gate.deadLetters()
                .sinkTo(sinks.deadLetters())
                .uid(DEAD_LETTER_SINK_UID)
                .name("projection: gate dead letters (dead-letter table)");
        if (!replayTenants.isEmpty()) {
            replayOutcomes(gate)
                    .addSink(
                            new ReplaySettlementSink(
                                    JobOptions.dynamoDbClient(conf), DeadLetters.table(conf), ROLE))
                    .setParallelism(1)
                    .uid(REPLAY_SETTLE_SINK_UID)
                    .name("projection: settle replayed dead letters");
        }
        DataStream<SourceDeadLetter> sourceDeadLetters =
                events.getSideOutput(SourceTypes.DEAD_LETTERS);
        sourceDeadLetters
                .sinkTo(sinks.sourceDeadLetters())
                .uid(SOURCE_DEAD_LETTER_SINK_UID)
                .name("projection: source dead letters (dead-letter table)");
        return new Streams(gate, updates, sourceDeadLetters);
    }

    /**
     * The event a projection entry held where it left the job: a gate entry's event (it re-enters
     * the gate), a source entry's raw record parsed again by {@code parse} (a fixed mapper now
     * accepts it; it enters the gate like a parsed record). Tagged with its entry for settling.
     */
    static ReplaySource.Decoder<GateEvent> replayDecoder(
            ParseChanges<GateEvent> parse, TransportKind transport) {
        return entry -> {
            if (Replays.fromGate(entry.reason())) {
                return Replays.gateEvent(entry);
            }
            if (Replays.fromSource(entry.reason())) {
                return Replays.tag(Replays.reparse(entry, parse, transport), entry);
            }
            throw new IllegalArgumentException(
                    "the projection job re-injects gate and source dead letters, not "
                            + entry.reason());
        };
    }

    /**
     * What became of each replayed event at the gate: applied, or already applied (stale,
     * duplicate), or set aside again (attempt counted by its own entry's upsert when the gate
     * dead-letters it under the same entry, else by the settle), or parked behind a gap (the entry
     * says so until the event applies).
     */
    static DataStream<ReplayOutcome> replayOutcomes(GateStreams gate) {
        DeadLetterConverter<DeadLetter> entries = DeadLetters.fromGate(ROLE, GATE_OPERATOR);
        TypeInformation<ReplayOutcome> type = ReplayOutcome.TYPE;
        DataStream<ReplayOutcome> applied =
                settled(gate.applied(), "APPLIED", type, REPLAY_APPLIED_UID);
        DataStream<ReplayOutcome> stale = settled(gate.stale(), "STALE", type, REPLAY_STALE_UID);
        DataStream<ReplayOutcome> duplicate =
                settled(gate.duplicates(), "DUPLICATE", type, REPLAY_DUPLICATE_UID);
        DataStream<ReplayOutcome> failed =
                ReplayOutcomes.failedAtGate(
                        gate.deadLetters(),
                        entries,
                        REPLAY_FAILED_UID,
                        "projection: replays set aside again");
        DataStream<ReplayOutcome> parked =
                ReplayOutcomes.parked(
                        gate.parkedReplays(),
                        ROLE,
                        GATE_OPERATOR,
                        REPLAY_PARKED_UID,
                        "projection: replays parked behind a gap");
        return applied.union(stale, duplicate, failed, parked);
    }

    private static DataStream<ReplayOutcome> settled(
            DataStream<GateEvent> events,
            String how,
            TypeInformation<ReplayOutcome> type,
            String uid) {
        return events.flatMap(
                        (GateEvent e, Collector<ReplayOutcome> out) -> {
                            if (e.isReplay()) {
                                out.collect(ReplayOutcome.applied(e, how));
                            }
                        },
                        type)
                .uid(uid)
                .name("projection: replays " + how.toLowerCase(Locale.ROOT));
    }

    /** Builds and runs. */
    public void execute(StreamExecutionEnvironment env) throws Exception {
        build(env);
        env.execute("streamledger projection");
    }

    /** Production wiring from command-line options ({@code --key value}). */
    public static void main(String[] args) throws Exception {
        Configuration conf = ParameterTool.fromArgs(args).getConfiguration();
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
        new ProjectionJob(
                        ChangeSources.fromConfig(conf, ROLE),
                        new DynamoDbProjectionSinks(conf),
                        conf)
                .execute(env);
    }

    /** Authority changes of the Ledger table; postings and counters are skipped. */
    static final class AuthorityMapper implements RecordMapper<GateEvent> {
        private static final long serialVersionUID = 1L;

        @Override
        public Optional<GateEvent> fromChange(ChangeRecord change) {
            return AuthorityChanges.toGateEvent(change);
        }
    }
}
