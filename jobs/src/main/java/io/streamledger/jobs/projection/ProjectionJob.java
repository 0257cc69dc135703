package io.streamledger.jobs.projection;

import io.streamledger.jobs.config.JobOptions;
import io.streamledger.jobs.gaps.ParkedGaps;
import io.streamledger.jobs.source.ChangeSources;
import io.streamledger.jobs.source.ParseChanges;
import io.streamledger.jobs.source.RawChangeSource;
import io.streamledger.jobs.source.RecordMapper;
import io.streamledger.jobs.source.SourceDeadLetter;
import io.streamledger.jobs.source.SourceTypes;
import io.streamledger.model.change.ChangeRecord;
import io.streamledger.model.table.Tables;
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
import java.util.Optional;
import org.apache.flink.api.java.functions.KeySelector;
import org.apache.flink.api.java.utils.ParameterTool;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

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
        SingleOutputStreamOperator<GateEvent> events =
                source.open(env)
                        .process(
                                new ParseChanges<>(
                                        ledgerTable,
                                        conf.get(JobOptions.KINESIS_PAYLOAD),
                                        new AuthorityMapper()),
                                GateState.GATE_EVENT)
                        .uid(PARSE_UID)
                        .name(PARSE_NAME);

        DataStream<GateEvent> skips =
                sinks.parkedGaps() == null
                        ? null
                        : ParkedGaps.skipRequests(env, conf, ROLE, GATE_OPERATOR, SKIP_SOURCE_UID);
        GateStreams gate = Gate.apply(events, skips, gateConfig(conf));
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
        DataStream<SourceDeadLetter> sourceDeadLetters =
                events.getSideOutput(SourceTypes.DEAD_LETTERS);
        sourceDeadLetters
                .sinkTo(sinks.sourceDeadLetters())
                .uid(SOURCE_DEAD_LETTER_SINK_UID)
                .name("projection: source dead letters (dead-letter table)");
        return new Streams(gate, updates, sourceDeadLetters);
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
