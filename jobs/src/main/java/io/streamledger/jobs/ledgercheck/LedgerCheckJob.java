package io.streamledger.jobs.ledgercheck;

import io.streamledger.jobs.config.JobOptions;
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
 * Unreadable records are dead letters with their reason; the job keeps running.
 */
public final class LedgerCheckJob {

    public static final String ROLE = "ledgercheck";
    public static final String PARSE_UID = "ledgercheck-parse-v1";
    public static final String BREAK_SINK_UID = "ledgercheck-break-sink-v1";

    private final RawChangeSource source;
    private final Sink<BreakRecord> breakSink;
    private final ReadableConfig conf;

    public LedgerCheckJob(
            RawChangeSource source, Sink<BreakRecord> breakSink, ReadableConfig conf) {
        this.source = source;
        this.breakSink = breakSink;
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
        return new Streams(facts, breaks, facts.getSideOutput(SourceTypes.DEAD_LETTERS));
    }

    public void execute(StreamExecutionEnvironment env) throws Exception {
        Streams s = build(env);
        s.deadLetters().print("ledgercheck-dead-letter").uid("ledgercheck-dead-letter-print-v1");
        env.execute("streamledger ledger check");
    }

    /** Production wiring from command-line options ({@code --key value}). */
    public static void main(String[] args) throws Exception {
        Configuration conf = ParameterTool.fromArgs(args).getConfiguration();
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
        new LedgerCheckJob(ChangeSources.fromConfig(conf, ROLE), BreakSinks.dynamoDb(conf), conf)
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
