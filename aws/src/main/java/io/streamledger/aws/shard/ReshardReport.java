package io.streamledger.aws.shard;

import io.streamledger.model.shard.ShardMap;
import java.util.List;
import java.util.Map;

/**
 * The reconciliation of both maps of a reshard (AP09/AP13): items per shard of every bounded
 * version and what is wrong; {@link #clean} gates the cutover.
 *
 * @param kind receipts or checkpoints
 * @param perShard item count per shard, by map (current first)
 * @param distinctIds distinct event ids / source keys over both maps
 * @param misplaced items under a shard their hash does not assign
 * @param duplicated receipts of one event under both versions (AP09)
 * @param misrouted receipts whose recorded admission time routes to the other version (AP09)
 * @param missing expected event ids without a receipt (AP09, when a list was given)
 * @param behind source keys whose current-version row is absent or older than the previous one
 * @param openGaps checkpoint rows (newest per source key) with an open gap (AP13; informative)
 */
public record ReshardReport(
        ShardedItems.Kind kind,
        Map<ShardMap, int[]> perShard,
        int distinctIds,
        List<String> misplaced,
        List<String> duplicated,
        List<String> misrouted,
        List<String> missing,
        List<String> behind,
        List<String> openGaps) {

    /** No receipt missing, none duplicated or misplaced, no checkpoint behind. */
    public boolean clean() {
        return misplaced.isEmpty()
                && duplicated.isEmpty()
                && misrouted.isEmpty()
                && missing.isEmpty()
                && behind.isEmpty();
    }

    /** Items of {@code map}. */
    public int count(ShardMap map) {
        int n = 0;
        for (int c : perShard.getOrDefault(map, new int[0])) {
            n += c;
        }
        return n;
    }

    /** A few lines for an operator. */
    public String render() {
        StringBuilder b = new StringBuilder();
        perShard.forEach(
                (m, counts) -> {
                    b.append(
                            String.format(
                                    "%s v%d N=%d: %d items, per shard %s%n",
                                    m.name(),
                                    m.shardMapVersion(),
                                    m.shardCount(),
                                    count(m),
                                    java.util.Arrays.toString(counts)));
                });
        b.append(String.format("distinct ids: %d%n", distinctIds));
        line(b, "misplaced", misplaced);
        line(b, "duplicated", duplicated);
        line(b, "misrouted", misrouted);
        line(b, "missing", missing);
        line(b, "behind", behind);
        line(b, "open gaps", openGaps);
        b.append(clean() ? "RECONCILED" : "NOT RECONCILED").append('\n');
        return b.toString();
    }

    private static void line(StringBuilder b, String what, List<String> ids) {
        b.append(String.format("%s: %d", what, ids.size()));
        if (!ids.isEmpty()) {
            b.append(" e.g. ").append(ids.subList(0, Math.min(5, ids.size())));
        }
        b.append('\n');
    }
}
