package io.streamledger.jobs.deadletter;

import io.streamledger.aws.client.DynamoDbClientConfig;
import io.streamledger.aws.deadletter.DeadLetterItems;
import io.streamledger.aws.deadletter.DeadLetterReader;
import io.streamledger.aws.deadletter.DeadLetterView;
import io.streamledger.jobs.config.JobOptions;
import io.streamledger.model.deadletter.DeadLetterStatus;
import io.streamledger.model.keys.DeadLetterKey;
import io.streamledger.model.keys.DeadLetterStatusKey;
import io.streamledger.model.keys.KeyFields;
import io.streamledger.model.table.Attr;
import java.io.Serializable;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.java.typeutils.ResultTypeQueryable;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.metrics.Counter;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.source.RichSourceFunction;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;

/**
 * Re-injects replay requests (CS08): polls the DeadLetter table's sparse REPLAY_REQUESTED queue of
 * each configured tenant ({@link DeadLetterStatusKey}, IDX15-shaped, no scan), reads each entry of
 * this job with a consistent GetItem and emits it decoded into the job's own input type, so the
 * record then meets the job's receipts and versions like the original (effects exactly once). The
 * job settles the entry (REPLAYED, or back to OPEN with attempts + 1); an entry the decoder cannot
 * turn into a record goes back to OPEN with attempts + 1 and the reason in its history.
 * Non-parallel; a request already emitted at its version is not emitted again by this source
 * instance.
 *
 * @param <T> the job's input type at the point the replays join it
 */
public final class ReplaySource<T> extends RichSourceFunction<T> implements ResultTypeQueryable<T> {

    private static final long serialVersionUID = 1L;

    /** Turns one entry into the job's record; throws IllegalArgumentException if it cannot. */
    @FunctionalInterface
    public interface Decoder<T> extends Serializable {
        T decode(DeadLetterView entry);
    }

    private final DynamoDbClientConfig client;
    private final String table;
    private final String job;
    private final List<String> tenants;
    private final long pollMillis;
    private final Decoder<T> decoder;
    private final TypeInformation<T> type;

    private transient volatile boolean running;
    private transient Counter requested;
    private transient Counter undecodable;

    /**
     * @param tenants tenants whose queues are polled (the queue key is tenant-first)
     */
    public ReplaySource(
            DynamoDbClientConfig client,
            String table,
            String job,
            List<String> tenants,
            Duration poll,
            Decoder<T> decoder,
            TypeInformation<T> type) {
        this.client = client;
        this.table = table;
        this.job = job;
        this.tenants = List.copyOf(tenants);
        this.pollMillis = Math.max(1, poll.toMillis());
        this.decoder = decoder;
        this.type = type;
    }

    /**
     * The replay stream of {@code job} as {@code conf} configures it (table, client, {@link
     * #tenants}, poll interval): non-parallel, under {@code uid}.
     */
    public static <T> DataStream<T> stream(
            StreamExecutionEnvironment env,
            ReadableConfig conf,
            String job,
            Decoder<T> decoder,
            TypeInformation<T> type,
            String uid) {
        return env.addSource(
                        new ReplaySource<>(
                                JobOptions.dynamoDbClient(conf),
                                DeadLetters.table(conf),
                                job,
                                tenants(conf),
                                conf.get(JobOptions.REPLAY_POLL_INTERVAL),
                                decoder,
                                type),
                        job + ": dead-letter replays",
                        type)
                .setParallelism(1)
                .uid(uid);
    }

    /**
     * The tenants whose queues a job's replay source polls: the configured ones plus {@link
     * DeadLetterKey#UNKNOWN_TENANT}, where every job's unreadable source records are stored, so a
     * replay request for one of them always has a reader.
     */
    public static List<String> tenants(ReadableConfig conf) {
        List<String> out = new ArrayList<>(conf.get(JobOptions.REPLAY_TENANTS));
        if (!out.isEmpty() && !out.contains(DeadLetterKey.UNKNOWN_TENANT)) {
            out.add(DeadLetterKey.UNKNOWN_TENANT);
        }
        return out;
    }

