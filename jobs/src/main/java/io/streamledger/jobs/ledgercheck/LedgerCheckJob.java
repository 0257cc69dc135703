package io.streamledger.jobs.ledgercheck;

import io.streamledger.jobs.config.JobOptions;
import io.streamledger.jobs.deadletter.DeadLetters;
import io.streamledger.jobs.recon.BreakSinks;
import io.streamledger.jobs.recon.ReconOptions;
import io.streamledger.jobs.source.ChangeSources;
import io.streamledger.jobs.source.ParseChanges;
import io.streamledger.jobs.source.RawChangeSource;
import io.streamledger.jobs.source.RecordMapper;
import io.streamledger.jobs.source.SourceDeadLetter;
import io.streamledger.jobs.source.SourceTypes;
import io.streamledger.model.change.ChangeRecord;
import io.streamledger.model.table.Tables;
import io.streamledger.operators.ledgercheck.LedgerCheckState;
import io.streamledger.operators.ledgercheck.LedgerChecks;
import io.streamledger.operators.ledgercheck.LedgerFact;
import io.streamledger.operators.ledgercheck.LedgerFacts;
import io.streamledger.operators.recon.BreakRecord;
import java.util.Optional;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.java.utils.ParameterTool;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * The ledger-check job (CS11, AP10–AP12 → AP15): Ledger-table change records → {@link LedgerFact}s
 * → the ledger checks → create-once break rows in the Reconciliation table (IDX14/IDX15).
 * Unreadable records go to the dead-letter sink with their reason; the job keeps running. Source
 * and both sinks are arguments; {@link #main} wires the production ones.
 */
public final class LedgerCheckJob {

    public static final String ROLE = "ledgercheck";
    public static final String PARSE_UID = "ledgercheck-parse-v1";
    public static final String BREAK_SINK_UID = "ledgercheck-break-sink-v1";
    public static final String DEAD_LETTER_SINK_UID = "ledgercheck-dead-letter-sink-v1";

    private final RawChangeSource source;
    private final Sink<BreakRecord> breakSink;
    private final Sink<SourceDeadLetter> deadLetterSink;
    private final ReadableConfig conf;

    /**
     * @param breakSink effect sink: the checks' breaks
     * @param deadLetterSink source records that could not be parsed or mapped
     */
    public LedgerCheckJob(
            RawChangeSource source,
            Sink<BreakRecord> breakSink,
            Sink<SourceDeadLetter> deadLetterSink,
            ReadableConfig conf) {
        this.source = source;
        this.breakSink = breakSink;
        this.deadLetterSink = deadLetterSink;
        this.conf = conf;
    }

    /** Streams of the built job, for tests and extra sinks. */
    public record Streams(
            DataStream<LedgerFact> facts,
            DataStream<BreakRecord> breaks,
            DataStream<SourceDeadLetter> deadLetters) {}

    public Streams build(StreamExecutionEnvironment env) {
        String ledgerTable = JobOptions.sourceTable(conf, Tables.LEDGER);
        SingleOutputStreamOperator<LedgerFact> facts =
                source.open(env)
                        .process(
                                new ParseChanges<>(
                                        ledgerTable,
                                        conf.get(JobOptions.KINESIS_PAYLOAD),
                                        new FactMapper()),
                                LedgerCheckState.FACT)
                        .uid(PARSE_UID)
                        .name("ledger check: parse ledger changes");
        DataStream<BreakRecord> breaks =
                LedgerChecks.apply(facts, ReconOptions.ledgerCheckConfig(conf));
        breaks.sinkTo(breakSink)
                .uid(BREAK_SINK_UID)
                .name("ledger check: break rows (IDX14/IDX15, create-once)");
        DataStream<SourceDeadLetter> deadLetters = facts.getSideOutput(SourceTypes.DEAD_LETTERS);
        deadLetters
                .sinkTo(deadLetterSink)
                .uid(DEAD_LETTER_SINK_UID)
                .name("ledger check: source dead letters (dead-letter table)");
        return new Streams(facts, breaks, deadLetters);
    }

    public void execute(StreamExecutionEnvironment env) throws Exception {
        build(env);
        env.execute("streamledger ledger check");
    }

    /** Production wiring from command-line options ({@code --key value}). */
    public static void main(String[] args) throws Exception {
        Configuration conf = ParameterTool.fromArgs(args).getConfiguration();
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
        new LedgerCheckJob(
                        ChangeSources.fromConfig(conf, ROLE),
                        BreakSinks.dynamoDb(conf),
                        DeadLetters.sink(conf, DeadLetters.fromSource(ROLE, PARSE_UID)),
                        conf)
                .execute(env);
    }

    /** Ledger postings, authorities and month counters; other items are skipped. */
    static final class FactMapper implements RecordMapper<LedgerFact> {
        private static final long serialVersionUID = 1L;

        @Override
        public Optional<LedgerFact> fromChange(ChangeRecord change) {
            return LedgerFacts.fromChange(change);
        }
    }
}
