package io.streamledger.sinks.it;

import io.streamledger.aws.client.DynamoDbClientConfig;
import io.streamledger.sinks.versioned.VersionedDynamoDbSink;
import io.streamledger.sinks.versioned.VersionedDynamoDbSinkBuilder;
import io.streamledger.sinks.versioned.WriteGuard;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.flink.api.common.JobExecutionResult;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.connector.source.util.ratelimit.RateLimiterStrategy;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.connector.datagen.source.GeneratorFunction;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * Fluent builder for one MiniCluster run of the versioned sink: a deterministic event list from a
 * replayable source, optional checkpointing and injected failure, the sink.
 */
final class SinkJobScenario {
    private final List<PositionEvent> events = new ArrayList<>();
    private String table;
    private DynamoDbClientConfig clientConfig;
    private WriteGuard guard = WriteGuard.versionGuard();
    private int parallelism = 2;
    private long checkpointIntervalMs = 0;
    private double eventsPerSecond = 0;
    private String failToken;
    private long failAt;
    private int maxBatchSize = 50;

    static SinkJobScenario writingTo(String table, DynamoDbClientConfig clientConfig) {
        SinkJobScenario s = new SinkJobScenario();
        s.table = table;
        s.clientConfig = clientConfig;
        return s;
    }

    /** {@code keys} positions, versions 1..{@code versions} each, some repeated, shuffled. */
    SinkJobScenario shuffledVersions(int keys, int versions, double duplicateRate, long seed) {
        Random random = new Random(seed);
        for (int k = 0; k < keys; k++) {
            for (int v = 1; v <= versions; v++) {
                PositionEvent e = new PositionEvent("acct" + (k % 7), "SYM" + k, v);
                events.add(e);
                if (random.nextDouble() < duplicateRate) {
                    events.add(new PositionEvent(e.account, e.symbol, e.version));
                }
            }
        }
        java.util.Collections.shuffle(events, random);
        return this;
    }

    SinkJobScenario guard(WriteGuard guard) {
        this.guard = guard;
        return this;
    }

    SinkJobScenario parallelism(int parallelism) {
        this.parallelism = parallelism;
        return this;
    }

    SinkJobScenario maxBatchSize(int n) {
        this.maxBatchSize = n;
        return this;
    }

    /** Checkpoint every {@code intervalMs}, source throttled so checkpoints fall mid-stream. */
    SinkJobScenario checkpointed(long intervalMs, double eventsPerSecond) {
        this.checkpointIntervalMs = intervalMs;
        this.eventsPerSecond = eventsPerSecond;
        return this;
    }

    /** Fail the job once, at the {@code failAt}-th element, and restart from the checkpoint. */
    SinkJobScenario failOnceAt(String token, long failAt) {
        this.failToken = token;
        this.failAt = failAt;
        return this;
    }

    List<PositionEvent> events() {
        return events;
    }

    /** The table the run must end with: the highest version per position. */
    Map<String, Long> expectedVersions() {
        Map<String, Long> max = new HashMap<>();
        for (PositionEvent e : events) {
            max.merge(e.pk() + "|" + e.sk(), e.version, Math::max);
        }
        return max;
    }

    JobExecutionResult run() throws Exception {
        Configuration conf = new Configuration();
        if (failToken != null) {
            conf.set(RestartStrategyOptions.RESTART_STRATEGY, "fixed-delay");
            conf.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_ATTEMPTS, 3);
            conf.set(
                    RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_DELAY,
                    Duration.ofMillis(200));
        }
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
        env.getConfig().disableGenericTypes();
        env.setParallelism(parallelism);
        if (checkpointIntervalMs > 0) {
            env.enableCheckpointing(checkpointIntervalMs);
        }

        List<PositionEvent> data = new ArrayList<>(events);
        GeneratorFunction<Long, PositionEvent> byIndex = i -> data.get(i.intValue());
        DataGeneratorSource<PositionEvent> source =
                new DataGeneratorSource<>(
                        byIndex,
                        data.size(),
                        eventsPerSecond > 0
                                ? RateLimiterStrategy.perSecond(eventsPerSecond)
                                : RateLimiterStrategy.noOp(),
                        TypeInformation.of(PositionEvent.class));
        DataStream<PositionEvent> stream =
                env.fromSource(
                        source,
                        WatermarkStrategy.noWatermarks(),
                        "positions",
                        TypeInformation.of(PositionEvent.class));
        if (failToken != null) {
            stream =
                    stream.map(new FailOnceMap(failToken, failAt))
                            .returns(PositionEvent.class)
                            .setParallelism(1)
                            .name("fail-once");
        }
        VersionedDynamoDbSinkBuilder<PositionEvent> sink =
                VersionedDynamoDbSink.<PositionEvent>builder()
                        .elementConverter(new PositionEventConverter(table))
                        .clientConfig(clientConfig)
                        .guard(guard)
                        .maxBatchSize(maxBatchSize)
                        .maxInFlightRequests(2)
                        .maxBufferedRequests(1000)
                        .maxTimeInBufferMS(100)
                        .retryBackoff(5, 200);
        // rebalance: the same position reaches both sink subtasks, the hardest case for the guard
        stream.rebalance().sinkTo(sink.build()).name("portfolio-sink").uid("portfolio-sink");
        return env.execute("versioned-sink-" + table);
    }
}
