package io.streamledger.command.outbox;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.function.ToLongFunction;

/**
 * Per-aggregate publication order for the claimed AP16 events of a relay round (CS03, CS07): an
 * aggregate has at most one event in flight, its oldest unpublished one, so a later event of an
 * aggregate is sent only after the broker acknowledged the one before it. Events may be added while
 * others are in flight; a call takes the sendable heads of many aggregates. A failed event blocks
 * its aggregate: it and every later event of that aggregate are handed back, in order, instead of
 * being published. Pure and single-threaded.
 */
final class PublishWaves<T> {

    private final Function<T, String> aggregate;
    // per aggregate its unpublished events; the head may be in flight
    private final Map<String, ArrayDeque<T>> queues = new HashMap<>();
    // aggregates whose head may be sent now, in the order they became sendable
    private final Set<String> sendable = new LinkedHashSet<>();
    private final Set<String> inFlight = new HashSet<>();
    private final Set<String> blocked = new LinkedHashSet<>();
    private final List<String> notTaken = new ArrayList<>();
    private int pending;

    PublishWaves(Function<T, String> aggregate) {
        this.aggregate = aggregate;
    }

    /** {@code inOrder}: the events in publication order (per aggregate it is what counts). */
    PublishWaves(Collection<T> inOrder, Function<T, String> aggregate) {
        this(aggregate);
        add(inOrder);
    }

    /** Appends events behind those already added, in order; not for a blocked aggregate. */
    void add(Collection<T> inOrder) {
        for (T t : inOrder) {
            String agg = aggregate.apply(t);
            if (blocked.contains(agg)) {
                throw new IllegalStateException("aggregate blocked in this round: " + t);
            }
            ArrayDeque<T> q = queues.computeIfAbsent(agg, k -> new ArrayDeque<>());
            q.add(t);
            pending++;
            if (q.size() == 1) {
                sendable.add(agg);
            }
        }
    }

    /**
     * Up to {@code maxRecords} sendable heads whose summed {@code weight} stays within {@code
     * maxWeight} (at least one head), each of another aggregate, now in flight; empty when none.
     */
    List<T> nextCall(int maxRecords, long maxWeight, ToLongFunction<T> weight) {
        List<T> call = new ArrayList<>(Math.min(maxRecords, sendable.size()));
        long sum = 0;
        for (Iterator<String> it = sendable.iterator();
                it.hasNext() && call.size() < maxRecords; ) {
            String agg = it.next();
            T head = queues.get(agg).peekFirst();
            long w = weight.applyAsLong(head);
            if (!call.isEmpty() && sum + w > maxWeight) {
                break;
            }
            call.add(head);
            sum += w;
            it.remove();
            inFlight.add(agg);
        }
        return call;
    }

    /** The head of every aggregate that is neither blocked, in flight nor done; now in flight. */
    List<T> nextWave() {
        return nextCall(Integer.MAX_VALUE, Long.MAX_VALUE, t -> 0L);
    }

    /** Records the broker's outcome for a head in flight. */
    void outcome(T head, boolean acked) {
        String agg = aggregate.apply(head);
        ArrayDeque<T> q = queues.get(agg);
        if (q == null || q.peekFirst() != head || !inFlight.contains(agg)) {
            throw new IllegalStateException("not the head of its aggregate in flight: " + head);
        }
        inFlight.remove(agg);
        if (acked) {
            q.pollFirst();
            pending--;
            if (q.isEmpty()) {
                queues.remove(agg);
            } else {
                sendable.add(agg);
            }
        } else {
            blocked.add(agg);
            notTaken.add(agg);
        }
    }

    /** Per blocked aggregate not yet taken: the failed head first, then the events behind it. */
    List<List<T>> blocked() {
        List<List<T>> out = new ArrayList<>();
        for (String agg : notTaken) {
            out.add(List.copyOf(queues.get(agg)));
        }
        return out;
    }

    /** Hands back the chains of {@link #blocked()}; their aggregates stay blocked. */
    List<List<T>> takeBlocked() {
        List<List<T>> out = blocked();
        for (String agg : notTaken) {
            pending -= queues.remove(agg).size();
        }
        notTaken.clear();
        return out;
    }

    /** Events added and neither acknowledged nor handed back. */
    int pending() {
        return pending;
    }

    /** Events that could go into a call now. */
    int sendable() {
        return sendable.size();
    }
}
