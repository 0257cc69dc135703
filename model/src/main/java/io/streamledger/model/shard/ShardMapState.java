package io.streamledger.model.shard;

import io.streamledger.model.change.AttributeValue;
import io.streamledger.model.table.Attr;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import javax.annotation.Nullable;

/**
 * The durable state of one versioned shard map and its reshard (seed "Do not change N in place",
 * AP09/AP13): the current map, the previous one while a reshard runs, the admission watermark that
 * splits them and the dedupe horizon that bounds the old one. Its item shape lives here, in one
 * place; an absent item means {@link #initial} of the seed map.
 *
 * <p>Routing is a pure function of data recorded with the event: an event admitted before the
 * watermark keeps the previous map, from the watermark on it takes the current one, so a retry
 * after the change derives the very same key.
 *
 * @param map the map this state governs, e.g. {@code inbox}
 * @param current the map new events take (from {@code watermark} on)
 * @param previous the map events admitted before {@code watermark} keep, or null when stable
 * @param phase where the reshard is
 * @param watermark the declared admission watermark (null when stable)
 * @param drainedAt when the previous map was found drained (null before)
 * @param horizon the previous map's receipts/rows are kept until this instant (null before drain)
 * @param revision compare-and-set version of the item (0 = never written)
 */
public record ShardMapState(
        String map,
        ShardMap current,
        @Nullable ShardMap previous,
        Phase phase,
        @Nullable Instant watermark,
        @Nullable Instant drainedAt,
        @Nullable Instant horizon,
        long revision) {

    /** The reshard steps, in order; {@link #STABLE} again after {@link #retire}. */
    public enum Phase {
        /** One map; every event takes {@link #current}. */
        STABLE,
        /** Two maps: routing by watermark, writers also check the other version's receipt. */
        DUAL,
        /** No event before the watermark is in flight; the previous map is reconciled. */
        DRAINED,
        /** Readers use the current map; the previous one is kept until the horizon. */
        CUT_OVER
    }

    /** Partition key of the state item, in the table whose keys the map shards. */
    public static final String PK_PREFIX = "SHARDMAP#";

    /** Sort key of the state item. */
    public static final String SK = "STATE";

    // item attributes
    public static final String A_MAP = "map";
    public static final String A_SHARDS = "shardCount";
    public static final String A_PREVIOUS_SHARDS = "previousShardCount";
    public static final String A_PREVIOUS_VERSION = "previousShardMapVersion";
    public static final String A_PHASE = "phase";
    public static final String A_WATERMARK = "admissionWatermark";
    public static final String A_DRAINED = "drainedAt";
    public static final String A_HORIZON = "dedupeHorizon";

    public ShardMapState {
        Objects.requireNonNull(map, "map");
        Objects.requireNonNull(current, "current");
        Objects.requireNonNull(phase, "phase");
        if (!current.name().equals(map)) {
            throw new IllegalArgumentException("current map is " + current.name() + ", not " + map);
        }
        boolean resharding = phase != Phase.STABLE;
        if (resharding != (previous != null) || resharding != (watermark != null)) {
            throw new IllegalArgumentException(
                    "previous map and watermark are set exactly while resharding: " + phase);
        }
        if (previous != null && previous.shardMapVersion() >= current.shardMapVersion()) {
            throw new IllegalArgumentException("previous version must be below current");
        }
        if ((phase == Phase.DRAINED || phase == Phase.CUT_OVER)
                && (drainedAt == null || horizon == null)) {
            throw new IllegalArgumentException(phase + " needs drainedAt and horizon");
        }
    }

    /** The stable state of a map nobody resharded (no item yet). */
    public static ShardMapState initial(ShardMap map) {
        return new ShardMapState(map.name(), map, null, Phase.STABLE, null, null, null, 0);
    }

    /** The item's partition key for {@code map}. */
    public static String pk(String map) {
        return PK_PREFIX + map;
    }

    /**
     * The map of an event admitted at {@code admittedAt}: the previous one before the watermark,
     * else the current one. Retries carry the same admission time, so they keep their version.
     */
    public ShardMap route(Instant admittedAt) {
        if (previous != null && admittedAt.isBefore(watermark)) {
            return previous;
        }
        return current;
    }

    /** The route of an epoch-millisecond admission time (0 = unknown: admitted before any map). */
    public ShardMap route(long admittedAtMillis) {
        return route(Instant.ofEpochMilli(admittedAtMillis));
    }

    /**
     * The other version a writer also checks for an existing receipt (the seed's "check the bounded
     * old/new versions"), or null: only while both maps may hold new receipts.
     */
    @Nullable
    public ShardMap alsoCheck(ShardMap routed) {
        if (phase != Phase.DUAL) {
            return null;
        }
        return routed.equals(current) ? previous : current;
    }

    /** The maps a reader fans out over: current first, previous until it is retired. */
    public List<ShardMap> readMaps() {
        return previous == null ? List.of(current) : List.of(current, previous);
    }

    /** The map with {@code version}, or an exception naming the bounded versions. */
    public ShardMap version(int version) {
        for (ShardMap m : readMaps()) {
            if (m.shardMapVersion() == version) {
                return m;
            }
        }
        throw new IllegalArgumentException(
                map + " has no shard-map version " + version + " (" + readMaps() + ")");
    }

    /**
     * Starts a reshard to {@code shardCount} shards: events admitted from {@code watermark} on take
     * the new version; the watermark must leave every cached reader {@code lead} to see it.
     */
    public ShardMapState start(int shardCount, Instant watermark, Instant now, Duration lead) {
        requirePhase(Phase.STABLE);
        if (shardCount == current.shardCount()) {
            throw new IllegalStateException(map + " already has " + shardCount + " shards");
        }
        if (watermark.isBefore(now.plus(lead))) {
            throw new IllegalStateException(
                    "watermark "
                            + watermark
                            + " is less than the lead "
                            + lead
                            + " after now ("
                            + now
                            + "): a cached reader could still route by the old map");
        }
        return new ShardMapState(
                map,
                current.withShardCount(shardCount),
                current,
                Phase.DUAL,
                watermark,
                null,
                null,
                revision);
    }

    /** The previous map is drained at {@code now}; its items stay until now + horizon. */
    public ShardMapState drained(Instant now, Duration dedupeHorizon) {
        requirePhase(Phase.DUAL);
        if (now.isBefore(watermark)) {
            throw new IllegalStateException("not drained before the watermark " + watermark);
        }
        return new ShardMapState(
                map,
                current,
                previous,
                Phase.DRAINED,
                watermark,
                now,
                now.plus(dedupeHorizon),
                revision);
    }

    /** Readers switch to the current map (after a clean reconciliation). */
    public ShardMapState cutOver() {
        requirePhase(Phase.DRAINED);
        return new ShardMapState(
                map, current, previous, Phase.CUT_OVER, watermark, drainedAt, horizon, revision);
    }

    /** Drops the previous map once its receipts passed the dedupe horizon. */
    public ShardMapState retire(Instant now) {
        requirePhase(Phase.CUT_OVER);
        if (now.isBefore(horizon)) {
            throw new IllegalStateException(
                    "the previous map's receipts dedupe until " + horizon + "; not retired");
        }
        return new ShardMapState(map, current, null, Phase.STABLE, null, null, null, revision);
    }

    /** This state as written at {@code newRevision}. */
    public ShardMapState withRevision(long newRevision) {
        return new ShardMapState(
                map, current, previous, phase, watermark, drainedAt, horizon, newRevision);
    }

    private void requirePhase(Phase expected) {
        if (phase != expected) {
            throw new IllegalStateException(map + " is " + phase + ", not " + expected);
        }
    }

    /** The item's non-key attributes (the caller adds PK/SK and guards on {@code version}). */
    public Map<String, AttributeValue> toAttributes() {
        Map<String, AttributeValue> a = new LinkedHashMap<>();
        a.put(A_MAP, AttributeValue.s(map));
        a.put(A_SHARDS, AttributeValue.n(current.shardCount()));
        a.put(Attr.SHARD_MAP_VERSION, AttributeValue.n(current.shardMapVersion()));
        a.put(Attr.HASH_VERSION, AttributeValue.n(current.hashVersion()));
        a.put(A_PHASE, AttributeValue.s(phase.name()));
        if (previous != null) {
            a.put(A_PREVIOUS_SHARDS, AttributeValue.n(previous.shardCount()));
            a.put(A_PREVIOUS_VERSION, AttributeValue.n(previous.shardMapVersion()));
            a.put(A_WATERMARK, AttributeValue.s(watermark.toString()));
        }
        if (drainedAt != null) {
            a.put(A_DRAINED, AttributeValue.s(drainedAt.toString()));
            a.put(A_HORIZON, AttributeValue.s(horizon.toString()));
        }
        a.put(Attr.VERSION, AttributeValue.n(revision));
        return a;
    }

    /** The inverse of {@link #toAttributes}. */
    public static ShardMapState fromAttributes(Map<String, AttributeValue> a) {
        String name = text(a, A_MAP);
        int hashVersion = (int) number(a, Attr.HASH_VERSION);
        ShardMap current =
                new ShardMap(
                        name,
                        (int) number(a, A_SHARDS),
                        hashVersion,
                        (int) number(a, Attr.SHARD_MAP_VERSION));
        ShardMap previous =
                a.containsKey(A_PREVIOUS_SHARDS)
                        ? new ShardMap(
                                name,
                                (int) number(a, A_PREVIOUS_SHARDS),
                                hashVersion,
                                (int) number(a, A_PREVIOUS_VERSION))
                        : null;
        return new ShardMapState(
                name,
                current,
                previous,
                Phase.valueOf(text(a, A_PHASE)),
                a.containsKey(A_WATERMARK) ? Instant.parse(text(a, A_WATERMARK)) : null,
                a.containsKey(A_DRAINED) ? Instant.parse(text(a, A_DRAINED)) : null,
                a.containsKey(A_HORIZON) ? Instant.parse(text(a, A_HORIZON)) : null,
                number(a, Attr.VERSION));
    }

    private static String text(Map<String, AttributeValue> a, String name) {
        if (a.get(name) instanceof AttributeValue.S s) {
            return s.value();
        }
        throw new IllegalArgumentException("shard-map item: '" + name + "' missing: " + a);
    }

    private static long number(Map<String, AttributeValue> a, String name) {
        if (a.get(name) instanceof AttributeValue.N n) {
            return n.bigDecimal().longValueExact();
        }
        throw new IllegalArgumentException("shard-map item: '" + name + "' missing: " + a);
    }
}
