package io.streamledger.command.outbox;

import io.streamledger.command.dynamo.Ddb;
import io.streamledger.command.worker.BackgroundRounds;
import io.streamledger.model.change.OutboxEvent;
import io.streamledger.model.keys.OutboxReadyKey;
import io.streamledger.model.lease.LeaseTiming;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import javax.annotation.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The AP16 outbox relay (CS03): one class per transition family of the seed's lifecycle — discovery
 * of due READY events ({@link ReadyQueue}), step 2 claim ({@link OutboxClaims}), step 3 completion
 * ({@link OutboxCompletions}), step 4 re-queue after a failed publish ({@link OutboxRequeues}) and
 * by lease expiry ({@link LeaseRecovery}, a Query of the sparse OUTBOX-LEASE queue, never a Scan),
 * step 5 reschedule ({@link OutboxReschedules}) — and the pipelined round that drives them ({@link
 * RelayRound}). This class wires them and runs them in the background.
 */
public final class OutboxRelay implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(OutboxRelay.class);

    /**
     * Parallelism and page sizes; the AP16 transitions do not depend on them.
     *
     * @param concurrency DynamoDB calls in flight (claims, completions)
     * @param publishCalls PutRecords calls in flight (each with at most one event per aggregate)
     * @param readyPageSize keys per READY shard Query page
     * @param recoveryPageSize keys per OUTBOX-LEASE shard Query page of lease recovery
     */
    public record Tuning(
            int concurrency, int publishCalls, int readyPageSize, int recoveryPageSize) {
        public Tuning {
            if (concurrency < 1 || publishCalls < 1 || readyPageSize < 1 || recoveryPageSize < 1) {
                throw new IllegalArgumentException("relay tuning must be positive: " + this);
            }
        }

        public static Tuning defaults() {
            return new Tuning(16, 4, 500, 500);
        }

        public Tuning withRecoveryPageSize(int keys) {
            return new Tuning(concurrency, publishCalls, readyPageSize, keys);
        }

        public Tuning withReadyPageSize(int keys) {
            return new Tuning(concurrency, publishCalls, keys, recoveryPageSize);
        }

        public Tuning withConcurrency(int calls) {
            return new Tuning(calls, publishCalls, readyPageSize, recoveryPageSize);
        }

        public Tuning withPublishCalls(int calls) {
            return new Tuning(concurrency, calls, readyPageSize, recoveryPageSize);
        }
    }

    /**
     * What the relay's transitions depend on.
     *
     * @param lease IN_FLIGHT lease and the clock skew recovery waits out beyond it
     * @param batch events claimed per window (a round reads windows until nothing is due)
     * @param baseBackoff first re-queue backoff after a failed publish
     * @param maxBackoff longest re-queue backoff
     * @param completedRetention how long a COMPLETED item stays before TTL may delete it
     * @param tuning parallelism and page sizes
     */
    public record Settings(
            LeaseTiming lease,
            int batch,
            Duration baseBackoff,
            Duration maxBackoff,
            Duration completedRetention,
            Tuning tuning) {
        public Settings {
            if (batch < 1) {
                throw new IllegalArgumentException("batch must be positive: " + batch);
            }
        }

        /** A lease with the stated default clock skew, the default retention and tuning. */
        public static Settings of(
                Duration lease, int batch, Duration baseBackoff, Duration maxBackoff) {
            return new Settings(
                    new LeaseTiming(lease, LeaseTiming.DEFAULT_MAX_CLOCK_SKEW),
                    batch,
                    baseBackoff,
                    maxBackoff,
                    OutboxItems.COMPLETED_RETENTION,
                    Tuning.defaults());
        }

        public Settings withLease(LeaseTiming l) {
            return new Settings(l, batch, baseBackoff, maxBackoff, completedRetention, tuning);
        }

        public Settings withTuning(Tuning t) {
            return new Settings(lease, batch, baseBackoff, maxBackoff, completedRetention, t);
        }
    }

    private final RelayContext ctx;
    private final Settings settings;
    private final ReadyQueue ready;
    private final OutboxClaims claims;
    private final OutboxCompletions completions;
    private final OutboxRequeues requeues;
    private final OutboxReschedules reschedules;
    private final LeaseRecovery recovery;
    private final RelayRound.Parts roundParts;
    private final Publisher publisher;
    // claims and completions; READY pages; PutRecords calls
    private final ExecutorService pool;
    private final ExecutorService reads;
    private final ExecutorService puts;
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
                Settings.of(lease, batch, baseBackoff, maxBackoff));
    }

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
        this(
                ddb,
                table,
                owner,
                clock,
                publisher,
                Settings.of(lease, batch, baseBackoff, maxBackoff).withTuning(tuning));
    }

    public OutboxRelay(
            Ddb ddb,
            String table,
            String owner,
            Clock clock,
            Publisher publisher,
            Settings settings) {
        Tuning tuning = settings.tuning();
        this.ctx = new RelayContext(ddb, table, owner, clock, settings.lease());
        this.settings = settings;
        this.publisher = publisher;
        this.pool = newPool("outbox-relay-" + owner + "-", tuning.concurrency());
        this.reads = newPool("outbox-relay-" + owner + "-read-", tuning.concurrency());
        this.puts = newPool("outbox-relay-" + owner + "-put-", tuning.publishCalls());
        this.ready = new ReadyQueue(ctx, tuning.readyPageSize(), reads);
        this.claims = new OutboxClaims(ctx);
        this.completions = new OutboxCompletions(ctx, settings.completedRetention());
        this.requeues = new OutboxRequeues(ctx, settings.baseBackoff(), settings.maxBackoff());
        this.reschedules = new OutboxReschedules(ctx);
        this.recovery = new LeaseRecovery(ctx, tuning.recoveryPageSize());
        this.roundParts =
                new RelayRound.Parts(
                        ctx,
                        claims,
                        completions,
                        requeues,
                        publisher,
                        settings.batch(),
                        tuning.publishCalls(),
                        pool,
                        puts);
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
        return ctx.owner;
    }

    /** Due READY events across all shards, merged by (dueAt, eventId), at most one batch. */
    public List<OutboxReadyKey> due() {
        return ready.due(ctx.now()).take(settings.batch());
    }

    /** READY → IN_FLIGHT, conditionally; null when another relay claimed it first. */
    @Nullable
    public InFlight claim(String eventId) {
        return claims.claim(eventId);
    }

    /** Publishes a claimed event and records the outcome; true when COMPLETED by this relay. */
    public boolean publishAndRecord(InFlight f) {
        Publisher.Ack ack;
        try {
            OutboxEvent event = RelayRound.decode(f);
            ack = publisher.publish(event.aggregateId(), RelayRound.encode(event));
            ctx.counters.putCalls.increment();
        } catch (RuntimeException e) {
            ctx.counters.publishFailed.increment();
            requeues.requeue(f, RelayRound.describe(e));
            return false;
        }
        ctx.counters.published.increment();
        return completions.complete(f, ack);
    }

    /** IN_FLIGHT → COMPLETED, only by the lease owner of this attempt. */
    public boolean complete(InFlight f, Publisher.Ack ack) {
        return completions.complete(f, ack);
    }

    /** IN_FLIGHT → READY after a failed publish, with backoff and a new dueAt. */
    public boolean requeue(InFlight f, String error) {
        return requeues.requeue(f, error);
    }

    /** READY → READY (seed step 5); false when the event is no longer READY at that version. */
    public boolean reschedule(String eventId, long expectedVersion, Instant due) {
        return reschedules.reschedule(eventId, expectedVersion, due);
    }

    /** IN_FLIGHT → READY for every lease that ended at least the clock skew ago (step 4). */
    public int recoverExpiredLeases() {
        return recovery.recoverExpired();
    }

    /** One pipelined round over everything due now; returns how many events it COMPLETED. */
    public int pollOnce() {
        return new RelayRound(roundParts, ready.due(ctx.now())).run();
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

    /** Wait before publish attempt {@code attempt + 1}. */
    Duration backoff(int attempt) {
        return requeues.backoff(attempt);
    }

    /** Runs the relay and lease recovery in the background until {@link #close()}. */
    public OutboxRelay start(Duration pollInterval, Duration recoveryInterval) {
        rounds = BackgroundRounds.start("outbox-relay-" + ctx.owner, 2);
        rounds.every(
                Duration.ZERO,
                pollInterval,
                () -> {
                    while (pollOnce() >= settings.batch()) {
                        // at least a full window completed: more may have come due, go on
                    }
                },
                LOG,
                "outbox relay round failed; next round retries");
        rounds.every(
                recoveryInterval,
                recoveryInterval,
                this::recoverExpiredLeases,
                LOG,
                "outbox lease recovery failed; next pass retries");
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
        return ctx.capacity;
    }

    public Map<String, Long> metrics() {
        return ctx.counters.snapshot();
    }
}