    @Override
    public void open(OpenContext ctx) {
        running = true;
        var g = getRuntimeContext().getMetricGroup().addGroup("replay");
        requested = g.counter("reinjected");
        undecodable = g.counter("undecodable");
    }

    @Override
    public void run(SourceContext<T> ctx) throws Exception {
        Map<String, Long> emitted = new HashMap<>(); // entry id → version emitted at
        try (DynamoDbClient ddb = client.buildSyncClient()) {
            DeadLetterReader reader = new DeadLetterReader(ddb, table);
            while (running) {
                Set<String> pending = new HashSet<>();
                for (String tenant : tenants) {
                    for (int shard = 0; shard < DeadLetterStatusKey.SHARDS; shard++) {
                        poll(reader, ddb, ctx, tenant, shard, emitted, pending);
                    }
                }
                emitted.keySet().retainAll(pending); // settled entries leave the queue
                ctx.markAsTemporarilyIdle(); // holds no downstream watermark between replays
                Thread.sleep(pollMillis);
            }
        }
    }

    private void poll(
            DeadLetterReader reader,
            DynamoDbClient ddb,
            SourceContext<T> ctx,
            String tenant,
            int shard,
            Map<String, Long> emitted,
            Set<String> pending) {
        String pk =
                DeadLetterStatusKey.PK.build(
                        tenant,
                        DeadLetterStatus.REPLAY_REQUESTED.name(),
                        KeyFields.shard("shard", shard));
        Map<String, AttributeValue> start = null;
        do {
            QueryResponse page =
                    ddb.query(
                            QueryRequest.builder()
                                    .tableName(table)
                                    .indexName("GSI1")
                                    .keyConditionExpression("#p = :p")
                                    .expressionAttributeNames(Map.of("#p", Attr.GSI1PK))
                                    .expressionAttributeValues(
                                            Map.of(":p", AttributeValue.fromS(pk)))
                                    .exclusiveStartKey(start)
                                    .build());
            for (Map<String, AttributeValue> k : page.items()) {
                DeadLetterStatusKey q = DeadLetterStatusKey.parse(pk, k.get(Attr.GSI1SK).s());
                if (!q.job().equals(job)) {
                    continue;
                }
                pending.add(q.id());
                offer(reader, ddb, ctx, k, emitted);
            }
            start = page.hasLastEvaluatedKey() ? page.lastEvaluatedKey() : null;
        } while (start != null && !start.isEmpty() && running);
    }

    private void offer(
            DeadLetterReader reader,
            DynamoDbClient ddb,
            SourceContext<T> ctx,
            Map<String, AttributeValue> indexKeys,
            Map<String, Long> emitted) {
        DeadLetterView entry =
                reader.get(
                                DeadLetterKey.parse(
                                        indexKeys.get(Attr.PK).s(), indexKeys.get(Attr.SK).s()))
                        .orElse(null);
        if (entry == null
                || entry.status() != DeadLetterStatus.REPLAY_REQUESTED
                || Long.valueOf(entry.version()).equals(emitted.get(entry.id()))) {
            return;
        }
        T record;
        try {
            record = decoder.decode(entry);
        } catch (IllegalArgumentException e) {
            undecodable.inc();
            reopen(ddb, entry, "not re-injectable: " + e.getMessage());
            return;
        }
        synchronized (ctx.getCheckpointLock()) {
            ctx.collect(record);
        }
        emitted.put(entry.id(), entry.version());
        requested.inc();
    }

    private void reopen(DynamoDbClient ddb, DeadLetterView entry, String note) {
        try {
            ddb.updateItem(
                    DeadLetterItems.settleReplay(
                            table,
                            entry.key(),
                            entry.version(),
                            false,
                            false,
                            "job:" + job,
                            note,
                            Instant.now()));
        } catch (ConditionalCheckFailedException e) {
            // moved on meanwhile (an operator, or another poll): nothing to do
        }
    }

    @Override
    public void cancel() {
        running = false;
    }

    @Override
    public TypeInformation<T> getProducedType() {
        return type;
    }
}
