package io.streamledger.jobs.posting;

import io.streamledger.jobs.config.JobOptions;
import io.streamledger.jobs.source.ChangeSources;
import io.streamledger.jobs.source.ParseChanges;
import io.streamledger.jobs.source.RawChangeSource;
import io.streamledger.jobs.source.RecordMapper;
import io.streamledger.jobs.source.SourceDeadLetter;
import io.streamledger.jobs.source.SourceTypes;
import io.streamledger.model.change.ChangeRecord;
import io.streamledger.model.change.OutboxEvent;
import io.streamledger.model.table.Tables;
import io.streamledger.operators.posting.PostingOutcome;
import io.streamledger.operators.posting.PostingState;
import io.streamledger.operators.posting.TradeFill;
import io.streamledger.operators.posting.TradeFills;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.java.utils.ParameterTool;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.streaming.api.datastream.AsyncDataStream;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.sink.v2.DiscardingSink;

/**
 * The posting job (AP09 + AP10 + AP12): TradeExecuted outbox events from the Context table's stream
 * (or the relay's Kinesis stream) → one balanced ledger transaction, inbox receipt and authority
 * update per fill, in one DynamoDB transaction. Takes its source as an argument (STYLE habit 2);
 * {@link #main} wires the production one from {@link JobOptions}.
 */
public final class PostingJob {

    /** Role name in source uids. */
    public static final String ROLE = "posting";

    private final RawChangeSource source;
    private final ReadableConfig conf;
    private final PostingSettings settings;

    public PostingJob(RawChangeSource source, ReadableConfig conf) {
        this.source = source;
        this.conf = conf;
        this.settings = PostingSettings.from(conf);
    }

    /** The job's streams after {@link #build}: for sinks and tests. */
    public record Streams(
            DataStream<PostingOutcome> outcomes,
            DataStream<PostingOutcome> rejected,
            DataStream<SourceDeadLetter> deadLetters) {}

    /** Adds the job to {@code env}. */
    public Streams build(StreamExecutionEnvironment env) {
        String contextTable = JobOptions.sourceTable(conf, Tables.CONTEXT);
        SingleOutputStreamOperator<TradeFill> fills =
                source.open(env)
                        .process(
                                new ParseChanges<>(
                                        contextTable,
                                        conf.get(JobOptions.KINESIS_PAYLOAD),
                                        new FillMapper()),
                                PostingState.FILL)
                        .uid(PostingState.PARSE_UID)
                        .name(PostingState.PARSE_NAME);

        // one lane = tenant + house shard of the client account (see PostingLane)
        DataStream<TradeFill> byLane =
                fills.keyBy(new PostingLane(settings.rules().house()), Types.STRING);
        SingleOutputStreamOperator<PostingOutcome> outcomes =
                AsyncDataStream.unorderedWait(
                                byLane,
                                new PostFillFunction(settings),
                                settings.timeout().toMillis(),
                                TimeUnit.MILLISECONDS,
                                settings.capacity())
                        .returns(PostingState.OUTCOME)
                        .uid(PostingState.POST_UID)
                        .name(PostingState.POST_NAME);
        DataStream<PostingOutcome> rejected =
                outcomes.filter(o -> PostingOutcome.REJECTED.equals(o.getStatus()))
                        .returns(PostingState.OUTCOME)
                        .uid("posting-rejected-v1")
                        .name("posting: rejected fills");
        return new Streams(outcomes, rejected, fills.getSideOutput(SourceTypes.DEAD_LETTERS));
    }

    /** Builds with discarding terminal sinks and runs (production entry). */
    public void execute(StreamExecutionEnvironment env) throws Exception {
        Streams s = build(env);
        s.outcomes()
                .sinkTo(new DiscardingSink<>())
                .uid("posting-outcomes-sink-v1")
                .name("posting: outcomes");
        s.deadLetters().print("posting-dead-letter").uid("posting-dead-letter-print-v1");
        s.rejected().print("posting-rejected").uid("posting-rejected-print-v1");
        env.execute("streamledger posting");
    }

    /** Production wiring: options from the command line ({@code --key value}). */
    public static void main(String[] args) throws Exception {
        Configuration conf = ParameterTool.fromArgs(args).getConfiguration();
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
        new PostingJob(ChangeSources.fromConfig(conf, ROLE), conf).execute(env);
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
