package io.streamledger.command.outbox;

import io.streamledger.aws.items.Av;
import io.streamledger.aws.items.ModelAv;
import io.streamledger.aws.retry.RetryPolicy;
import io.streamledger.aws.update.Condition;
import io.streamledger.aws.update.ConditionalUpdate;
import io.streamledger.command.config.Schema;
import io.streamledger.command.dynamo.CapacityMeter;
import io.streamledger.command.dynamo.Ddb;
import io.streamledger.command.outbox.RelayCapacity.Use;
import io.streamledger.command.worker.BackgroundRounds;
import io.streamledger.model.change.OutboxEvent;
import io.streamledger.model.change.OutboxEventCodec;
import io.streamledger.model.keys.OutboxReadyKey;
import io.streamledger.model.table.Attr;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAccumulator;
import java.util.concurrent.atomic.LongAdder;
import javax.annotation.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;
import software.amazon.awssdk.services.dynamodb.model.ReturnConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.ReturnValue;
import software.amazon.awssdk.services.dynamodb.model.ScanRequest;
import software.amazon.awssdk.services.dynamodb.model.ScanResponse;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemResponse;

/**
 * The AP16 outbox relay (CS03): reads the 13 sparse READY shards (IDX17) with one cursor each,
 * merged by (dueAt, eventId), claims windows of events READY → IN_FLIGHT in parallel while the
 * window before publishes, publishes them in PutRecords calls that carry at most one event per
 * aggregate (partition key = aggregate, an aggregate's next event only after the broker
 * acknowledged the one before, so per-aggregate order holds under partial failures), and only as
 * the lease owner stores each broker acknowledgement (→ COMPLETED) or re-queues the event with
 * backoff (→ READY); a failed event's later events of the same aggregate are re-queued behind it.
 * Expired IN_FLIGHT leases return to READY through a segmented Scan that covers the whole table; a
 * READY event can be rescheduled (seed step 5, AMP18).
 */
