package io.streamledger.jobs.deadletter;

import io.streamledger.aws.client.DynamoDbClientConfig;
import io.streamledger.aws.deadletter.DeadLetterItems;
import io.streamledger.model.keys.DeadLetterKey;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.NavigableMap;
import java.util.TreeMap;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.CheckpointListener;
import org.apache.flink.metrics.Counter;
import org.apache.flink.runtime.state.FunctionInitializationContext;
import org.apache.flink.runtime.state.FunctionSnapshotContext;
import org.apache.flink.streaming.api.checkpoint.CheckpointedFunction;
import org.apache.flink.streaming.api.functions.sink.RichSinkFunction;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;

/**
 * Settles re-injected dead-letter entries (CS08 replay) once the checkpoint holding their effect
 * completes, through {@link DeadLetterItems#settleReplayRequests}: REPLAYED, or back to OPEN, or
 * REPLAY_PARKED while the job's gate holds the event behind a gap. Holds no Flink state: an outcome
 * lost in a failover leaves its entry REPLAY_REQUESTED, the replay source emits it again and the
 * gate then finds it applied (a stale/duplicate no-op), so effects stay exactly once; a
 * REPLAY_PARKED entry is no longer emitted, but the restored gate still holds the parked event and
 * the replayed input releases it again. A settle whose condition fails (the entry moved on, or a
 * second copy of one replay) changes nothing. Metrics (group {@code replay}): {@code settled},
 * {@code settleFailed}, {@code settleUnchanged}, {@code parked}.
 */
public final class ReplaySettlementSink extends RichSinkFunction<ReplayOutcome>
        implements CheckpointedFunction, CheckpointListener {

    private static final long serialVersionUID = 1L;

    private final DynamoDbClientConfig client;
    private final String table;
    private final String job;

    private transient DynamoDbClient ddb;
    private transient List<ReplayOutcome> pending;
    private transient NavigableMap<Long, List<ReplayOutcome>> byCheckpoint;
    private transient Counter settled;
    private transient Counter failed;
    private transient Counter unchanged;
    private transient Counter parked;

    /**
     * @param table physical DeadLetter table
     * @param job the job's role name, e.g. {@code projection}
     */
    public ReplaySettlementSink(DynamoDbClientConfig client, String table, String job) {
        this.client = client;
        this.table = table;
        this.job = job;
    }

    /**
     * The conditional writes of one outcome, to try in order until one's condition holds (pure): a
     * park is REPLAY_REQUESTED → REPLAY_PARKED; an outcome settles from REPLAY_REQUESTED or from
     * REPLAY_PARKED ({@link DeadLetterItems#settleReplayRequests}).
     */
    public static List<UpdateItemRequest> requests(
            String table, String job, ReplayOutcome o, Instant at) {
        DeadLetterKey key = Replays.key(o.getReplayOf());
        if (o.isParked()) {
            return List.of(
                    DeadLetterItems.replayParked(
                            table, key, o.getReplayVersion(), "job:" + job, o.getNote(), at));
        }
        return DeadLetterItems.settleReplayRequests(
                table,
                key,
                o.getReplayVersion(),
                o.isApplied(),
                o.isAttemptCounted(),
                "job:" + job,
                o.getNote(),
                at);
    }

    @Override
    public void initializeState(FunctionInitializationContext context) {
        pending = new ArrayList<>();
        byCheckpoint = new TreeMap<>();
    }

    @Override
    public void open(OpenContext ctx) {
        ddb = client.buildSyncClient();
        var g = getRuntimeContext().getMetricGroup().addGroup("replay");
        settled = g.counter("settled");
        failed = g.counter("settleFailed");
        unchanged = g.counter("settleUnchanged");
        parked = g.counter("parked");
    }

    @Override
    public void invoke(ReplayOutcome value, Context context) {
        pending.add(value);
    }

    @Override
    public void snapshotState(FunctionSnapshotContext context) {
        if (!pending.isEmpty()) {
            byCheckpoint.put(context.getCheckpointId(), pending);
            pending = new ArrayList<>();
        }
    }

    @Override
    public void notifyCheckpointComplete(long checkpointId) {
        var done = byCheckpoint.headMap(checkpointId, true);
        done.values().forEach(l -> l.forEach(this::settle));
        done.clear();
    }

    @Override
    public void finish() {
        // a bounded input ends without a further checkpoint: its effects are flushed by now
        byCheckpoint.values().forEach(l -> l.forEach(this::settle));
        byCheckpoint.clear();
        pending.forEach(this::settle);
        pending.clear();
    }

    private void settle(ReplayOutcome o) {
        boolean done =
                DeadLetterItems.settleFirst(
                        requests(table, job, o, Instant.now()),
                        r -> {
                            try {
                                ddb.updateItem(r);
                                return true;
                            } catch (ConditionalCheckFailedException e) {
                                return false;
                            }
                        });
        (done ? o.isParked() ? parked : o.isApplied() ? settled : failed : unchanged).inc();
    }

    @Override
    public void close() {
        if (ddb != null) {
            ddb.close();
        }
    }
}
