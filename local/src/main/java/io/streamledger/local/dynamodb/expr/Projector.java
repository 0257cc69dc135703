package io.streamledger.local.dynamodb.expr;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.streamledger.local.dynamodb.AttributeValues;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import javax.annotation.Nullable;

/**
 * Applies a ProjectionExpression: copies only the named document paths, keeping nesting; list
 * elements keep their relative order, compacted (AP11 page reads).
 */
public final class Projector {
    private Projector() {}

    public static ObjectNode project(ObjectNode item, List<Path> paths) {
        ObjectNode out = AttributeValues.JSON.objectNode();
        Map<String, List<List<Object>>> byTop = new LinkedHashMap<>();
        for (Path p : paths) {
            byTop.computeIfAbsent(p.top(), k -> new ArrayList<>())
                    .add(p.elements().subList(1, p.elements().size()));
        }
        for (Map.Entry<String, List<List<Object>>> e : byTop.entrySet()) {
            JsonNode v = item.get(e.getKey());
            JsonNode projected = v == null ? null : projectValue(v, e.getValue());
            if (projected != null) {
                out.set(e.getKey(), projected);
            }
        }
        return out;
    }

    /** Projects a value by the remaining path tails; an empty tail selects the whole value. */
    private static @Nullable JsonNode projectValue(JsonNode value, List<List<Object>> tails) {
        for (List<Object> t : tails) {
            if (t.isEmpty()) {
                return value;
            }
        }
        if (tails.get(0).get(0) instanceof Integer) {
            JsonNode list = value.get("L");
            if (list == null) {
                return null;
            }
            TreeMap<Integer, List<List<Object>>> byIndex = new TreeMap<>();
            for (List<Object> t : tails) {
                if (t.get(0) instanceof Integer i) {
                    byIndex.computeIfAbsent(i, k -> new ArrayList<>()).add(t.subList(1, t.size()));
                }
            }
            ArrayNode out = AttributeValues.JSON.arrayNode();
            for (Map.Entry<Integer, List<List<Object>>> e : byIndex.entrySet()) {
                if (e.getKey() < list.size()) {
                    JsonNode p = projectValue(list.get(e.getKey()), e.getValue());
                    if (p != null) {
                        out.add(p);
                    }
                }
            }
            if (out.isEmpty()) {
                return null;
            }
            ObjectNode l = AttributeValues.JSON.objectNode();
            l.set("L", out);
            return l;
        }
        JsonNode map = value.get("M");
        if (map == null) {
            return null;
        }
        Map<String, List<List<Object>>> byName = new LinkedHashMap<>();
        for (List<Object> t : tails) {
            if (t.get(0) instanceof String s) {
                byName.computeIfAbsent(s, k -> new ArrayList<>()).add(t.subList(1, t.size()));
            }
        }
        ObjectNode out = AttributeValues.JSON.objectNode();
        for (Map.Entry<String, List<List<Object>>> e : byName.entrySet()) {
            JsonNode child = map.get(e.getKey());
            JsonNode p = child == null ? null : projectValue(child, e.getValue());
            if (p != null) {
                out.set(e.getKey(), p);
            }
        }
        if (out.isEmpty()) {
            return null;
        }
        ObjectNode m = AttributeValues.JSON.objectNode();
        m.set("M", out);
        return m;
    }
}
