package io.streamledger.command.fills;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.streamledger.command.api.ApiException;
import io.streamledger.command.api.PageCursor;
import io.streamledger.command.api.StrictJson;
import io.streamledger.command.config.Schema;
import io.streamledger.model.keys.KeyFormatException;
import io.streamledger.model.keys.KeyOrder;
import io.streamledger.model.keys.KeyPaths;
import io.streamledger.model.keys.TradeBySymbolKey;
import io.streamledger.model.keys.TradeKey;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import javax.annotation.Nullable;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * The AP06 compound cursor of a write-sharded symbol: one LastEvaluatedKey per IDX06 partition
 * (unsharded key and each {@code #SHARD#k}) plus the last sort key returned, in one opaque
 * base64url token bound to tenant, symbol, time bound and shard version. Anything that does not
 * decode to exactly this query's partitions and key shapes is a 400 {@code INVALID_CURSOR}.
 */
final class SymbolTradeCursor {

    static final int MAX_LENGTH = 16_384;

    /** What a cursor is bound to; a cursor of any other query is rejected. */
    record Binding(String tenant, String symbol, @Nullable String from, int shardVersion) {
        String text() {
            return tenant + "\n" + symbol + "\n" + (from == null ? "" : from);
        }
    }

    /** A decoded cursor. */
    record State(List<SymbolTradeMerge.Position> positions, @Nullable String watermark) {}

    private SymbolTradeCursor() {}

    /** The first page's state: every partition from its newest entry. */
    static State fresh(List<Integer> shards) {
        List<SymbolTradeMerge.Position> p = new ArrayList<>(shards.size());
        shards.forEach(k -> p.add(new SymbolTradeMerge.Position(k, null, false)));
        return new State(p, null);
    }

    /** Null when every partition is read to its end. */
    @Nullable
    static String encode(Binding binding, State state) {
        if (state.positions().stream().allMatch(SymbolTradeMerge.Position::done)) {
            return null;
        }
        ObjectNode o = StrictJson.MAPPER.createObjectNode();
        o.put("q", binding.text());
        o.put("v", binding.shardVersion());
        if (state.watermark() == null) {
            o.putNull("w");
        } else {
            o.put("w", state.watermark());
        }
        ArrayNode ps = o.putArray("p");
        for (SymbolTradeMerge.Position p : state.positions()) {
            ObjectNode e = ps.addObject();
            e.put("k", p.shard());
            e.put("d", p.done());
            if (p.after() == null) {
                e.putNull("e");
            } else {
                ObjectNode lek = e.putObject("e");
                for (String a : SymbolTradeMerge.KEY_ATTRIBUTES) {
                    lek.put(a, p.after().get(a).s());
                }
            }
        }
        return PageCursor.token(o);
    }

    /**
     * Decodes and checks a cursor against the query: binding, shard version, exactly the plan's
     * partitions in order, every LEK of the IDX06 entry shape in its own partition, none before the
     * watermark.
     */
    static State decode(@Nullable String cursor, Binding binding, List<Integer> shards) {
        if (cursor == null || cursor.isEmpty()) {
            return fresh(shards);
        }
        JsonNode node = PageCursor.document(cursor, MAX_LENGTH);
        if (node == null || !node.isObject() || node.size() != 4) {
            throw invalid("is not a cursor issued by this service");
        }
        if (!binding.text().equals(node.path("q").asText(null))) {
            throw invalid("belongs to a different query");
        }
        if (!node.path("v").isInt() || node.path("v").intValue() != binding.shardVersion()) {
            throw invalid(
                    "was issued under another shard version of "
                            + binding.symbol()
                            + "; start again without a cursor");
        }
        JsonNode w = node.path("w");
        if (!w.isNull() && !w.isTextual()) {
            throw invalidShape();
        }
        String watermark = w.isNull() ? null : w.textValue();
        if (watermark != null) {
            requireSortKey(watermark);
        }
        JsonNode ps = node.path("p");
        if (!ps.isArray() || ps.size() != shards.size()) {
            throw invalid("does not have this symbol's partitions");
        }
        List<SymbolTradeMerge.Position> positions = new ArrayList<>(shards.size());
        for (int i = 0; i < shards.size(); i++) {
            JsonNode e = ps.get(i);
            int shard = shards.get(i);
            if (!e.isObject()
                    || e.size() != 3
                    || !e.path("k").isInt()
                    || e.path("k").intValue() != shard
                    || !e.path("d").isBoolean()
                    || !e.has("e")) {
                throw invalid("does not have this symbol's partitions");
            }
            boolean done = e.get("d").booleanValue();
            Map<String, AttributeValue> after =
                    e.get("e").isNull() ? null : lek(e.get("e"), binding, shard, watermark);
            if (done && after != null) {
                throw invalidShape();
            }
            positions.add(new SymbolTradeMerge.Position(shard, after, done));
        }
        return new State(positions, watermark);
    }

    private static Map<String, AttributeValue> lek(
            JsonNode e, Binding binding, int shard, @Nullable String watermark) {
        if (!e.isObject() || e.size() != SymbolTradeMerge.KEY_ATTRIBUTES.size()) {
            throw invalidShape();
        }
        Map<String, AttributeValue> key = new HashMap<>();
        for (String a : SymbolTradeMerge.KEY_ATTRIBUTES) {
            JsonNode v = e.path(a);
            if (!v.isTextual()) {
                throw invalidShape();
            }
            key.put(a, AttributeValue.fromS(v.textValue()));
        }
        String gsiPk = key.get(Schema.GSI2PK).s();
        String gsiSk = key.get(Schema.GSI2SK).s();
        if (!gsiPk.equals(TradeBySymbolKey.partition(binding.tenant(), binding.symbol(), shard))) {
            throw invalid("belongs to a different query");
        }
        requireSortKey(gsiSk);
        try {
            TradeKey base = TradeKey.parse(key.get(Schema.PK).s(), key.get(Schema.SK).s());
            if (!base.tenant().equals(binding.tenant())) {
                throw invalid("belongs to a different query");
            }
        } catch (KeyFormatException ex) {
            throw invalidShape();
        }
        // a partition never resumes past what the merge already returned
        if (watermark != null && KeyOrder.compare(gsiSk, watermark) < 0) {
            throw invalidShape();
        }
        return key;
    }

    private static void requireSortKey(String sk) {
        if (!KeyPaths.IDX06_SK.matches(sk)) {
            throw invalidShape();
        }
    }

    private static ApiException invalidShape() {
        return invalid("does not have this query's key shape");
    }

    private static ApiException invalid(String why) {
        return PageCursor.invalid(why);
    }
}
