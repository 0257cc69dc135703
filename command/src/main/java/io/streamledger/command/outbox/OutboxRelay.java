package io.streamledger.command.outbox;

import io.streamledger.aws.items.Av;
import io.streamledger.aws.items.ModelAv;
import io.streamledger.aws.retry.RetryPolicy;
import io.streamledger.aws.update.Condition;
import io.streamledger.aws.update.ConditionalUpdate;
import io.streamledger.command.config.Schema;
import io.streamledger.command.dynamo.CapacityMeter;
import io.streamledger.command.dynamo.Ddb;
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
import java.util.List;
import java.util.Map;
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

    /** Pages of the bounded expired-lease sweep per run (a limit on everything). */
    private static final int MAX_SWEEP_PAGES = 20;

    private final Ddb ddb;
    private final String table;
    private final String owner;
    private final Clock clock;
    private final Publisher publisher;
    private final Duration lease;
    private final int batch;
    // the relay re-queues until the event is published: the attempt count only grows the wait
    private final RetryPolicy requeueBackoff;

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
        this.ddb = ddb.ap("AP16");
        this.table = table;
        this.owner = owner;
        this.clock = clock;
        this.publisher = publisher;
        this.lease = lease;
        this.batch = batch;
        this.requeueBackoff = RetryPolicy.halfJitter(Integer.MAX_VALUE, baseBackoff, maxBackoff);
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
        AttributeValue nowMillis = Av.n(now.toEpochMilli());
        ConditionalUpdate update =
                ConditionalUpdate.builder()
                        .set(OutboxItems.A_STATE, Av.s(OutboxState.IN_FLIGHT.name()))
                        .set(OutboxItems.A_OWNER, Av.s(owner))
                        .set(OutboxItems.A_LEASE, Av.n(now.plus(lease).toEpochMilli()))
                        .increment(OutboxItems.A_ATTEMPT, Av.n(1))
                        .increment(OutboxItems.A_VERSION, Av.n(1))
                        .remove(Schema.READY_PK, Schema.READY_SK)
                        .when(Condition.eq(OutboxItems.A_STATE, Av.s(OutboxState.READY.name())))
                        .when(Condition.le(OutboxItems.A_DUE, nowMillis))
                        .when(
                                Condition.or(
                                        Condition.notExists(OutboxItems.A_LEASE),
                                        Condition.le(OutboxItems.A_LEASE, nowMillis)))
                        .build();
        try {
            UpdateItemResponse r =
                    ddb.update(
                            update.applyTo(
                                    UpdateItemRequest.builder()
                                            .tableName(table)
                                            .key(OutboxItems.key(eventId))
                                            .returnValues(ReturnValue.ALL_NEW)),
                            new CapacityMeter());
            claimed.increment();
            Map<String, AttributeValue> item = r.attributes();
            return new InFlight(eventId, (int) Av.lng(item, OutboxItems.A_ATTEMPT, 0), item);
        } catch (ConditionalCheckFailedException lost) {
            claimLost.increment();
            return null;
        }
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
        ConditionalUpdate update =
                ConditionalUpdate.builder()
                        .set(OutboxItems.A_STATE, Av.s(OutboxState.COMPLETED.name()))
                        .set(OutboxItems.A_ACK, Av.s(ack.sequenceNumber()))
                        .set(
                                OutboxItems.A_ACK_SHARD,
                                Av.s(ack.shardId() == null ? "" : ack.shardId()))
                        .set(OutboxItems.A_COMPLETED, Av.s(now().toString()))
                        .increment(OutboxItems.A_VERSION, Av.n(1))
                        .remove(OutboxItems.A_LEASE)
                        .when(inFlightOf(owner, f.attempt()))
                        .build();
        try {
            ddb.update(
                    update.applyTo(
                            UpdateItemRequest.builder()
                                    .tableName(table)
                                    .key(OutboxItems.key(f.eventId()))),
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
        ConditionalUpdate.Builder update =
                ConditionalUpdate.builder()
                        .set(OutboxItems.A_STATE, Av.s(OutboxState.READY.name()))
                        .set(Schema.READY_PK, Av.s(ready.pk()))
                        .set(Schema.READY_SK, Av.s(ready.sk()))
                        .set(OutboxItems.A_DUE, Av.n(due.toEpochMilli()))
                        .set(
                                OutboxItems.A_LAST_ERROR,
                                Av.s(error.length() > 500 ? error.substring(0, 500) : error))
                        .increment(OutboxItems.A_VERSION, Av.n(1))
                        .remove(OutboxItems.A_OWNER, OutboxItems.A_LEASE)
                        .when(inFlightOf(expectedOwner, expectedAttempt));
        if (requireExpired) {
            update.when(Condition.le(OutboxItems.A_LEASE, Av.n(now().toEpochMilli())));
        }
        try {
            ddb.update(
                    update.build()
                            .applyTo(
                                    UpdateItemRequest.builder()
                                            .tableName(table)
                                            .key(OutboxItems.key(eventId))),
                    new CapacityMeter());
            retried.increment();
            return true;
        } catch (ConditionalCheckFailedException lost) {
            return false;
        }
    }

    /** Still IN_FLIGHT under the lease of {@code owner} for attempt {@code attempt}. */
    private static Condition inFlightOf(String owner, int attempt) {
        return Condition.and(
                Condition.eq(OutboxItems.A_STATE, Av.s(OutboxState.IN_FLIGHT.name())),
                Condition.eq(OutboxItems.A_OWNER, Av.s(owner)),
                Condition.eq(OutboxItems.A_ATTEMPT, Av.n(attempt)));
    }

    /** Wait before publish attempt {@code attempt + 1}: half jitter below base * 2^attempt. */
    Duration backoff(int attempt) {
        return Duration.ofMillis(requeueBackoff.delayMillis(attempt + 1));
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