public final class OutboxRelay implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(OutboxRelay.class);

    /** Longest lastError stored on the item. */
    private static final int MAX_ERROR_CHARS = 500;

    /**
     * Parallelism and page sizes; the AP16 transitions do not depend on them.
     *
     * @param concurrency DynamoDB calls in flight (claims, completions)
     * @param publishCalls PutRecords calls in flight (each with at most one event per aggregate)
     * @param readyPageSize keys per READY shard Query page
     * @param sweepSegments parallel Scan segments of the expired-lease sweep, one cursor each
     * @param sweepPageSize items evaluated per sweep Scan page (null: DynamoDB's 1 MB pages)
     */
    public record Tuning(
            int concurrency,
            int publishCalls,
            int readyPageSize,
            int sweepSegments,
            @Nullable Integer sweepPageSize) {
        public Tuning {
            if (concurrency < 1 || publishCalls < 1 || readyPageSize < 1 || sweepSegments < 1) {
                throw new IllegalArgumentException("relay tuning must be positive: " + this);
            }
        }

        public static Tuning defaults() {
            return new Tuning(16, 4, 500, 4, null);
        }

        public Tuning withSweepPageSize(int items) {
            return new Tuning(concurrency, publishCalls, readyPageSize, sweepSegments, items);
        }

        public Tuning withReadyPageSize(int keys) {
            return new Tuning(concurrency, publishCalls, keys, sweepSegments, sweepPageSize);
        }

        public Tuning withConcurrency(int calls) {
            return new Tuning(calls, publishCalls, readyPageSize, sweepSegments, sweepPageSize);
        }

        public Tuning withPublishCalls(int calls) {
            return new Tuning(concurrency, calls, readyPageSize, sweepSegments, sweepPageSize);
        }
    }

    private final Ddb ddb;
    private final String table;
    private final String owner;
    private final Clock clock;
    private final Publisher publisher;
    private final Duration lease;
    private final int batch;
    private final Tuning tuning;
    // the relay re-queues until the event is published: the attempt count only grows the wait
    private final RetryPolicy requeueBackoff;
    // claims and completions; READY pages and sweep segments; PutRecords calls
    private final ExecutorService pool;
    private final ExecutorService reads;
    private final ExecutorService puts;
    private final RelayCapacity capacity = new RelayCapacity();

    private final LongAdder claimed = new LongAdder();
    private final LongAdder claimLost = new LongAdder();
    private final LongAdder claimErrors = new LongAdder();
    private final LongAdder published = new LongAdder();
    private final LongAdder publishFailed = new LongAdder();
    private final LongAdder putCalls = new LongAdder();
    private final LongAdder held = new LongAdder();
    private final LongAdder completed = new LongAdder();
    private final LongAdder completeLost = new LongAdder();
    private final LongAdder completeErrors = new LongAdder();
    private final LongAdder retried = new LongAdder();
    private final LongAdder rescheduled = new LongAdder();
    private final LongAdder leasesRecovered = new LongAdder();
    // where a round's time goes: per-call latencies and what the round thread waited for
    private final LongAdder claimNanos = new LongAdder();
    private final LongAdder putNanos = new LongAdder();
    private final LongAdder completeNanos = new LongAdder();
    private final LongAdder readNanos = new LongAdder();
    private final LongAdder waitClaimsNanos = new LongAdder();
    private final LongAdder waitPutsNanos = new LongAdder();
    private final LongAdder waitBothNanos = new LongAdder();
    private final LongAccumulator putsInFlightMax = new LongAccumulator(Math::max, 0);

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
        this(
                ddb,
                table,
                owner,
                clock,
                publisher,
                lease,
                batch,
                baseBackoff,
                maxBackoff,
                Tuning.defaults());
    }

    /** {@code batch}: events claimed per window (a round reads windows until nothing is due). */
    public OutboxRelay(
            Ddb ddb,
            String table,
            String owner,
            Clock clock,
            Publisher publisher,
            Duration lease,
            int batch,
            Duration baseBackoff,
            Duration maxBackoff,
            Tuning tuning) {
        if (batch < 1) {
            throw new IllegalArgumentException("batch must be positive: " + batch);
        }
        this.ddb = ddb.ap("AP16");
        this.table = table;
        this.owner = owner;
        this.clock = clock;
        this.publisher = publisher;
        this.lease = lease;
        this.batch = batch;
        this.tuning = tuning;
        this.requeueBackoff = RetryPolicy.halfJitter(Integer.MAX_VALUE, baseBackoff, maxBackoff);
        this.pool = newPool("outbox-relay-" + owner + "-", tuning.concurrency());
        this.reads = newPool("outbox-relay-" + owner + "-read-", tuning.concurrency());
        this.puts = newPool("outbox-relay-" + owner + "-put-", tuning.publishCalls());
    }

    /** A pool of daemon threads; an idle relay holds no threads. */
    private static ExecutorService newPool(String prefix, int threads) {
        AtomicInteger threadNo = new AtomicInteger();
        ThreadPoolExecutor p =
                new ThreadPoolExecutor(
                        threads,
                        threads,
                        30,
                        TimeUnit.SECONDS,
                        new LinkedBlockingQueue<>(),
                        r -> {
                            Thread t = new Thread(r, prefix + threadNo.incrementAndGet());
                            t.setDaemon(true);
                            return t;
                        });
        p.allowCoreThreadTimeOut(true);
        return p;
    }

    public String owner() {
        return owner;
    }

    /** An event claimed by this relay: what completion and retry are conditioned on. */
    public record InFlight(String eventId, int attempt, Map<String, AttributeValue> item) {}

    /** A claimed event with its decoded envelope and the bytes published for it. */
    private record Claimed(InFlight f, OutboxEvent event, byte[] data, int order) {
        long bytes() {
            return data.length + event.aggregateId().getBytes(StandardCharsets.UTF_8).length;
        }
    }

    private Instant now() {
        return clock.instant().truncatedTo(ChronoUnit.MILLIS);
    }

    /** Due READY events across all shards, merged by (dueAt, eventId), at most {@code batch}. */
    public List<OutboxReadyKey> due() {
        return readyCursors(now()).take(batch);
    }

    private ReadyCursors readyCursors(Instant now) {
        // every key due at or before now sorts below "DUE#<now+1ms>#!"
        Instant bound = now.plusMillis(1);
        return new ReadyCursors(
                Schema.READY_SHARDS.shardCount(),
                (shard, start) -> readyPage(shard, bound, start),
                reads);
    }

    private ReadyCursors.Page readyPage(
            int shard, Instant bound, @Nullable Map<String, AttributeValue> start) {
        String pk = Schema.readyPk(OutboxItems.SERVICE, shard);
        String below = new OutboxReadyKey(OutboxItems.SERVICE, shard, bound, "!").sk();
        CapacityMeter meter = new CapacityMeter();
        QueryResponse r =
                ddb.query(
                        QueryRequest.builder()
                                .tableName(table)
                                .indexName(Schema.READY_INDEX)
                                .keyConditionExpression("#pk = :pk AND #sk < :bound")
                                .expressionAttributeNames(
                                        Map.of("#pk", Schema.READY_PK, "#sk", Schema.READY_SK))
                                .expressionAttributeValues(
                                        Map.of(":pk", Av.s(pk), ":bound", Av.s(below)))
                                .exclusiveStartKey(start)
                                .limit(tuning.readyPageSize()),
                        meter);
        capacity.add(Use.READY_QUERY, meter);
        List<OutboxReadyKey> keys = new ArrayList<>(r.items().size());
        for (Map<String, AttributeValue> k : r.items()) {
            keys.add(OutboxReadyKey.parse(k.get(Schema.READY_PK).s(), k.get(Schema.READY_SK).s()));
        }
        boolean more = r.hasLastEvaluatedKey() && !r.lastEvaluatedKey().isEmpty();
        return new ReadyCursors.Page(keys, more ? r.lastEvaluatedKey() : null);
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
        CapacityMeter meter = new CapacityMeter();
        long t0 = System.nanoTime();
        try {
            UpdateItemResponse r =
                    ddb.update(
                            update.applyTo(
                                    UpdateItemRequest.builder()
                                            .tableName(table)
                                            .key(OutboxItems.key(eventId))
                                            .returnValues(ReturnValue.ALL_NEW)),
                            meter);
            capacity.add(Use.CLAIM, meter);
            claimed.increment();
            Map<String, AttributeValue> item = r.attributes();
            return new InFlight(eventId, (int) Av.lng(item, OutboxItems.A_ATTEMPT, 0), item);
        } catch (ConditionalCheckFailedException lost) {
            claimLost.increment();
            return null;
        } finally {
            claimNanos.add(System.nanoTime() - t0);
        }
    }

    /** Publishes a claimed event and records the outcome; true when COMPLETED by this relay. */
    public boolean publishAndRecord(InFlight f) {
        Publisher.Ack ack;
        try {
            OutboxEvent event = decode(f);
            ack = publisher.publish(event.aggregateId(), encode(event));
            putCalls.increment();
        } catch (RuntimeException e) {
            publishFailed.increment();
            requeue(f, describe(e));
            return false;
        }
        published.increment();
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
        CapacityMeter meter = new CapacityMeter();
        long t0 = System.nanoTime();
        try {
            ddb.update(
                    update.applyTo(
                            UpdateItemRequest.builder()
                                    .tableName(table)
                                    .key(OutboxItems.key(f.eventId()))),
                    meter);
            capacity.add(Use.COMPLETE, meter);
            completed.increment();
            return true;
        } catch (ConditionalCheckFailedException lost) {
            // the lease expired and the event was re-queued: the publication may repeat, which
            // consumers absorb through their AP09 inbox
            completeLost.increment();
            return false;
        } finally {
            completeNanos.add(System.nanoTime() - t0);
        }
    }

    /** IN_FLIGHT → READY after a failed publish, with backoff and a new dueAt. */
    public boolean requeue(InFlight f, String error) {
        return requeue(f, now().plus(backoff(f.attempt())), error);
    }

    private boolean requeue(InFlight f, Instant due, String error) {
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
                                Av.s(
                                        error.length() > MAX_ERROR_CHARS
                                                ? error.substring(0, MAX_ERROR_CHARS)
                                                : error))
                        .increment(OutboxItems.A_VERSION, Av.n(1))
                        .remove(OutboxItems.A_OWNER, OutboxItems.A_LEASE)
                        .when(inFlightOf(expectedOwner, expectedAttempt));
        if (requireExpired) {
            update.when(Condition.le(OutboxItems.A_LEASE, Av.n(now().toEpochMilli())));
        }
        CapacityMeter meter = new CapacityMeter();
        try {
            ddb.update(
                    update.build()
                            .applyTo(
                                    UpdateItemRequest.builder()
                                            .tableName(table)
                                            .key(OutboxItems.key(eventId))),
                    meter);
            capacity.add(Use.REQUEUE, meter);
            retried.increment();
            return true;
        } catch (ConditionalCheckFailedException lost) {
            return false;
        }
    }

    /**
     * READY → READY (seed step 5): moves a READY event to a new dueAt under the current shard map,
     * conditioned on its state and version; the READY index key changes, so the index pays one
     * delete and one put (AMP18). False when the event is no longer READY at that version.
     */
    public boolean reschedule(String eventId, long expectedVersion, Instant due) {
        Instant at = due.truncatedTo(ChronoUnit.MILLIS);
        OutboxReadyKey ready = Schema.ready(OutboxItems.SERVICE, at, eventId);
        ConditionalUpdate update =
                ConditionalUpdate.builder()
                        .set(Schema.READY_PK, Av.s(ready.pk()))
                        .set(Schema.READY_SK, Av.s(ready.sk()))
                        .set(OutboxItems.A_DUE, Av.n(at.toEpochMilli()))
                        .set(Attr.HASH_VERSION, Av.n(Schema.READY_SHARDS.hashVersion()))
                        .set(Attr.SHARD_MAP_VERSION, Av.n(Schema.READY_SHARDS.shardMapVersion()))
                        .increment(OutboxItems.A_VERSION, Av.n(1))
                        .when(Condition.eq(OutboxItems.A_STATE, Av.s(OutboxState.READY.name())))
                        .when(Condition.eq(OutboxItems.A_VERSION, Av.n(expectedVersion)))
                        .build();
        CapacityMeter meter = new CapacityMeter();
        try {
            ddb.update(
                    update.applyTo(
                            UpdateItemRequest.builder()
                                    .tableName(table)
                                    .key(OutboxItems.key(eventId))),
                    meter);
            capacity.add(Use.RESCHEDULE, meter);
            rescheduled.increment();
            return true;
        } catch (ConditionalCheckFailedException stale) {
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
     * READY. IN_FLIGHT items are deliberately not indexed (AMP15), so this is a filtered Scan run
     * rarely, as the seed allows for repair: {@code sweepSegments} parallel segments, each read to
     * its end page by page, so the whole table is covered with one page in memory per segment.
     */
    public int recoverExpiredLeases() {
        Instant now = now();
        int segments = tuning.sweepSegments();
        List<CompletableFuture<Integer>> runs = new ArrayList<>(segments);
        for (int s = 0; s < segments; s++) {
            int segment = s;
            runs.add(
                    CompletableFuture.supplyAsync(
                            () -> sweepSegment(segment, segments, now), reads));
        }
        int recovered = 0;
        for (CompletableFuture<Integer> r : runs) {
            recovered += join(r);
        }
        return recovered;
    }

    private int sweepSegment(int segment, int segments, Instant now) {
        int recovered = 0;
        Map<String, AttributeValue> start = null;
        do {
            ScanRequest req =
                    ScanRequest.builder()
                            .tableName(table)
                            .segment(segment)
                            .totalSegments(segments)
                            .limit(tuning.sweepPageSize())
                            .filterExpression("#state = :inflight AND #lease <= :now")
                            .projectionExpression("#event, #owner, #attempt")
                            .expressionAttributeNames(
                                    Map.of(
                                            "#state", OutboxItems.A_STATE,
                                            "#lease", OutboxItems.A_LEASE,
                                            "#event", Attr.EVENT_ID,
                                            "#owner", OutboxItems.A_OWNER,
                                            "#attempt", OutboxItems.A_ATTEMPT))
                            .expressionAttributeValues(
                                    Map.of(
                                            ":inflight", Av.s(OutboxState.IN_FLIGHT.name()),
                                            ":now", Av.n(now.toEpochMilli())))
                            .exclusiveStartKey(start)
                            .returnConsumedCapacity(ReturnConsumedCapacity.INDEXES)
                            .build();
            ScanResponse r = ddb.retrying().call(() -> ddb.client().scan(req));
            CapacityMeter meter = new CapacityMeter();
            meter.add(r.consumedCapacity());
            capacity.add(Use.LEASE_SWEEP, meter);
            for (Map<String, AttributeValue> item : r.items()) {
                String eventId = Av.reqStr(item, Attr.EVENT_ID);
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
            start =
                    r.hasLastEvaluatedKey() && !r.lastEvaluatedKey().isEmpty()
                            ? r.lastEvaluatedKey()
                            : null;
        } while (start != null);
        return recovered;
    }

    /**
     * One relay round over everything due now, pipelined: windows of {@code batch} keys from the
     * per-shard cursors are claimed in parallel while the window before publishes (at most one
     * window claimed ahead); claimed events queue per aggregate and go out in PutRecords calls of
     * the sendable heads ({@code publishCalls} in flight), each acknowledged record is completed at
     * once; returns how many events this round COMPLETED.
     */
    public int pollOnce() {
        return new Round(readyCursors(now())).run();
    }

    /** The one-at-a-time round (claim, publish, complete per event in due order): the baseline. */
    public int pollOnceSerially() {
        int done = 0;
        for (OutboxReadyKey k : due()) {
            InFlight f = claim(k.eventId());
            if (f != null && publishAndRecord(f)) {
                done++;
            }
        }
        return done;
    }

    /** Claims the window in parallel; completes with the claimed events decoded, in order. */
    private CompletableFuture<List<Claimed>> claimAll(List<OutboxReadyKey> window) {
        List<CompletableFuture<Claimed>> claims = new ArrayList<>(window.size());
        for (int i = 0; i < window.size(); i++) {
            String eventId = window.get(i).eventId();
            int order = i;
            claims.add(CompletableFuture.supplyAsync(() -> claimAndDecode(eventId, order), pool));
        }
        return CompletableFuture.allOf(claims.toArray(CompletableFuture[]::new))
                .handle((ignored, failure) -> claimedOf(window, claims));
    }

    private List<Claimed> claimedOf(
            List<OutboxReadyKey> window, List<CompletableFuture<Claimed>> claims) {
        List<Claimed> out = new ArrayList<>(window.size());
        for (int i = 0; i < claims.size(); i++) {
            try {
                Claimed c = join(claims.get(i));
                if (c != null) {
                    out.add(c);
                }
            } catch (RuntimeException e) {
                // had it applied, the lease sweep returns it to READY
                claimErrors.increment();
                LOG.warn("outbox claim of {} failed", window.get(i).eventId(), e);
            }
        }
        return out;
    }

    /** Claims one event and decodes it; null when not claimed or re-queued as undecodable. */
    @Nullable
    private Claimed claimAndDecode(String eventId, int order) {
        InFlight f = claim(eventId);
        if (f == null) {
            return null;
        }
        try {
            OutboxEvent event = decode(f);
            return new Claimed(f, event, encode(event), order);
        } catch (RuntimeException e) {
            publishFailed.increment();
            requeue(f, describe(e));
            return null;
        }
    }

    /**
     * The state of one {@link #pollOnce} round, touched only by the thread running it: claim and
     * PutRecords results come back through {@code inbox} and are applied there in arrival order.
     */
    private final class Round {
        private final ReadyCursors cursors;
        private final PublishWaves<Claimed> waves =
                new PublishWaves<>(c -> c.event().aggregateId());
        // aggregates with an event re-queued this round -> dueAt of its last re-queued event
        private final Map<String, Instant> blockedUntil = new HashMap<>();
        private final Map<Claimed, String> errors = new IdentityHashMap<>();
        private final List<CompletableFuture<Boolean>> completions = new ArrayList<>();
        private final LinkedBlockingQueue<Runnable> inbox = new LinkedBlockingQueue<>();
        private boolean claiming;
        private boolean exhausted;
        private int callsInFlight;

        Round(ReadyCursors cursors) {
            this.cursors = cursors;
        }

        int run() {
            claimNext();
            while (claiming || callsInFlight > 0) {
                LongAdder waitingFor =
                        !claiming
                                ? waitPutsNanos
                                : callsInFlight == 0 ? waitClaimsNanos : waitBothNanos;
                long t0 = System.nanoTime();
                try {
                    Runnable next = inbox.take();
                    waitingFor.add(System.nanoTime() - t0);
                    next.run();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException("outbox relay round interrupted", e);
                }
            }
            if (waves.pending() != 0) {
                throw new IllegalStateException(waves.pending() + " claimed events left unsent");
            }
            return completed();
        }

        /** Claims the next window unless one is being claimed or a window still waits to go out. */
        private void claimNext() {
            if (claiming || exhausted || waves.pending() > batch) {
                return;
            }
            long t0 = System.nanoTime();
            List<OutboxReadyKey> window = cursors.take(batch);
            readNanos.add(System.nanoTime() - t0);
            if (window.isEmpty()) {
                exhausted = true;
                return;
            }
            claiming = true;
            claimAll(window)
                    .whenComplete(
                            (claimed, failure) ->
                                    inbox.add(
                                            () -> {
                                                if (failure != null) {
                                                    throw new IllegalStateException(
                                                            "outbox claims failed", failure);
                                                }
                                                onClaimed(claimed);
                                            }));
        }

        private void onClaimed(List<Claimed> claimedEvents) {
            claiming = false;
            List<Claimed> toPublish = new ArrayList<>(claimedEvents.size());
            for (Claimed c : claimedEvents) {
                Instant behind = blockedUntil.get(c.event().aggregateId());
                if (behind == null) {
                    toPublish.add(c);
                } else {
                    // an earlier event of this aggregate failed this round: keep the order behind
                    // it
                    Instant due = behind.plusMillis(1);
                    holdBehind(c, due, "an earlier event of its aggregate was re-queued");
                    blockedUntil.put(c.event().aggregateId(), due);
                }
            }
            // per aggregate: its version order, then due order
            toPublish.sort(
                    Comparator.comparingLong((Claimed c) -> c.event().aggregateVersion())
                            .thenComparingInt(Claimed::order));
            waves.add(toPublish);
            dispatch();
            claimNext();
        }

        /** Fills the free PutRecords slots with calls of sendable heads. */
        private void dispatch() {
            while (callsInFlight < tuning.publishCalls()) {
                List<Claimed> call =
                        waves.nextCall(
                                Publisher.MAX_RECORDS_PER_CALL,
                                Publisher.MAX_BYTES_PER_CALL,
                                Claimed::bytes);
                if (call.isEmpty()) {
                    return;
                }
                callsInFlight++;
                putsInFlightMax.accumulate(callsInFlight);
                CompletableFuture.supplyAsync(() -> publishCall(call), puts)
                        .handle(
                                (results, failure) ->
                                        results != null
                                                ? results
                                                : failedAll(call, describe(failure)))
                        .thenAccept(results -> inbox.add(() -> onPublished(call, results)));
            }
        }

        private void onPublished(List<Claimed> call, List<Publisher.Result> results) {
            callsInFlight--;
            for (int j = 0; j < call.size(); j++) {
                Claimed c = call.get(j);
                Publisher.Result r = results.get(j);
                waves.outcome(c, r.ok());
                if (r.ok()) {
                    published.increment();
                    Publisher.Ack ack = r.ack();
                    completions.add(
                            CompletableFuture.supplyAsync(() -> complete(c.f(), ack), pool));
                } else {
                    publishFailed.increment();
                    errors.put(c, r.error());
                }
            }
            for (List<Claimed> chain : waves.takeBlocked()) {
                requeueChain(chain);
            }
            dispatch();
            claimNext();
        }

        /** The failed head back to READY with its backoff, the events behind it right after. */
        private void requeueChain(List<Claimed> chain) {
            Claimed head = chain.get(0);
            Instant due = now().plus(backoff(head.f().attempt()));
            requeue(head.f(), due, errors.getOrDefault(head, "publish failed"));
            for (Claimed later : chain.subList(1, chain.size())) {
                due = due.plusMillis(1);
                holdBehind(later, due, "held behind " + head.f().eventId());
            }
            blockedUntil.put(head.event().aggregateId(), due);
        }

        private int completed() {
            int done = 0;
            for (CompletableFuture<Boolean> c : completions) {
                try {
                    if (join(c)) {
                        done++;
                    }
                } catch (RuntimeException e) {
                    // the lease runs out and the sweep re-queues it; the publication may repeat
                    completeErrors.increment();
                    LOG.warn("outbox completion failed; the lease sweep recovers it", e);
                }
            }
            return done;
        }
    }

    private void holdBehind(Claimed c, Instant due, String why) {
        held.increment();
        requeue(c.f(), due, why);
    }

    /** One PutRecords call; a failure of the whole call fails each of its records. */
    private List<Publisher.Result> publishCall(List<Claimed> call) {
        List<Publisher.Entry> entries = new ArrayList<>(call.size());
        for (Claimed c : call) {
            entries.add(new Publisher.Entry(c.event().aggregateId(), c.data()));
        }
        putCalls.increment();
        long t0 = System.nanoTime();
        try {
            List<Publisher.Result> results = publisher.publishAll(entries);
            if (results.size() != entries.size()) {
                throw new IllegalStateException(
                        "publisher answered " + results.size() + " of " + entries.size());
            }
            return results;
        } catch (RuntimeException e) {
            return failedAll(call, describe(e));
        } finally {
            putNanos.add(System.nanoTime() - t0);
        }
    }

    private static List<Publisher.Result> failedAll(List<Claimed> call, String error) {
        Publisher.Result failed = Publisher.Result.failed(error);
        List<Publisher.Result> all = new ArrayList<>(call.size());
        call.forEach(c -> all.add(failed));
        return all;
    }

    private static OutboxEvent decode(InFlight f) {
        return OutboxEventCodec.fromItem(ModelAv.fromSdk(f.item()), "$");
    }

    private static byte[] encode(OutboxEvent event) {
        return OutboxEventCodec.toJson(event).getBytes(StandardCharsets.UTF_8);
    }

    /** The lastError text of a failure. */
    static String describe(Throwable e) {
        return e.getClass().getSimpleName() + ": " + e.getMessage();
    }

    /** Joins a future, rethrowing its failure unwrapped. */
    static <T> T join(CompletableFuture<T> f) {
        try {
            return f.join();
        } catch (CompletionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof RuntimeException re) {
                throw re;
            }
            if (cause instanceof Error err) {
                throw err;
            }
            throw e;
        }
    }

    /** Runs the relay in the background until {@link #close()}. */
    public OutboxRelay start(Duration pollInterval, Duration sweepInterval) {
        rounds = BackgroundRounds.start("outbox-relay-" + owner, 2);
        rounds.every(
                Duration.ZERO,
                pollInterval,
                () -> {
                    while (pollOnce() >= batch) {
                        // at least a full window completed: more may have come due, go on
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
        pool.shutdown();
        reads.shutdown();
        puts.shutdown();
    }

    /** Consumed capacity per transition so far (AMP15-AMP18). */
    public RelayCapacity capacity() {
        return capacity;
    }

    public Map<String, Long> metrics() {
        Map<String, Long> m = new java.util.LinkedHashMap<>();
        m.put("claimed", claimed.sum());
        m.put("claimLost", claimLost.sum());
        m.put("claimErrors", claimErrors.sum());
        m.put("published", published.sum());
        m.put("publishFailed", publishFailed.sum());
        m.put("putCalls", putCalls.sum());
        m.put("held", held.sum());
        m.put("completed", completed.sum());
        m.put("completeLost", completeLost.sum());
        m.put("completeErrors", completeErrors.sum());
        m.put("retried", retried.sum());
        m.put("rescheduled", rescheduled.sum());
        m.put("leasesRecovered", leasesRecovered.sum());
        m.put("claimCallMicros", claimNanos.sum() / 1_000);
        m.put("putCallMicros", putNanos.sum() / 1_000);
        m.put("completeCallMicros", completeNanos.sum() / 1_000);
        m.put("readyReadMicros", readNanos.sum() / 1_000);
        m.put("waitClaimsMicros", waitClaimsNanos.sum() / 1_000);
        m.put("waitPutsMicros", waitPutsNanos.sum() / 1_000);
        m.put("waitBothMicros", waitBothNanos.sum() / 1_000);
        m.put("putsInFlightMax", putsInFlightMax.get());
        return m;
    }
}
