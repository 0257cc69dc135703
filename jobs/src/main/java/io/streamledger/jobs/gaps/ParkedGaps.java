package io.streamledger.jobs.gaps;

import io.streamledger.jobs.config.JobOptions;
import io.streamledger.jobs.deadletter.DeadLetters;
import io.streamledger.operators.gate.GateEvent;
import io.streamledger.operators.gate.ParkedGap;
import io.streamledger.sinks.gaps.ParkedGapSink;
import java.util.List;
import javax.annotation.Nullable;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * A job's wiring of its gate's parked gaps (CS07: visible, released only by the missing version or
 * an audited skip): the durable record sink and the skip-request source, both on the DeadLetter
 * table, for the jobs' entry points.
 */
public final class ParkedGaps {

    private ParkedGaps() {}

    /** The durable parked-gap records of gate {@code operator} in {@code job}. */
    public static Sink<ParkedGap> sink(ReadableConfig conf, String job, String operator) {
        return new ParkedGapSink(
                JobOptions.dynamoDbClient(conf),
                DeadLetters.table(conf),
                job,
                operator,
                DeadLetters.MAX_ATTEMPTS,
                DeadLetters.BACKOFF_BASE_MILLIS,
                DeadLetters.BACKOFF_MAX_MILLIS);
    }

    /**
     * Operators' skip requests for gate {@code operator}, polled for the tenants of {@link
     * JobOptions#REPLAY_TENANTS}; null when none are configured (no skip can then be applied).
     */
    public static @Nullable DataStream<GateEvent> skipRequests(
            StreamExecutionEnvironment env,
            ReadableConfig conf,
            String job,
            String operator,
            String uid) {
        List<String> tenants = conf.get(JobOptions.REPLAY_TENANTS);
        if (tenants.isEmpty()) {
            return null;
        }
        return env.addSource(
                        new SkipRequestSource(
                                JobOptions.dynamoDbClient(conf),
                                DeadLetters.table(conf),
                                job,
                                operator,
                                tenants,
                                conf.get(JobOptions.REPLAY_POLL_INTERVAL)),
                        job + ": gap skip requests",
                        io.streamledger.operators.gate.GateState.GATE_EVENT)
                .setParallelism(1)
                .uid(uid);
    }
}
