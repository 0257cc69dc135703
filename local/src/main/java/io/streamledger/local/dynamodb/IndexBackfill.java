package io.streamledger.local.dynamodb;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Duration;
import java.util.Map;
import java.util.NavigableMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import javax.annotation.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Online creation of a GSI added by UpdateTable (IDX01–IDX19 access paths added to a live table):
 * commits maintain the new index from the moment it is declared, and a background thread walks the
 * table in key order, adding the current image of each item under the commit lock one bounded chunk
 * at a time, so writes interleave with the backfill and every item lands in the index once.
 * Backfill writes are not part of any request's ConsumedCapacity (DynamoDB meters them apart, as
 * OnlineIndexConsumedWriteCapacity).
 */
final class IndexBackfill implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(IndexBackfill.class);

    private final DynamoDbEngine engine;
    private final ExecutorService worker =
            Executors.newSingleThreadExecutor(
                    r -> {
                        Thread t = new Thread(r, "local-dynamodb-index-backfill");
                        t.setDaemon(true);
                        return t;
                    });
    private final Object gate = new Object();
    private volatile int chunkItems = 1000;
    private volatile Duration pause = Duration.ZERO;
    private boolean held;

    IndexBackfill(DynamoDbEngine engine) {
        this.engine = engine;
    }

    /** Items per commit-lock hold and the pause between chunks (the pace of a backfill). */
    void configure(int chunkItems, Duration pause) {
        if (chunkItems < 1 || pause.isNegative()) {
            throw new IllegalArgumentException("chunkItems >= 1 and pause >= 0 required");
        }
        this.chunkItems = chunkItems;
        this.pause = pause;
    }

    /** While held, running backfills wait before their next chunk (a test hook). */
    void hold(boolean hold) {
        synchronized (gate) {
            held = hold;
            gate.notifyAll();
        }
    }

    /**
     * Starts backfilling {@code idx}, which the caller has just declared on {@code t} (under the
     * commit lock); during WAL replay the whole table is indexed at once.
     */
    void start(Table t, IndexDef idx) {
        if (engine.replaying()) {
            chunk(t, idx, null, Integer.MAX_VALUE);
            return;
        }
        worker.execute(() -> run(t, idx));
    }

    private void run(Table t, IndexDef idx) {
        Chunk.Cursor cursor = new Chunk.Cursor();
        try {
            while (true) {
                awaitRelease();
                engine.commitLock.lock();
                Chunk c;
                try {
                    c = chunk(t, idx, cursor, chunkItems);
                } finally {
                    engine.commitLock.unlock();
                }
                if (c != Chunk.MORE) {
                    return;
                }
                long ms = pause.toMillis();
                if (ms > 0) {
                    Thread.sleep(ms); // pacing only: correctness never depends on it
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            LOG.error("backfill of {}.{} failed", t.name, idx.name(), e);
        }
    }

    private void awaitRelease() throws InterruptedException {
        synchronized (gate) {
            while (held) {
                gate.wait();
            }
        }
    }

    /**
     * Indexes the next {@code max} items after the cursor from their current images; caller holds
     * the commit lock. Marks the index ACTIVE once the walk reaches the end of the table.
     */
    private Chunk chunk(Table t, IndexDef idx, @Nullable Chunk.Cursor cursor, int max) {
        ConcurrentSkipListMap<KeyValue, ObjectNode> map = t.indexes.get(idx.name());
        if (engine.tables.get(t.name) != t
                || !t.backfilling.contains(idx.name())
                || map == null
                || !t.gsis.contains(idx)) {
            return Chunk.STOPPED; // table or index deleted meanwhile
        }
        NavigableMap<KeyValue, ObjectNode> rest =
                cursor == null || cursor.last == null
                        ? t.items
                        : t.items.tailMap(cursor.last, false);
        int n = 0;
        for (Map.Entry<KeyValue, ObjectNode> e : rest.entrySet()) {
            if (n == max) {
                return Chunk.MORE;
            }
            ObjectNode item = e.getValue();
            KeyValue k = t.indexKey(idx, item);
            if (k != null) {
                // the current image, under the lock: a write since the declaration put the same
                map.put(k, idx.project(item, t.key));
            }
            if (cursor != null) {
                cursor.last = e.getKey();
            }
            n++;
        }
        t.backfilling.remove(idx.name());
        return Chunk.DONE;
    }

    private enum Chunk {
        MORE,
        DONE,
        STOPPED;

        static final class Cursor {
            @Nullable KeyValue last;
        }
    }

    @Override
    public void close() {
        worker.shutdownNow();
    }
}
