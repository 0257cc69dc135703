package io.streamledger.command.outbox;

import io.streamledger.command.config.Schema;
import io.streamledger.aws.items.Av;
import io.streamledger.command.dynamo.CapacityMeter;
import io.streamledger.command.dynamo.Ddb;
import io.streamledger.aws.items.ModelAv;
import io.streamledger.command.worker.BackgroundRounds;
import io.streamledger.model.change.OutboxEvent;
import io.streamledger.model.change.OutboxEventCodec;
import io.streamledger.model.keys.OutboxReadyKey;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.LongAdder;
import javax.annotation.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;
import software.amazon.awssdk.services.dynamodb.model.ReturnValue;
import software.amazon.awssdk.services.dynamodb.model.ScanRequest;
import software.amazon.awssdk.services.dynamodb.model.ScanResponse;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemResponse;

/**
 * The AP16 outbox relay (CS03): polls the 13 sparse READY shards (IDX17), merges them by (dueAt,
 * eventId), claims each event READY → IN_FLIGHT with owner + lease (removing the READY keys),
 * publishes it, and only as the lease owner stores the broker acknowledgement (→ COMPLETED) or
 * re-queues it with backoff (→ READY). Expired IN_FLIGHT leases are returned to READY.
 */
public final class OutboxRelay implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(OutboxRelay.class);

    /** Pages of the bounded expired-lease sweep per run (a limit on everything, STYLE 9). */
    private static final int MAX_SWEEP_PAGES = 20;

    private final Ddb ddb;
    private final String table;
    private final String owner;
    private final Clock clock;
    private final Publisher publisher;
    private final Duration lease;
    private final int batch;
    private final Duration baseBackoff;
    private final Duration maxBackoff;

    private final LongAdder claimed = new LongAdder();
    private final LongAdder claimLost = new LongAdder();
    private final LongAdder completed = new LongAdder();
    private final LongAdder completeLost = new LongAdder();
    private final LongAdder retried = new LongAdder();
    private final LongAdder leasesRecovered = new LongAdder();

    @Nullable private BackgroundRounds rounds;

    public OutboxRelay(
            Ddb ddb,
            String table,
            String owner,
            Clock clock,
            Publisher publisher,
            Duration lease,
            int batch,
            Duration baseBackoff,
            Duration maxBackoff) {
        this.ddb = ddb;
        this.table = table;
        this.owner = owner;
        this.clock = clock;
        this.publisher = publisher;
        this.lease = lease;
        this.batch = batch;
        this.baseBackoff = baseBackoff;
        this.maxBackoff = maxBackoff;
    }

    public String owner() {
        return owner;
    }

    /** An event claimed by this relay: what completion and retry are conditioned on. */
    public record InFlight(String eventId, int attempt, Map<String, AttributeValue> item) {}

    private Instant now() {
        return clock.instant().truncatedTo(ChronoUnit.MILLIS);
    }

    /** Due READY events across all shards, merged by (dueAt, eventId), at most {@code batch}. */
    public List<OutboxReadyKey> due() {
        Instant now = now();
        List<OutboxReadyKey> out = new ArrayList<>();
        CapacityMeter meter = new CapacityMeter();
        for (int shard = 0; shard < Schema.READY_SHARDS.shardCount(); shard++) {
            String pk = Schema.readyPk(OutboxItems.SERVICE, shard);
            // every key due at or before now sorts below "DUE#<now+1ms>#!"
            String bound =
                    new OutboxReadyKey(OutboxItems.SERVICE, shard, now.plusMillis(1), "!").sk();
            QueryResponse r =
                    ddb.query(
                            QueryRequest.builder()
                                    .tableName(table)
                                    .indexName(Schema.READY_INDEX)
                                    .keyConditionExpression("#pk = :pk AND #sk < :bound")
                                    .expressionAttributeNames(
                                            Map.of("#pk", Schema.READY_PK, "#sk", Schema.READY_SK))
                                    .expressionAttributeValues(
                                            Map.of(":pk", Av.s(pk), ":bound", Av.s(bound)))
                                    .limit(batch),
                            meter);
            for (Map<String, AttributeValue> k : r.items()) {
                out.add(
                        OutboxReadyKey.parse(
                                k.get(Schema.READY_PK).s(), k.get(Schema.READY_SK).s()));
            }
        }
        out.sort(
                Comparator.comparing(OutboxReadyKey::dueAt).thenComparing(OutboxReadyKey::eventId));
        return out.size() > batch ? out.subList(0, batch) : out;
    }

    /** READY → IN_FLIGHT, conditionally; null when another relay claimed it first. */
    @Nullable
    public InFlight claim(String eventId) {
        Instant now = now();
        Map<String, AttributeValue> values = new HashMap<>();
        values.put(":ready", Av.s(OutboxState.READY.name()));
        values.put(":inflight", Av.s(OutboxState.IN_FLIGHT.name()));
        values.put(":owner", Av.s(owner));
        values.put(":lease", Av.n(now.plus(lease).toEpochMilli()));
        values.put(":now", Av.n(now.toEpochMilli()));
        values.put(":one", Av.n(1));
        try {
            UpdateItemResponse r =
                    ddb.update(
                            UpdateItemRequest.builder()
                                    .tableName(table)
                                    .key(OutboxItems.key(eventId))
                                    .updateExpression(
                                            "SET #state = :inflight, #owner = :owner, #lease ="
                                                    + " :lease, #attempt = #attempt + :one, #v = #v"
                                                    + " + :one REMOVE #rpk, #rsk")
                                    .conditionExpression(
                                            "#state = :ready AND #due <= :now AND"
                                                    + " (attribute_not_exists(#lease) OR #lease <="
                                                    + " :now)")
                                    .expressionAttributeNames(names())
                                    .expressionAttributeValues(values)
                                    .returnValues(ReturnValue.ALL_NEW),
                            new CapacityMeter());
            claimed.increment();
            Map<String, AttributeValue> item = r.attributes();
            return new InFlight(eventId, (int) Av.lng(item, OutboxItems.A_ATTEMPT, 0), item);
        } catch (ConditionalCheckFailedException lost) {
            claimLost.increment();
            return null;
        }
    }

    private static Map<String, String> names() {
        Map<String, String> n = new HashMap<>();
        n.put("#state", OutboxItems.A_STATE);
        n.put("#owner", OutboxItems.A_OWNER);
        n.put("#lease", OutboxItems.A_LEASE);
        n.put("#attempt", OutboxItems.A_ATTEMPT);
        n.put("#v", OutboxItems.A_VERSION);
        n.put("#rpk", Schema.READY_PK);
        n.put("#rsk", Schema.READY_SK);
        n.put("#due", OutboxItems.A_DUE);
        return n;
    }

    /** Publishes a claimed event and records the outcome; true when COMPLETED by this relay. */
    public boolean publishAndRecord(InFlight f) {
        Publisher.Ack ack;
        try {
            OutboxEvent event = OutboxEventCodec.fromItem(ModelAv.fromSdk(f.item()), "$");
            ack =
                    publisher.publish(
                            event.aggregateId(),
                            OutboxEventCodec.toJson(event).getBytes(StandardCharsets.UTF_8));
        } catch (RuntimeException e) {
            requeue(f, e.getClass().getSimpleName() + ": " + e.getMessage());
            return false;
        }
        return complete(f, ack);
    }

    /** IN_FLIGHT → COMPLETED, only by the lease owner of this attempt. */
    public boolean complete(InFlight f, Publisher.Ack ack) {
        Map<String, String> names = new HashMap<>(names());
        names.put("#ack", OutboxItems.A_ACK);
        names.put("#ackShard", OutboxItems.A_ACK_SHARD);
        names.put("#completed", OutboxItems.A_COMPLETED);
        names.remove("#rpk");
        names.remove("#rsk");
        names.remove("#due");
        Map<String, AttributeValue> values = new HashMap<>();
        values.put(":inflight", Av.s(OutboxState.IN_FLIGHT.name()));
        values.put(":completedState", Av.s(OutboxState.COMPLETED.name()));
        values.put(":owner", Av.s(owner));
        values.put(":attempt", Av.n(f.attempt()));
        values.put(":ack", Av.s(ack.sequenceNumber()));
        values.put(":ackShard", Av.s(ack.shardId() == null ? "" : ack.shardId()));
        values.put(":completed", Av.s(now().toString()));
        values.put(":one", Av.n(1));
        try {
            ddb.update(
                    UpdateItemRequest.builder()
                            .tableName(table)
                            .key(OutboxItems.key(f.eventId()))
                            .updateExpression(
                                    "SET #state = :completedState, #ack = :ack, #ackShard ="
                                            + " :ackShard, #completed = :completed, #v = #v + :one"
                                            + " REMOVE #lease")
                            .conditionExpression(
                                    "#state = :inflight AND #owner = :owner AND #attempt ="
                                            + " :attempt")
                            .expressionAttributeNames(names)
                            .expressionAttributeValues(values),
                    new CapacityMeter());
            completed.increment();
            return true;
        } catch (ConditionalCheckFailedException lost) {
            // the lease expired and the event was re-queued: the publication may repeat, which
            // consumers absorb through their AP09 inbox
            completeLost.increment();
            return false;
        }
    }

    /** IN_FLIGHT → READY after a failed publish, with backoff and a new dueAt. */
    public boolean requeue(InFlight f, String error) {
        Instant due = now().plus(backoff(f.attempt()));
        return backToReady(f.eventId(), owner, f.attempt(), false, due, error);
    }

    private boolean backToReady(
            String eventId,
            String expectedOwner,
            int expectedAttempt,
            boolean requireExpired,
            Instant due,
            String error) {
        OutboxReadyKey ready = Schema.ready(OutboxItems.SERVICE, due, eventId);
        Map<String, String> names = new HashMap<>(names());
        names.put("#err", OutboxItems.A_LAST_ERROR);
        Map<String, AttributeValue> values = new HashMap<>();
        values.put(":inflight", Av.s(OutboxState.IN_FLIGHT.name()));
        values.put(":ready", Av.s(OutboxState.READY.name()));
        values.put(":owner", Av.s(expectedOwner));
        values.put(":attempt", Av.n(expectedAttempt));
        values.put(":rpk", Av.s(ready.pk()));
        values.put(":rsk", Av.s(ready.sk()));
        values.put(":due", Av.n(due.toEpochMilli()));
        values.put(":err", Av.s(error.length() > 500 ? error.substring(0, 500) : error));
        values.put(":one", Av.n(1));
        String condition = "#state = :inflight AND #owner = :owner AND #attempt = :attempt";
        if (requireExpired) {
            values.put(":now", Av.n(now().toEpochMilli()));
            condition += " AND #lease <= :now";
        }
        try {
            ddb.update(
                    UpdateItemRequest.builder()
                            .tableName(table)
                            .key(OutboxItems.key(eventId))
                            .updateExpression(
                                    "SET #state = :ready, #rpk = :rpk, #rsk = :rsk, #due = :due,"
                                            + " #err = :err, #v = #v + :one REMOVE #owner, #lease")
                            .conditionExpression(condition)
                            .expressionAttributeNames(names)
                            .expressionAttributeValues(values),
                    new CapacityMeter());
            retried.increment();
            return true;
        } catch (ConditionalCheckFailedException lost) {
            return false;
        }
    }

    Duration backoff(int attempt) {
        long ceiling =
                Math.min(maxBackoff.toMillis(), baseBackoff.toMillis() << Math.min(attempt, 20));
        // jitter in [ceiling/2, ceiling] so retries of one event never bunch at the same instant
        return Duration.ofMillis(
                ceiling / 2 + ThreadLocalRandom.current().nextLong(ceiling / 2 + 1));
    }

    /**
     * Expired-lease repair (seed step 4): IN_FLIGHT events whose owner's lease passed go back to
     * READY. IN_FLIGHT items are deliberately not indexed (AMP15), so this is a bounded, paginated,
     * filtered Scan run rarely, as the seed allows for repair.
     */
    public int recoverExpiredLeases() {
        Instant now = now();
        int recovered = 0;
        Map<String, AttributeValue> start = null;
        for (int page = 0; page < MAX_SWEEP_PAGES; page++) {
            ScanResponse r =
                    ddb.client()
                            .scan(
                                    ScanRequest.builder()
                                            .tableName(table)
                                            .filterExpression(
                                                    "#state = :inflight AND #lease <= :now")
                                            .expressionAttributeNames(
                                                    Map.of(
                                                            "#state",
                                                            OutboxItems.A_STATE,
                                                            "#lease",
                                                            OutboxItems.A_LEASE))
                                            .expressionAttributeValues(
                                                    Map.of(
                                                            ":inflight",
                                                            Av.s(OutboxState.IN_FLIGHT.name()),
                                                            ":now",
                                                            Av.n(now.toEpochMilli())))
                                            .exclusiveStartKey(start)
                                            .build());
            for (Map<String, AttributeValue> item : r.items()) {
                String eventId = Av.reqStr(item, io.streamledger.model.table.Attr.EVENT_ID);
                if (backToReady(
                        eventId,
                        Av.reqStr(item, OutboxItems.A_OWNER),
                        (int) Av.lng(item, OutboxItems.A_ATTEMPT, 0),
                        true,
                        now,
                        "lease of " + Av.str(item, OutboxItems.A_OWNER) + " expired")) {
                    recovered++;
                    leasesRecovered.increment();
                }
            }
            if (!r.hasLastEvaluatedKey() || r.lastEvaluatedKey().isEmpty()) {
                break;
            }
            start = r.lastEvaluatedKey();
        }
        return recovered;
    }

    /** One relay round: claim and publish up to {@code batch} due events; returns how many. */
    public int pollOnce() {
        int done = 0;
        for (OutboxReadyKey k : due()) {
            InFlight f = claim(k.eventId());
            if (f != null && publishAndRecord(f)) {
                done++;
            }
        }
        return done;
    }

    /** Runs the relay in the background until {@link #close()}. */
    public OutboxRelay start(Duration pollInterval, Duration sweepInterval) {
        rounds = BackgroundRounds.start("outbox-relay-" + owner, 2);
        rounds.every(
                Duration.ZERO,
                pollInterval,
                () -> {
                    while (pollOnce() >= batch) {
                        // a full batch: more is due, keep draining
                    }
                },
                LOG,
                "outbox relay round failed; next round retries");
        rounds.every(
                sweepInterval,
                sweepInterval,
                this::recoverExpiredLeases,
                LOG,
                "outbox lease sweep failed; next sweep retries");
        return this;
    }

    @Override
    public void close() {
        if (rounds != null) {
            rounds.close();
        }
    }

    public Map<String, Long> metrics() {
        Map<String, Long> m = new java.util.LinkedHashMap<>();
        m.put("claimed", claimed.sum());
        m.put("claimLost", claimLost.sum());
        m.put("completed", completed.sum());
        m.put("completeLost", completeLost.sum());
        m.put("retried", retried.sum());
        m.put("leasesRecovered", leasesRecovered.sum());
        return m;
    }
}
