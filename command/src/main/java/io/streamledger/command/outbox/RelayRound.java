package io.streamledger.command.outbox;

import io.streamledger.aws.items.ModelAv;
import io.streamledger.model.change.OutboxEvent;
import io.streamledger.model.change.OutboxEventCodec;
import io.streamledger.model.keys.OutboxReadyKey;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
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
import java.util.concurrent.atomic.LongAdder;
import javax.annotation.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One pipelined relay round over everything due (AP16 steps 2-4, CS03): windows of keys from the
 * per-shard READY cursors are claimed in parallel while the window before publishes (at most one
 * window claimed ahead); claimed events queue per aggregate ({@link PublishWaves}) and go out in
 * PutRecords calls of the sendable heads, each acknowledged record is completed at once, and a
 * failed event goes back to READY with the events of its aggregate behind it. The state is touched
 * only by the thread running {@link #run}: claim and PutRecords results come back through {@code
 * inbox} and are applied there in arrival order.
 */
final class RelayRound {

    private static final Logger LOG = LoggerFactory.getLogger(RelayRound.class);

    /** What a round needs of its relay. */
    record Parts(
            RelayContext ctx,
            OutboxClaims claims,
            OutboxCompletions completions,
            OutboxRequeues requeues,
            Publisher publisher,
            int batch,
            int publishCalls,
            ExecutorService pool,
            ExecutorService puts) {}

    /** A claimed event with its decoded envelope and the bytes published for it. */
    private record Claimed(InFlight f, OutboxEvent event, byte[] data, int order) {
        long bytes() {
            return data.length + event.aggregateId().getBytes(StandardCharsets.UTF_8).length;
        }
    }

    private final Parts p;
    private final RelayCounters counters;
    private final ReadyCursors cursors;
    private final PublishWaves<Claimed> waves = new PublishWaves<>(c -> c.event().aggregateId());
    // aggregates with an event re-queued this round -> dueAt of its last re-queued event
    private final Map<String, Instant> blockedUntil = new HashMap<>();
    private final Map<Claimed, String> errors = new IdentityHashMap<>();
    private final List<CompletableFuture<Boolean>> completions = new ArrayList<>();
    private final LinkedBlockingQueue<Runnable> inbox = new LinkedBlockingQueue<>();
    private boolean claiming;
    private boolean exhausted;
    private int callsInFlight;

    RelayRound(Parts parts, ReadyCursors cursors) {
        this.p = parts;
        this.counters = parts.ctx().counters;
        this.cursors = cursors;
    }

    /** Runs the round; returns how many events it COMPLETED. */
    int run() {
        claimNext();
        while (claiming || callsInFlight > 0) {
            LongAdder waitingFor =
                    !claiming
                            ? counters.waitPutsNanos
                            : callsInFlight == 0
                                    ? counters.waitClaimsNanos
                                    : counters.waitBothNanos;
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
        if (claiming || exhausted || waves.pending() > p.batch()) {
            return;
        }
        long t0 = System.nanoTime();
        List<OutboxReadyKey> window = cursors.take(p.batch());
        counters.readNanos.add(System.nanoTime() - t0);
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

    /** Claims the window in parallel; completes with the claimed events decoded, in order. */
    private CompletableFuture<List<Claimed>> claimAll(List<OutboxReadyKey> window) {
        List<CompletableFuture<Claimed>> claims = new ArrayList<>(window.size());
        for (int i = 0; i < window.size(); i++) {
            String eventId = window.get(i).eventId();
            int order = i;
            claims.add(
                    CompletableFuture.supplyAsync(() -> claimAndDecode(eventId, order), p.pool()));
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
                // had it applied, lease recovery returns it to READY
                counters.claimErrors.increment();
                LOG.warn("outbox claim of {} failed", window.get(i).eventId(), e);
            }
        }
        return out;
    }

    /** Claims one event and decodes it; null when not claimed or re-queued as undecodable. */
    @Nullable
    private Claimed claimAndDecode(String eventId, int order) {
        InFlight f = p.claims().claim(eventId);
        if (f == null) {
            return null;
        }
        try {
            OutboxEvent event = decode(f);
            return new Claimed(f, event, encode(event), order);
        } catch (RuntimeException e) {
            counters.publishFailed.increment();
            p.requeues().requeue(f, describe(e));
            return null;
        }
    }

    private void onClaimed(List<Claimed> claimedEvents) {
        claiming = false;
        List<Claimed> toPublish = new ArrayList<>(claimedEvents.size());
        for (Claimed c : claimedEvents) {
            Instant behind = blockedUntil.get(c.event().aggregateId());
            if (behind == null) {
                toPublish.add(c);
            } else {
                // an earlier event of this aggregate failed this round: keep the order behind it
                Instant due = behind.plusMillis(1);
                p.requeues()
                        .holdBehind(c.f(), due, "an earlier event of its aggregate was re-queued");
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
        while (callsInFlight < p.publishCalls()) {
            List<Claimed> call =
                    waves.nextCall(
                            Publisher.MAX_RECORDS_PER_CALL,
                            Publisher.MAX_BYTES_PER_CALL,
                            Claimed::bytes);
            if (call.isEmpty()) {
                return;
            }
            callsInFlight++;
            counters.putsInFlightMax.accumulate(callsInFlight);
            CompletableFuture.supplyAsync(() -> publishCall(call), p.puts())
                    .handle(
                            (results, failure) ->
                                    results != null ? results : failedAll(call, describe(failure)))
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
                counters.published.increment();
                Publisher.Ack ack = r.ack();
                completions.add(
                        CompletableFuture.supplyAsync(
                                () -> p.completions().complete(c.f(), ack), p.pool()));
            } else {
                counters.publishFailed.increment();
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
        Instant due = p.ctx().now().plus(p.requeues().backoff(head.f().attempt()));
        p.requeues().requeue(head.f(), due, errors.getOrDefault(head, "publish failed"));
        for (Claimed later : chain.subList(1, chain.size())) {
            due = due.plusMillis(1);
            p.requeues().holdBehind(later.f(), due, "held behind " + head.f().eventId());
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
                // the lease runs out and lease recovery re-queues it; the publication may repeat
                counters.completeErrors.increment();
                LOG.warn("outbox completion failed; lease recovery re-queues it", e);
            }
        }
        return done;
    }

    /** One PutRecords call; a failure of the whole call fails each of its records. */
    private List<Publisher.Result> publishCall(List<Claimed> call) {
        List<Publisher.Entry> entries = new ArrayList<>(call.size());
        for (Claimed c : call) {
            entries.add(new Publisher.Entry(c.event().aggregateId(), c.data()));
        }
        counters.putCalls.increment();
        long t0 = System.nanoTime();
        try {
            List<Publisher.Result> results = p.publisher().publishAll(entries);
            if (results.size() != entries.size()) {
                throw new IllegalStateException(
                        "publisher answered " + results.size() + " of " + entries.size());
            }
            return results;
        } catch (RuntimeException e) {
            return failedAll(call, describe(e));
        } finally {
            counters.putNanos.add(System.nanoTime() - t0);
        }
    }

    private static List<Publisher.Result> failedAll(List<Claimed> call, String error) {
        Publisher.Result failed = Publisher.Result.failed(error);
        List<Publisher.Result> all = new ArrayList<>(call.size());
        call.forEach(c -> all.add(failed));
        return all;
    }

    static OutboxEvent decode(InFlight f) {
        return OutboxEventCodec.fromItem(ModelAv.fromSdk(f.item()), "$");
    }

    static byte[] encode(OutboxEvent event) {
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
}
