package io.streamledger.command.fills;

import io.streamledger.command.config.Schema;
import io.streamledger.model.keys.KeyOrder;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import javax.annotation.Nullable;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * The AP06 fan-out merge over a symbol's IDX06 partitions (unsharded key plus {@code #SHARD#k}):
 * each partition is one newest-first Query stream; a page takes the newest head across streams
 * (time, then trade id: the sort key {@code TRADE#at#id} in DynamoDB's string order), drops an
 * entry equal to the last one taken (the same trade seen twice), and leaves every stream at the key
 * of its last consumed entry, so the next page resumes each one exactly. Pure apart from the {@link
 * Source}; not thread-safe.
 */
final class SymbolTradeMerge {

    /** Queries one page may issue before it returns what it has. */
    static final int MAX_QUERIES_PER_PAGE = 64;

    /** Key attributes of an IDX06 entry: its LastEvaluatedKey shape. */
    static final List<String> KEY_ATTRIBUTES =
            List.of(Schema.PK, Schema.SK, Schema.GSI2PK, Schema.GSI2SK);

    /** One Query page of one partition. */
    record Fetched(
            List<Map<String, AttributeValue>> items,
            @Nullable Map<String, AttributeValue> lastEvaluatedKey) {}

    /** Reads up to {@code limit} entries of {@code shard} after {@code start}, newest first. */
    interface Source {
        Fetched fetch(int shard, @Nullable Map<String, AttributeValue> start, int limit);
    }

    /**
     * One partition's position: where it resumes (null = its newest entry) and whether it is read
     * to its end.
     */
    record Position(int shard, @Nullable Map<String, AttributeValue> after, boolean done) {}

    /** A page: the entries in order, each stream's position, the last sort key taken. */
    record Page(
            List<Map<String, AttributeValue>> items,
            List<Position> positions,
            @Nullable String watermark,
            int queries) {
        /** True when every stream is read to its end. */
        boolean complete() {
            return positions.stream().allMatch(Position::done);
        }
    }

    private static final class Stream {
        final int shard;
        @Nullable Map<String, AttributeValue> after;
        @Nullable Map<String, AttributeValue> lastEvaluated;
        boolean exhausted;
        final ArrayDeque<Map<String, AttributeValue>> buffer = new ArrayDeque<>();

        Stream(Position p) {
            this.shard = p.shard();
            this.after = p.after();
            this.exhausted = p.done();
        }

        boolean live() {
            return !buffer.isEmpty() || !exhausted;
        }

        Position position() {
            if (buffer.isEmpty()) {
                // every fetched entry was consumed: resume where DynamoDB stopped
                if (exhausted) {
                    return new Position(shard, null, true);
                }
                return new Position(shard, lastEvaluated != null ? lastEvaluated : after, false);
            }
            return new Position(shard, after, false);
        }
    }

    private SymbolTradeMerge() {}

    /**
     * The next page of at most {@code size} distinct entries.
     *
     * @param positions every stream's position (from the cursor, or all fresh)
     * @param watermark the sort key of the last entry the previous page returned; an entry not
     *     strictly older is a duplicate
     */
    static Page page(
            List<Position> positions, @Nullable String watermark, int size, Source source) {
        List<Stream> streams = new ArrayList<>(positions.size());
        positions.forEach(p -> streams.add(new Stream(p)));
        List<Map<String, AttributeValue>> out = new ArrayList<>(size);
        int queries = 0;
        String last = watermark;
        while (out.size() < size) {
            long live = streams.stream().filter(Stream::live).count();
            int limit = live == 0 ? size : (int) Math.min(size, (size + live - 1) / live + 1);
            boolean cut = false;
            Stream best = null;
            for (Stream s : streams) {
                if (s.buffer.isEmpty() && !s.exhausted) {
                    if (queries >= MAX_QUERIES_PER_PAGE) {
                        cut = true; // a head is unknown: resume from the cursor
                        continue;
                    }
                    fetch(s, source, limit);
                    queries++;
                }
                if (!s.buffer.isEmpty()
                        && (best == null
                                || KeyOrder.compare(
                                                sk(s.buffer.peekFirst()),
                                                sk(best.buffer.peekFirst()))
                                        > 0)) {
                    best = s;
                }
            }
            if (cut || best == null) {
                break;
            }
            Map<String, AttributeValue> item = best.buffer.pollFirst();
            best.after = key(item);
            String sk = sk(item);
            if (last != null && KeyOrder.compare(sk, last) >= 0) {
                continue; // the same trade from a second partition, or again after a page break
            }
            out.add(item);
            last = sk;
        }
        List<Position> next = new ArrayList<>(streams.size());
        streams.forEach(s -> next.add(s.position()));
        return new Page(out, next, last, queries);
    }

    private static void fetch(Stream s, Source source, int limit) {
        Map<String, AttributeValue> start = s.lastEvaluated != null ? s.lastEvaluated : s.after;
        Fetched f = source.fetch(s.shard, start, limit);
        s.buffer.addAll(f.items());
        if (f.lastEvaluatedKey() == null || f.lastEvaluatedKey().isEmpty()) {
            s.exhausted = true;
            s.lastEvaluated = null;
        } else {
            s.lastEvaluated = f.lastEvaluatedKey();
        }
    }

    static String sk(Map<String, AttributeValue> item) {
        return item.get(Schema.GSI2SK).s();
    }

    /** The entry's key attributes: a valid ExclusiveStartKey that resumes right after it. */
    static Map<String, AttributeValue> key(Map<String, AttributeValue> item) {
        Map<String, AttributeValue> k = new java.util.HashMap<>(KEY_ATTRIBUTES.size());
        for (String a : KEY_ATTRIBUTES) {
            k.put(a, item.get(a));
        }
        return k;
    }
}
