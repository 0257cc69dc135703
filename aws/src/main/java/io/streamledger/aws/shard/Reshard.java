package io.streamledger.aws.shard;

import io.streamledger.aws.items.Av;
import io.streamledger.aws.metrics.ApTag;
import io.streamledger.model.projection.ProjectionSchema;
import io.streamledger.model.shard.ShardMap;
import io.streamledger.model.shard.ShardMapState;
import io.streamledger.model.table.Attr;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import javax.annotation.Nullable;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;

/**
 * The seed's reshard procedure for one versioned shard map (AP09 receipts, AP13 checkpoints): plan
 * → start (new version from a declared admission watermark) → drain (nothing of the old version in
 * flight; checkpoints copied forward) → verify (reconcile both maps) → cutover (only when
 * reconciled) → retire (after the dedupe horizon). Each step is a compare-and-set of the durable
 * {@link ShardMapState}; the CLI and the tests drive the same methods.
 */
public final class Reshard {

    /** Waits between drain polls (a seam for tests). */
    @FunctionalInterface
    public interface Sleeper {
        void sleep(Duration d) throws InterruptedException;
    }

    private final DynamoDbClient ddb;
    private final ShardMapStore store;
    private final ShardedItems items;
    private final Clock clock;
    private final Sleeper sleeper;

    public Reshard(ShardMapStore store, ShardedItems items, Clock clock, Sleeper sleeper) {
        this.ddb = store.ddb();
        this.store = store;
        this.items = items;
        this.clock = clock;
        this.sleeper = sleeper;
    }

    /** The posting inbox receipts of {@code consumer} (AP09). */
    public static Reshard inbox(DynamoDbClient ddb, String inboxTable, String consumer) {
        return new Reshard(
                ShardMapStore.inbox(ddb, inboxTable),
                new ShardedItems(ShardedItems.Kind.RECEIPTS, consumer),
                Clock.systemUTC(),
                d -> Thread.sleep(d.toMillis()));
    }

    /** The checkpoints of {@code projection} (AP13). */
    public static Reshard checkpoints(
            DynamoDbClient ddb, String projectionTable, String projection) {
        return new Reshard(
                ShardMapStore.checkpoints(ddb, projectionTable),
                new ShardedItems(ShardedItems.Kind.CHECKPOINTS, projection),
                Clock.systemUTC(),
                d -> Thread.sleep(d.toMillis()));
    }

    public ShardMapStore store() {
        return store;
    }

    /** The durable state now. */
    public ShardMapState status() {
        return store.load();
    }

    /**
     * What {@link #start} would write, validated, without writing; a null {@code watermark} is now
     * + 2 x lead, taken after the state is read.
     */
    public ShardMapState plan(int shardCount, @Nullable Instant watermark, Duration lead) {
        ShardMapState s = status();
        Instant now = clock.instant();
        return s.start(
                shardCount,
                watermark != null ? watermark : now.plus(lead.multipliedBy(2)),
                now,
                lead);
    }

    /** New events admitted from {@code watermark} on take a new version with N = shardCount. */
    public ShardMapState start(int shardCount, @Nullable Instant watermark, Duration lead) {
        return store.write(plan(shardCount, watermark, lead));
    }

    /**
     * Waits until the watermark is {@code settle} behind, then until the previous map stops
     * changing over {@code settle} (checkpoints are copied forward before each look), and records
     * the drain; the previous map's items are kept for {@code dedupeHorizon} from then.
     */
    public ShardMapState drain(Duration settle, Duration dedupeHorizon, Duration timeout)
            throws InterruptedException {
        ShardMapState s = status();
        if (s.phase() != ShardMapState.Phase.DUAL) {
            throw new IllegalStateException(s.map() + " is " + s.phase() + ", not DUAL");
        }
        Instant deadline = clock.instant().plus(timeout);
        Duration untilWatermark = Duration.between(clock.instant(), s.watermark().plus(settle));
        if (!untilWatermark.isNegative()) {
            sleeper.sleep(untilWatermark);
        }
        List<Long> before = previousCounts(s);
        while (true) {
            sleeper.sleep(settle);
            List<Long> after = previousCounts(s);
            if (after.equals(before)) {
                return store.write(s.drained(clock.instant(), dedupeHorizon));
            }
            if (clock.instant().isAfter(deadline)) {
                throw new IllegalStateException(
                        s.map()
                                + " v"
                                + s.previous().shardMapVersion()
                                + " still moving: "
                                + after);
            }
            before = after;
        }
    }

    private List<Long> previousCounts(ShardMapState s) {
        if (items.kind() == ShardedItems.Kind.CHECKPOINTS) {
            copyForward(s);
        }
        int[] counts = new int[s.previous().shardCount()];
        long revisions = 0;
        for (ShardedItems.Found f : items.list(ddb, store.table(), s.previous())) {
            counts[f.shard()]++;
            revisions += ShardedItems.revision(f.item());
        }
        List<Long> out = new ArrayList<>();
        for (int c : counts) {
            out.add((long) c);
        }
        // a checkpoint row that moves keeps the count but raises its revision
        out.add(revisions);
        return out;
    }

    /**
     * AP13: copies every previous-version checkpoint row whose current-version row is absent or
     * older, guarded on the revision so a newer row the job wrote meanwhile is never overwritten.
     *
     * @return rows copied
     */
    public int copyForward() {
        return copyForward(status());
    }

