package io.streamledger.jobs.deadletter;

import io.streamledger.aws.deadletter.DeadLetterView;
import io.streamledger.jobs.config.JobOptions;
import io.streamledger.jobs.config.JobOptions.TransportKind;
import io.streamledger.jobs.source.ParseChanges;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.java.tuple.Tuple3;
import org.apache.flink.api.java.typeutils.TupleTypeInfo;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * The replay input of jobs whose own keyed state decides once per key (the ledger checks per
 * transaction and authority version, the reconciliation window per trade, txn line and authority
 * version; CS08 replay, AP15 create-once breaks): each entry is read by {@link
 * ReplaySource#stream}, re-enters the job as its record and is settled REPLAYED ({@value
 * #REINJECTED}) by {@link ReplaySettlementSink} once the checkpoint holding it completes — a
 * duplicate is then a counted no-op of the checks, never a second break. An entry that cannot be
 * decoded goes back to OPEN with attempts + 1 (the source's path).
 */
public final class Reinjection {

    /** The settle note: the record re-entered the job's path. */
    public static final String REINJECTED = "REINJECTED";

    private Reinjection() {}

    /** The re-injected records and what became of their entries. */
    public record Streams<T>(DataStream<T> records, DataStream<ReplayOutcome> outcomes) {}

    /**
     * The replay input of {@code job}: source under {@code uidPrefix + "-source-v1"}, the records
     * under {@code uidPrefix + "-records-v1"}, the outcomes under {@code uidPrefix +
     * "-outcomes-v1"}; all non-parallel.
     */
    public static <T> Streams<T> stream(
            StreamExecutionEnvironment env,
            ReadableConfig conf,
            String job,
            ReplaySource.Decoder<T> decoder,
            TypeInformation<T> type,
            String uidPrefix) {
        TypeInformation<Tuple3<T, String, Long>> tagged =
                new TupleTypeInfo<>(type, Types.STRING, Types.LONG);
        DataStream<Tuple3<T, String, Long>> entries =
                ReplaySource.stream(
                        env,
                        conf,
                        job,
                        e -> Tuple3.of(decoder.decode(e), Replays.ref(e), e.version()),
                        tagged,
                        sourceUid(uidPrefix));
        DataStream<T> records =
                entries.map(t -> t.f0)
                        .returns(type)
                        .setParallelism(1)
                        .uid(uidPrefix + "-records-v1")
                        .name(job + ": replayed records");
        DataStream<ReplayOutcome> outcomes =
                entries.map(t -> new ReplayOutcome(t.f1, t.f2, true, false, REINJECTED))
                        .returns(ReplayOutcome.TYPE)
                        .setParallelism(1)
                        .uid(uidPrefix + "-outcomes-v1")
                        .name(job + ": replays re-injected");
        return new Streams<>(records, outcomes);
    }

    /** The replay source's uid for {@code uidPrefix}, e.g. {@code ledgercheck-replay-source-v1}. */
    public static String sourceUid(String uidPrefix) {
        return uidPrefix + "-source-v1";
    }

    /** Settles {@code outcomes} on their entries under {@code uid}. */
    public static void settle(
            DataStream<ReplayOutcome> outcomes, ReadableConfig conf, String job, String uid) {
        outcomes.addSink(
                        new ReplaySettlementSink(
                                JobOptions.dynamoDbClient(conf), DeadLetters.table(conf), job))
                .setParallelism(1)
                .uid(uid)
                .name(job + ": settle replayed dead letters");
    }

    /**
     * A source entry's raw record parsed again by the one of {@code parses} (one per stream the job
     * reads) whose mapper claims it; the item shapes of the streams are disjoint, so at most one
     * does.
     *
     * @throws IllegalArgumentException with the parse reason if the claiming parse still fails, or
     *     when no parse claims it
     */
    public static <T> T reparseAny(
            DeadLetterView entry, List<ParseChanges<T>> parses, TransportKind transport) {
        List<T> claimed = new ArrayList<>();
        String failure = null;
        for (ParseChanges<T> parse : parses) {
            Optional<T> parsed;
            try {
                parsed = parse.parse(Replays.rawChange(entry, transport));
            } catch (ParseChanges.Failure f) {
                if (failure == null) {
                    failure = "still " + f.reason() + ": " + f.getMessage();
                }
                continue;
            }
            parsed.ifPresent(claimed::add);
        }
        if (claimed.size() == 1) {
            return claimed.get(0);
        }
        if (claimed.size() > 1) {
            throw new IllegalArgumentException(
                    "the record maps onto " + claimed.size() + " of the job's streams");
        }
        throw new IllegalArgumentException(
                failure != null ? failure : "the record is no event of this job");
    }
}
