package io.streamledger.command.outbox;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * Per-aggregate publication order for a batch of claimed AP16 events (CS03, CS07): each wave holds
 * at most the oldest unpublished event of every aggregate, so a later event of an aggregate is sent
 * only after the broker acknowledged the one before it. A failed event blocks its aggregate: it and
 * every later event of that aggregate are handed back, in order, instead of being published. Pure
 * and single-threaded.
 */
final class PublishWaves<T> {

    private final Function<T, String> aggregate;
    private final Map<String, ArrayDeque<T>> queues = new LinkedHashMap<>();
    private final Set<String> blocked = new LinkedHashSet<>();

    /** {@code inOrder}: the events in publication order (per aggregate it is what counts). */
    PublishWaves(Collection<T> inOrder, Function<T, String> aggregate) {
        this.aggregate = aggregate;
        for (T t : inOrder) {
            queues.computeIfAbsent(aggregate.apply(t), k -> new ArrayDeque<>()).add(t);
        }
    }

    /** The head of every aggregate that is neither blocked nor done; empty when nothing is left. */
    List<T> nextWave() {
        List<T> wave = new ArrayList<>();
        queues.forEach(
                (agg, q) -> {
                    if (!q.isEmpty() && !blocked.contains(agg)) {
                        wave.add(q.peekFirst());
                    }
                });
        return wave;
    }

    /** Records the broker's outcome for a head of the last wave. */
    void outcome(T head, boolean acked) {
        String agg = aggregate.apply(head);
        ArrayDeque<T> q = queues.get(agg);
        if (q == null || q.peekFirst() != head) {
            throw new IllegalStateException("not the head of its aggregate: " + head);
        }
        if (acked) {
            q.pollFirst();
        } else {
            blocked.add(agg);
        }
    }

    /** Per blocked aggregate: the failed head first, then the events held behind it, in order. */
    List<List<T>> blocked() {
        List<List<T>> out = new ArrayList<>();
        for (String agg : blocked) {
            out.add(List.copyOf(queues.get(agg)));
        }
        return out;
    }
}
