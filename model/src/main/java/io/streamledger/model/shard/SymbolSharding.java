package io.streamledger.model.shard;

import com.fasterxml.jackson.databind.JsonNode;
import io.streamledger.model.json.StrictMapper;
import io.streamledger.model.keys.TradeBySymbolKey;
import java.io.IOException;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.TreeSet;
import javax.annotation.Nullable;

/**
 * AP06 write sharding of the Execution table's IDX06 symbol index (the seed's fallback {@code
 * SYM#X#SHARD#h(eventId)%N}): per symbol, or as the default of every symbol, an ordered list of
 * generations, each a {@link ShardMap} in force for executions at or after its cutover time. The
 * unsharded key is generation 1 (N=1, version 1, from the beginning of time), so an empty
 * configuration is today's index. This class is the one home of the placement formula: writers call
 * {@link #place}, readers {@link Plan#readShards()}.
 */
public final class SymbolSharding {
    /** Shard-map name of the AP06 symbol index. */
    public static final String MAP_NAME = "symbol-trades";

    /** The implicit first generation: the unsharded key, version 1. */
    public static final Generation UNSHARDED_GENERATION =
            new Generation(new ShardMap(MAP_NAME, 1, ShardHash.HASH_VERSION, 1), Instant.MIN);

    /** Every symbol unsharded: the default. */
    public static final SymbolSharding UNSHARDED = new SymbolSharding(Plan.UNSHARDED, Map.of());

    /** Bound on generations per plan (each one widens a reader's fan-out at most to its N). */
    public static final int MAX_GENERATIONS = 8;

    /** Bound on N: a page fans out to N + 1 queries. */
    public static final int MAX_SHARDS = 64;

    /**
     * One shard generation.
     *
     * @param map N and shardMapVersion
     * @param from cutover point: executions with {@code executedAt >= from} take this generation
     */
    public record Generation(ShardMap map, Instant from) {
        public Generation {
            Objects.requireNonNull(map, "map");
            Objects.requireNonNull(from, "from");
        }

        /** True when this generation writes under {@code #SHARD#}. */
        public boolean sharded() {
            return map.shardCount() > 1;
        }
    }

    /** Where one execution's IDX06 entry goes, with the versions to store on the item. */
    public record Placement(TradeBySymbolKey key, Generation generation) {
        public int shardMapVersion() {
            return generation.map().shardMapVersion();
        }

        public int hashVersion() {
            return generation.map().hashVersion();
        }
    }

    /** A symbol's generations, oldest first; versions and cutover times strictly increase. */
    public record Plan(List<Generation> generations) {
        static final Plan UNSHARDED = new Plan(List.of(UNSHARDED_GENERATION));

        public Plan {
            generations = List.copyOf(generations);
            if (generations.isEmpty() || !generations.get(0).equals(UNSHARDED_GENERATION)) {
                throw new IllegalArgumentException("a plan starts with the unsharded generation");
            }
            if (generations.size() > MAX_GENERATIONS) {
                throw new IllegalArgumentException(
                        "at most " + MAX_GENERATIONS + " generations, got " + generations.size());
            }
            for (int i = 1; i < generations.size(); i++) {
                Generation prev = generations.get(i - 1);
                Generation g = generations.get(i);
                if (!g.from().isAfter(prev.from())) {
                    throw new IllegalArgumentException("cutover times must increase: " + g.from());
                }
                if (g.map().shardMapVersion() <= prev.map().shardMapVersion()) {
                    throw new IllegalArgumentException(
                            "shard versions must increase: " + g.map().shardMapVersion());
                }
                if (g.map().shardCount() > MAX_SHARDS) {
                    throw new IllegalArgumentException(
                            "at most " + MAX_SHARDS + " shards, got " + g.map().shardCount());
                }
            }
        }

        /** The generation an execution at {@code executedAt} is written under. */
        public Generation writeGeneration(Instant executedAt) {
            Generation chosen = generations.get(0);
            for (Generation g : generations) {
                if (!executedAt.isBefore(g.from())) {
                    chosen = g;
                }
            }
            return chosen;
        }

        /** The newest shard version; a reader's cursor is bound to it. */
        public int version() {
            return generations.get(generations.size() - 1).map().shardMapVersion();
        }

        /**
         * The partitions a reader fans out over, ascending: always the unsharded key ({@link
         * TradeBySymbolKey#UNSHARDED}: history before the cutover, and a writer that had not yet
         * taken the new configuration), then shards 0..max N-1 of every sharded generation.
         */
        public List<Integer> readShards() {
            TreeSet<Integer> out = new TreeSet<>();
            out.add(TradeBySymbolKey.UNSHARDED);
            for (Generation g : generations) {
                if (g.sharded()) {
                    for (int k = 0; k < g.map().shardCount(); k++) {
                        out.add(k);
                    }
                }
            }
            return List.copyOf(out);
        }

