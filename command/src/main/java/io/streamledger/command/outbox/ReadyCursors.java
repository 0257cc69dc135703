package io.streamledger.command.outbox;

import io.streamledger.model.keys.OutboxReadyKey;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import javax.annotation.Nullable;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * One paginated cursor per IDX17 READY shard (AP16), merged by (dueAt, eventId): a relay round
 * reads every due key of every shard exactly once, page by page, without a page cap, and empty
 * shards are fetched in parallel. Not thread-safe: one per round.
 */
final class ReadyCursors {

    static final Comparator<OutboxReadyKey> DUE_ORDER =
            Comparator.comparing(OutboxReadyKey::dueAt).thenComparing(OutboxReadyKey::eventId);

    /** One page of a shard's due keys and where the next page starts (null: the shard is done). */
    record Page(List<OutboxReadyKey> keys, @Nullable Map<String, AttributeValue> next) {}

    /** Reads one page of shard {@code shard} after {@code start} (null: from its beginning). */
    interface PageSource {
        Page fetch(int shard, @Nullable Map<String, AttributeValue> start);
    }

    private final PageSource source;
    private final Executor executor;
    private final List<ArrayDeque<OutboxReadyKey>> buffers = new ArrayList<>();
    private final List<Map<String, AttributeValue>> cursors = new ArrayList<>();
    private final boolean[] done;
    private long pages;

    ReadyCursors(int shards, PageSource source, Executor executor) {
        this.source = source;
        this.executor = executor;
        this.done = new boolean[shards];
        for (int s = 0; s < shards; s++) {
            buffers.add(new ArrayDeque<>());
            cursors.add(null);
        }
    }

    /** The next at most {@code n} due keys over all shards, in due order; empty when exhausted. */
    List<OutboxReadyKey> take(int n) {
        List<OutboxReadyKey> out = new ArrayList<>(Math.min(n, 1024));
        while (out.size() < n) {
            refillEmpty();
            int best = -1;
            for (int s = 0; s < buffers.size(); s++) {
                OutboxReadyKey head = buffers.get(s).peekFirst();
                if (head != null
                        && (best < 0
                                || DUE_ORDER.compare(head, buffers.get(best).peekFirst()) < 0)) {
                    best = s;
                }
            }
            if (best < 0) {
                break;
            }
            out.add(buffers.get(best).pollFirst());
        }
        return out;
    }

    /** Pages read so far. */
    long pages() {
        return pages;
    }

    /** A shard whose buffer ran dry and has more pages must be read before merging on. */
    private void refillEmpty() {
        List<Integer> empty = new ArrayList<>();
        for (int s = 0; s < buffers.size(); s++) {
            if (buffers.get(s).isEmpty() && !done[s]) {
                empty.add(s);
            }
        }
        if (empty.isEmpty()) {
            return;
        }
        List<CompletableFuture<Page>> reads = new ArrayList<>(empty.size());
        for (int s : empty) {
            Map<String, AttributeValue> start = cursors.get(s);
            reads.add(CompletableFuture.supplyAsync(() -> source.fetch(s, start), executor));
        }
        for (int i = 0; i < empty.size(); i++) {
            int s = empty.get(i);
            Page p = RelayRound.join(reads.get(i));
            pages++;
            buffers.get(s).addAll(p.keys());
            cursors.set(s, p.next());
            done[s] = p.next() == null;
        }
    }
}
