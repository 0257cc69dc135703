package io.streamledger.jobs.ledgercheck;

import io.streamledger.jobs.config.JobOptions;
import io.streamledger.jobs.config.JobOptions.TransportKind;
import io.streamledger.jobs.deadletter.DeadLetters;
import io.streamledger.jobs.deadletter.Reinjection;
import io.streamledger.jobs.deadletter.ReplaySource;
import io.streamledger.jobs.deadletter.Replays;
import io.streamledger.jobs.recon.BreakSinks;
import io.streamledger.jobs.recon.ReconOptions;
import io.streamledger.jobs.source.ChangeSources;
import io.streamledger.jobs.source.ParseChanges;
import io.streamledger.jobs.source.RawChangeSource;
import io.streamledger.jobs.source.RecordMapper;
import io.streamledger.jobs.source.SourceDeadLetter;
import io.streamledger.jobs.source.SourceTypes;
import io.streamledger.model.change.ChangeRecord;
import io.streamledger.model.change.Operation;
import io.streamledger.model.table.Tables;
import io.streamledger.operators.ledgercheck.FactKind;
import io.streamledger.operators.ledgercheck.LedgerCheckConfig;
import io.streamledger.operators.ledgercheck.LedgerCheckState;
import io.streamledger.operators.ledgercheck.LedgerChecks;
import io.streamledger.operators.ledgercheck.LedgerFact;
import io.streamledger.operators.ledgercheck.LedgerFacts;
import io.streamledger.operators.recon.BreakRecord;
import java.time.Duration;
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
 * Unreadable records go to the dead-letter sink with their reason; the job keeps running, and a
 * replay request re-injects them after the parse step (CS08). Source and both sinks are arguments;
 * {@link #main} wires the production ones.
 */
public final class LedgerCheckJob {

    public static final String ROLE = "ledgercheck";
    public static final String PARSE_UID = "ledgercheck-parse-v1";
    public static final String BREAK_SINK_UID = "ledgercheck-break-sink-v1";
    public static final String BREAK_SINK_NAME =
            "ledger check: break rows (IDX14/IDX15, create-once)";
    public static final String DEAD_LETTER_SINK_UID = "ledgercheck-dead-letter-sink-v1";

    /**
     * Replay input: {@code -source-v1}, {@code -records-v1}, {@code -outcomes-v1} (Reinjection).
     */
    public static final String REPLAY_UID_PREFIX = "ledgercheck-replay";

    public static final String REPLAY_SOURCE_UID = Reinjection.sourceUid(REPLAY_UID_PREFIX);
    public static final String REPLAY_SETTLE_SINK_UID = "ledgercheck-replay-settle-sink-v1";

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
        ParseChanges<LedgerFact> parse =
                new ParseChanges<>(
                        ledgerTable, conf.get(JobOptions.KINESIS_PAYLOAD), new FactMapper());
        SingleOutputStreamOperator<LedgerFact> facts =
                source.open(env)
                        .process(parse, LedgerCheckState.FACT)
                        .uid(PARSE_UID)
                        .name("ledger check: parse ledger changes");
        LedgerCheckConfig config = ReconOptions.ledgerCheckConfig(conf);
        DataStream<LedgerFact> checked = facts;
        if (!conf.get(JobOptions.REPLAY_TENANTS).isEmpty()) {
            // where the parsed record entered: the checks are keyed and decide once per
            // transaction and authority version, so a replayed duplicate is a counted no-op
            Reinjection.Streams<LedgerFact> replays =
                    Reinjection.stream(
                            env,
                            conf,
                            ROLE,
                            replayDecoder(parse, conf.get(JobOptions.TRANSPORT), config),
                            LedgerCheckState.FACT,
                            REPLAY_UID_PREFIX);
            checked = facts.union(replays.records());
            Reinjection.settle(replays.outcomes(), conf, ROLE, REPLAY_SETTLE_SINK_UID);
        }
        DataStream<BreakRecord> breaks = LedgerChecks.apply(checked, config);
        breaks.sinkTo(breakSink).uid(BREAK_SINK_UID).name(BREAK_SINK_NAME);
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

    /**
     * A ledger-check entry's record: only the parse step sets records aside, so only source entries
     * are re-injected, parsed again by {@code parse} (a fixed mapper now accepts them). A posting
     * line older than its transaction's SLA plus the decided-transaction retention is refused: its
     * transaction was decided without it and forgotten, so the line alone would open it again.
     */
    static ReplaySource.Decoder<LedgerFact> replayDecoder(
            ParseChanges<LedgerFact> parse, TransportKind transport, LedgerCheckConfig config) {
        long horizonMillis = config.txnSlaMillis() + config.doneRetentionMillis();
        return entry -> {
            if (!Replays.fromSource(entry.reason())) {
                throw new IllegalArgumentException(
                        "the ledger-check job sets aside and re-injects source records only, not "
                                + entry.reason());
            }
            LedgerFact f = Replays.reparse(entry, parse, transport);
            long age = System.currentTimeMillis() - f.eventTimeMillis;
            if (f.kind == FactKind.POSTING
                    && f.operation == Operation.INSERT
                    && age > horizonMillis) {
                throw new IllegalArgumentException(
                        "posting "
                                + f.txnId
                                + " line "
                                + f.line
                                + " is "
                                + Duration.ofMillis(age).toMinutes()
                                + " min old: its transaction was decided without it and"
                                + " forgotten after "
                                + Duration.ofMillis(horizonMillis).toMinutes()
                                + " min (txn SLA + retention); alone it would reopen it");
            }
            return f;
        };
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
