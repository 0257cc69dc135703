package io.streamledger.jobs.deadletter;

import io.streamledger.operators.gate.DeadLetter;
import io.streamledger.operators.gate.GateEvent;
import io.streamledger.operators.gate.ParkedReplay;
import io.streamledger.sinks.deadletter.DeadLetterConverter;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.util.Collector;

/**
 * The replay outcomes (CS08) a versioned gate (AP13/CS07) produces in any job that re-injects
 * replays before it, for that job's {@link ReplaySettlementSink}: replays the gate set aside again
 * and replays it parked behind a gap.
 */
public final class ReplayOutcomes {

    private ReplayOutcomes() {}

    /**
     * Replays among the gate's dead letters: back to OPEN, the attempt counted by the gate's own
     * upsert when it landed on the replayed entry ({@code entries} = the job's converter of them),
     * else by the settle.
     */
    public static DataStream<ReplayOutcome> failedAtGate(
            DataStream<DeadLetter> deadLetters,
            DeadLetterConverter<DeadLetter> entries,
            String uid,
            String name) {
        return deadLetters
                .flatMap(
                        (DeadLetter d, Collector<ReplayOutcome> out) -> {
                            GateEvent e = d.getEvent();
                            if (e != null && e.isReplay()) {
                                boolean same =
                                        entries.toEntry(d)
                                                .key()
                                                .equals(Replays.key(e.getReplayOf()));
                                out.collect(
                                        ReplayOutcome.failed(
                                                e, same, d.getReason() + ": " + d.getDetail()));
                            }
                        },
                        ReplayOutcome.TYPE)
                .uid(uid)
                .name(name);
    }

    /** Replays the gate parked: REPLAY_PARKED, naming the gap of {@code gateOperator}. */
    public static DataStream<ReplayOutcome> parked(
            DataStream<ParkedReplay> parked,
            String job,
            String gateOperator,
            String uid,
            String name) {
        return parked.map(p -> ReplayOutcome.parked(p, job, gateOperator), ReplayOutcome.TYPE)
                .uid(uid)
                .name(name);
    }
}