    private int copyForward(ShardMapState s) {
        if (items.kind() != ShardedItems.Kind.CHECKPOINTS || s.previous() == null) {
            return 0;
        }
        Map<String, Long> current = new HashMap<>();
        for (ShardedItems.Found f : items.list(ddb, store.table(), s.current())) {
            current.put(f.id(), ShardedItems.revision(f.item()));
        }
        int copied = 0;
        for (ShardedItems.Found f : items.list(ddb, store.table(), s.previous())) {
            long rev = ShardedItems.revision(f.item());
            if (current.getOrDefault(f.id(), -1L) >= rev) {
                continue;
            }
            Map<String, AttributeValue> row = new HashMap<>(f.item());
            row.putAll(items.key(s.current(), f.id()));
            row.put(Attr.SHARD_MAP_VERSION, Av.n(s.current().shardMapVersion()));
            try {
                ddb.putItem(
                        ApTag.on(PutItemRequest.builder(), "AP13")
                                .tableName(store.table())
                                .item(row)
                                .conditionExpression("attribute_not_exists(#pk) OR #rev < :rev")
                                .expressionAttributeNames(
                                        Map.of("#pk", Attr.PK, "#rev", ProjectionSchema.REVISION))
                                .expressionAttributeValues(Map.of(":rev", Av.n(rev)))
                                .build());
                copied++;
            } catch (ConditionalCheckFailedException newer) {
                // the job wrote a newer row under the current version meanwhile: keep it
            }
        }
        return copied;
    }

    /**
     * Reconciles both maps: counts per shard, misplaced items, receipts duplicated across versions
     * or against their recorded admission time, expected event ids without a receipt, checkpoint
     * rows not carried forward.
     *
     * @param expected event ids that must have a receipt (AP09), or null to skip that check
     */
    public ReshardReport reconcile(@Nullable Collection<String> expected) {
        ShardMapState s = status();
        Map<ShardMap, int[]> perShard = new LinkedHashMap<>();
        Map<ShardMap, Map<String, Map<String, AttributeValue>>> byMap = new LinkedHashMap<>();
        List<String> misplaced = new ArrayList<>();
        for (ShardMap m : s.readMaps()) {
            int[] counts = new int[m.shardCount()];
            Map<String, Map<String, AttributeValue>> ids = new HashMap<>();
            for (ShardedItems.Found f : items.list(ddb, store.table(), m)) {
                counts[f.shard()]++;
                ids.put(f.id(), f.item());
                if (!f.placed()) {
                    misplaced.add("v" + m.shardMapVersion() + ":" + f.id());
                }
            }
            perShard.put(m, counts);
            byMap.put(m, ids);
        }
        Set<String> all = new TreeSet<>();
        byMap.values().forEach(ids -> all.addAll(ids.keySet()));
        List<String> duplicated = new ArrayList<>();
        List<String> misrouted = new ArrayList<>();
        List<String> missing = new ArrayList<>();
        List<String> behind = new ArrayList<>();
        List<String> openGaps = new ArrayList<>();
        Map<String, Map<String, AttributeValue>> cur = byMap.get(s.current());
        Map<String, Map<String, AttributeValue>> prev =
                s.previous() == null ? Map.of() : byMap.get(s.previous());
        if (items.kind() == ShardedItems.Kind.RECEIPTS) {
            for (String id : all) {
                if (cur.containsKey(id) && prev.containsKey(id)) {
                    duplicated.add(id);
                }
            }
            byMap.forEach(
                    (m, ids) ->
                            ids.forEach(
                                    (id, item) -> {
                                        AttributeValue at = item.get(Attr.ADMITTED_AT);
                                        if (at != null
                                                && s.route(Instant.parse(at.s())).shardMapVersion()
                                                        != m.shardMapVersion()) {
                                            misrouted.add("v" + m.shardMapVersion() + ":" + id);
                                        }
                                    }));
            if (expected != null) {
                Set<String> want = new HashSet<>(expected);
                want.removeAll(all);
                missing.addAll(new TreeSet<>(want));
            }
        } else {
            for (Map.Entry<String, Map<String, AttributeValue>> e : prev.entrySet()) {
                Map<String, AttributeValue> now = cur.get(e.getKey());
                if (now == null
                        || ShardedItems.revision(now) < ShardedItems.revision(e.getValue())) {
                    behind.add(e.getKey());
                }
            }
            for (String id : all) {
                Map<String, AttributeValue> newest = cur.getOrDefault(id, prev.get(id));
                AttributeValue gap = newest.get(ProjectionSchema.GAP_OPEN);
                if (gap != null && Boolean.TRUE.equals(gap.bool())) {
                    openGaps.add(id);
                }
            }
        }
        return new ReshardReport(
                items.kind(),
                perShard,
                all.size(),
                misplaced,
                duplicated,
                misrouted,
                missing,
                behind,
                openGaps);
    }

    /** Readers switch to the current map; refused unless drained and reconciled. */
    public ShardMapState cutover(@Nullable Collection<String> expected) {
        ShardMapState s = status();
        if (s.phase() != ShardMapState.Phase.DRAINED) {
            throw new IllegalStateException(s.map() + " is " + s.phase() + ", not DRAINED");
        }
        if (items.kind() == ShardedItems.Kind.CHECKPOINTS) {
            copyForward(s);
        }
        ReshardReport r = reconcile(expected);
        if (!r.clean()) {
            throw new IllegalStateException("not reconciled, no cutover:\n" + r.render());
        }
        return store.write(s.cutOver());
    }

    /** Drops the previous map once its dedupe horizon passed. */
    public ShardMapState retire() {
        ShardMapState s = status();
        return store.write(s.retire(clock.instant()));
    }
}