        /**
         * The first sharded cutover: no {@code #SHARD#} partition holds an execution before it
         * (null when never sharded).
         */
        @Nullable
        public Instant shardedFrom() {
            return generations.stream()
                    .filter(Generation::sharded)
                    .map(Generation::from)
                    .findFirst()
                    .orElse(null);
        }
    }

    private final Plan defaults;
    private final Map<String, Plan> perSymbol;

    public SymbolSharding(Plan defaults, Map<String, Plan> perSymbol) {
        this.defaults = Objects.requireNonNull(defaults, "defaults");
        this.perSymbol = Map.copyOf(perSymbol);
    }

    /** The shard of one execution's event id under a map: {@code h(eventId) % N}. */
    public static int shardOf(String eventId, ShardMap map) {
        return map.assign(eventId).shard();
    }

    /** The symbol's own plan, else the default. */
    public Plan plan(String symbol) {
        return perSymbol.getOrDefault(symbol, defaults);
    }

    /**
     * The IDX06 key of one execution: the generation in force at {@code executedAt}; unsharded for
     * N=1, else shard {@code h(eventId) % N}.
     */
    public Placement place(
            String tenant, String symbol, Instant executedAt, String tradeId, String eventId) {
        Generation g = plan(symbol).writeGeneration(executedAt);
        int shard = g.sharded() ? shardOf(eventId, g.map()) : TradeBySymbolKey.UNSHARDED;
        return new Placement(new TradeBySymbolKey(tenant, symbol, shard, executedAt, tradeId), g);
    }

    /**
     * Parses {@code {"default":[gen…], "symbols":{"SYM":[gen…]}}}, a generation being {@code
     * {"shards":N,"version":v,"from":"ISO-8601 instant"}}; the unsharded generation 1 is implied
     * before the first. Both members are optional.
     */
    public static SymbolSharding parse(String json) {
        JsonNode root;
        try {
            root = StrictMapper.MAPPER.readTree(json);
        } catch (IOException e) {
            throw new IllegalArgumentException("symbol sharding: " + e.getMessage(), e);
        }
        if (root == null || !root.isObject()) {
            throw new IllegalArgumentException("symbol sharding: expected a JSON object");
        }
        Iterator<String> names = root.fieldNames();
        while (names.hasNext()) {
            String n = names.next();
            if (!n.equals("default") && !n.equals("symbols")) {
                throw new IllegalArgumentException("symbol sharding: unknown member '" + n + "'");
            }
        }
        Plan defaults = root.has("default") ? plan(root.get("default")) : Plan.UNSHARDED;
        Map<String, Plan> symbols = new TreeMap<>();
        JsonNode s = root.path("symbols");
        if (!s.isMissingNode()) {
            if (!s.isObject()) {
                throw new IllegalArgumentException("symbol sharding: 'symbols' is an object");
            }
            s.fields().forEachRemaining(e -> symbols.put(e.getKey(), plan(e.getValue())));
        }
        return new SymbolSharding(defaults, symbols);
    }

    private static Plan plan(JsonNode gens) {
        if (!gens.isArray()) {
            throw new IllegalArgumentException("symbol sharding: a plan is an array");
        }
        List<Generation> out = new ArrayList<>();
        out.add(UNSHARDED_GENERATION);
        for (JsonNode g : gens) {
            if (!g.isObject() || g.size() != 3 || !g.path("from").isTextual()) {
                throw new IllegalArgumentException(
                        "symbol sharding: a generation is {shards, version, from}: " + g);
            }
            Instant from;
            try {
                from = Instant.parse(g.get("from").textValue());
            } catch (DateTimeParseException e) {
                throw new IllegalArgumentException("symbol sharding: bad 'from' " + g.get("from"));
            }
            out.add(
                    new Generation(
                            new ShardMap(
                                    MAP_NAME,
                                    integer(g, "shards"),
                                    ShardHash.HASH_VERSION,
                                    integer(g, "version")),
                            from));
        }
        return new Plan(out);
    }

    private static int integer(JsonNode g, String name) {
        JsonNode v = g.path(name);
        if (!v.isIntegralNumber() || !v.canConvertToInt()) {
            throw new IllegalArgumentException("symbol sharding: '" + name + "' is an integer");
        }
        return v.intValue();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof SymbolSharding s
                && s.defaults.equals(defaults)
                && s.perSymbol.equals(perSymbol);
    }

    @Override
    public int hashCode() {
        return Objects.hash(defaults, perSymbol);
    }

    @Override
    public String toString() {
        return "SymbolSharding{default=" + defaults + ", symbols=" + perSymbol + "}";
    }
}
