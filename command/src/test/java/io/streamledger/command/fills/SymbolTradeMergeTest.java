package io.streamledger.command.fills;

import static org.assertj.core.api.Assertions.assertThat;

import io.streamledger.command.config.Schema;
import io.streamledger.model.keys.KeyOrder;
import io.streamledger.model.keys.TradeBySymbolKey;
import io.streamledger.model.keys.TradeKey;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/** AP06 fan-out merge: newest first across partitions, ties by trade id, duplicates dropped. */
class SymbolTradeMergeTest {

    static final Instant T0 = Instant.parse("2026-12-01T12:00:00Z");

    /** In-memory partitions with DynamoDB's Query contract: descending, Limit, LEK. */
    static final class Partitions implements SymbolTradeMerge.Source {
        final Map<Integer, List<Map<String, AttributeValue>>> byShard = new TreeMap<>();
        int queries;
        int maxPerQuery = Integer.MAX_VALUE; // DynamoDB's 1 MB page cap, scaled down

        Partitions add(int shard, long atMillis, String tradeId) {
            byShard.computeIfAbsent(shard, k -> new ArrayList<>())
                    .add(item(shard, atMillis, tradeId));
            byShard.get(shard)
                    .sort(
                            Comparator.comparing(
                                            (Map<String, AttributeValue> i) ->
                                                    SymbolTradeMerge.sk(i),
                                            KeyOrder.STRING)
                                    .reversed());
            return this;
        }

        @Override
        public SymbolTradeMerge.Fetched fetch(
                int shard, Map<String, AttributeValue> start, int limit) {
            queries++;
            List<Map<String, AttributeValue>> all = byShard.getOrDefault(shard, List.of());
            List<Map<String, AttributeValue>> out = new ArrayList<>();
            for (Map<String, AttributeValue> i : all) {
                if (start != null
                        && KeyOrder.compare(SymbolTradeMerge.sk(i), start.get(Schema.GSI2SK).s())
                                >= 0) {
                    continue;
                }
                if (out.size() == Math.min(limit, maxPerQuery)) {
                    break;
                }
                out.add(i);
            }
            // DynamoDB returns a LastEvaluatedKey whenever Limit was reached
            Map<String, AttributeValue> lek =
                    out.size() == Math.min(limit, maxPerQuery)
                            ? SymbolTradeMerge.key(out.get(out.size() - 1))
                            : null;
            return new SymbolTradeMerge.Fetched(out, lek);
        }
    }

    static Map<String, AttributeValue> item(int shard, long atMillis, String tradeId) {
        Instant at = T0.plusMillis(atMillis);
        TradeBySymbolKey k = new TradeBySymbolKey("t1", "HOT", shard, at, tradeId);
        TradeKey base = new TradeKey("t1", "o-" + tradeId, at, tradeId);
        return Map.of(
                Schema.PK, AttributeValue.fromS(base.pk()),
                Schema.SK, AttributeValue.fromS(base.sk()),
                Schema.GSI2PK, AttributeValue.fromS(k.pk()),
                Schema.GSI2SK, AttributeValue.fromS(k.sk()));
    }

    static List<SymbolTradeMerge.Position> fresh(int... shards) {
        List<SymbolTradeMerge.Position> p = new ArrayList<>();
        for (int s : shards) {
            p.add(new SymbolTradeMerge.Position(s, null, false));
        }
        return p;
    }

    static List<String> ids(List<Map<String, AttributeValue>> items) {
        return items.stream()
                .map(
                        i ->
                                TradeBySymbolKey.parse(
                                        i.get(Schema.GSI2PK).s(), i.get(Schema.GSI2SK).s()))
                .map(TradeBySymbolKey::tradeId)
                .toList();
    }

    /** Pages through everything with page size {@code size}; returns the ids in page order. */
    static List<String> readAll(Partitions p, int size, int... shards) {
        List<SymbolTradeMerge.Position> pos = fresh(shards);
        String watermark = null;
        List<String> out = new ArrayList<>();
        for (int pages = 0; pages < 1000; pages++) {
            SymbolTradeMerge.Page page = SymbolTradeMerge.page(pos, watermark, size, p);
            assertThat(page.items()).hasSizeLessThanOrEqualTo(size);
            out.addAll(ids(page.items()));
            if (page.complete()) {
                return out;
            }
            pos = page.positions();
            watermark = page.watermark();
        }
        throw new AssertionError("no end");
    }

    @Test
    void mergesPartitionsNewestFirst() {
        Partitions p =
                new Partitions()
                        .add(-1, 1, "a")
                        .add(0, 5, "e")
                        .add(1, 4, "d")
                        .add(0, 2, "b")
                        .add(1, 3, "c");
        SymbolTradeMerge.Page page = SymbolTradeMerge.page(fresh(-1, 0, 1), null, 10, p);
        assertThat(ids(page.items())).containsExactly("e", "d", "c", "b", "a");
        assertThat(page.complete()).isTrue();
    }

    @Test
    void equalTimesAreOrderedByTradeIdDescending() {
        Partitions p = new Partitions().add(0, 7, "x-1").add(1, 7, "x-3").add(2, 7, "x-2");
        assertThat(ids(SymbolTradeMerge.page(fresh(0, 1, 2), null, 10, p).items()))
                .containsExactly("x-3", "x-2", "x-1");
    }

    @Test
    void theSameTradeInTwoPartitionsIsReturnedOnce() {
        // an entry seen under the unsharded key and a shard (e.g. while a GSI key moves)
        Partitions p = new Partitions().add(-1, 3, "dup").add(2, 3, "dup").add(2, 1, "z");
        List<String> all = readAll(p, 1, -1, 2);
        assertThat(all).containsExactly("dup", "z");
    }

    @Test
    void smallPagesReturnEveryEntryExactlyOnceInOrder() {
        Partitions p = new Partitions();
        List<String> expected = new ArrayList<>();
        for (int i = 0; i < 57; i++) {
            String id = String.format("tr-%03d", i);
            p.add(i % 5 - 1, i / 3, id); // three per millisecond, spread over five partitions
            expected.add(id);
        }
        expected.sort(
                Comparator.comparing((String id) -> Integer.parseInt(id.substring(3)) / 3)
                        .thenComparing(Comparator.naturalOrder())
                        .reversed());
        for (int size : new int[] {1, 2, 3, 7, 100}) {
            assertThat(readAll(p, size, -1, 0, 1, 2, 3))
                    .as("page size " + size)
                    .isEqualTo(expected);
        }
    }

    @Test
    void aPageStopsAtItsQueryBudgetAndResumesWithoutLoss() {
        Partitions p = new Partitions();
        p.maxPerQuery = 1; // every Query stops after one entry
        for (int i = 0; i < 200; i++) {
            p.add(i % 2, i, String.format("a-%03d", i));
        }
        SymbolTradeMerge.Page first = SymbolTradeMerge.page(fresh(0, 1), null, 100, p);
        assertThat(first.queries()).isEqualTo(SymbolTradeMerge.MAX_QUERIES_PER_PAGE);
        assertThat(first.items()).hasSizeLessThan(100);
        assertThat(first.complete()).isFalse();
        List<String> all = readAll(p, 100, 0, 1);
        assertThat(all).hasSize(200).doesNotHaveDuplicates();
        assertThat(all.get(0)).isEqualTo("a-199");
        assertThat(all.get(199)).isEqualTo("a-000");
    }
}
