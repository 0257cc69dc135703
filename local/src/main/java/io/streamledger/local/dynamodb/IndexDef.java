package io.streamledger.local.dynamodb;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.streamledger.local.spi.ApiException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * A global or local secondary index: key schema and projection (ALL / KEYS_ONLY / INCLUDE); an item
 * lacking an index key attribute is absent from the index (sparse, IDX16 READY queue).
 */
public record IndexDef(
        String name,
        boolean global,
        KeyDef key,
        String projectionType,
        List<String> nonKeyAttributes,
        JsonNode provisionedThroughput) {

    static IndexDef parse(JsonNode spec, Map<String, String> types, boolean global) {
        String name = spec.path("IndexName").asText(null);
        if (name == null || name.length() < 3 || name.length() > 255) {
            throw ApiException.validation("Invalid index name: " + name);
        }
        KeyDef key = KeyDef.parse(spec.get("KeySchema"), types, name, global);
        JsonNode projection = spec.path("Projection");
        String type = projection.path("ProjectionType").asText("");
        if (!List.of("ALL", "KEYS_ONLY", "INCLUDE").contains(type)) {
            throw ApiException.validation(
                    "One or more parameter values were invalid: Unknown ProjectionType: " + type);
        }
        List<String> nonKey = new ArrayList<>();
        for (JsonNode n : projection.path("NonKeyAttributes")) {
            nonKey.add(n.asText());
        }
        if (type.equals("INCLUDE") && nonKey.isEmpty()) {
            throw ApiException.validation(
                    "One or more parameter values were invalid: ProjectionType is INCLUDE, but"
                            + " NonKeyAttributes is not specified");
        }
        if (!type.equals("INCLUDE") && !nonKey.isEmpty()) {
            throw ApiException.validation(
                    "One or more parameter values were invalid: ProjectionType is "
                            + type
                            + ", but NonKeyAttributes is specified");
        }
        return new IndexDef(
                name, global, key, type, List.copyOf(nonKey), spec.path("ProvisionedThroughput"));
    }

    /** The index entry of an item: index and table key attributes plus the projection. */
    ObjectNode project(ObjectNode item, KeyDef tableKey) {
        if (projectionType.equals("ALL")) {
            return item;
        }
        ObjectNode out = AttributeValues.JSON.objectNode();
        copy(item, out, tableKey.hash());
        copy(item, out, tableKey.range());
        for (String a : key.attributes()) {
            copy(item, out, a);
        }
        if (projectionType.equals("INCLUDE")) {
            for (String a : nonKeyAttributes) {
                copy(item, out, a);
            }
        }
        return out;
    }

    /** True if the attribute is part of this index's entries. */
    boolean projects(String attribute, KeyDef tableKey) {
        return projectionType.equals("ALL")
                || tableKey.isKeyAttribute(attribute)
                || key.isKeyAttribute(attribute)
                || nonKeyAttributes.contains(attribute);
    }

    private static void copy(ObjectNode from, ObjectNode to, String name) {
        if (name != null && from.has(name)) {
            to.set(name, from.get(name));
        }
    }

    ObjectNode describe(String tableArn, long items, long bytes) {
        ObjectNode o = AttributeValues.JSON.objectNode();
        o.put("IndexName", name);
        o.set("KeySchema", key.toJson());
        ObjectNode p = o.putObject("Projection");
        p.put("ProjectionType", projectionType);
        if (!nonKeyAttributes.isEmpty()) {
            nonKeyAttributes.forEach(p.putArray("NonKeyAttributes")::add);
        }
        if (global) {
            o.put("IndexStatus", "ACTIVE");
            ObjectNode pt = o.putObject("ProvisionedThroughput");
            pt.put("NumberOfDecreasesToday", 0);
            pt.put("ReadCapacityUnits", provisionedThroughput.path("ReadCapacityUnits").asLong(0));
            pt.put(
                    "WriteCapacityUnits",
                    provisionedThroughput.path("WriteCapacityUnits").asLong(0));
        }
        o.put("IndexSizeBytes", bytes);
        o.put("ItemCount", items);
        o.put("IndexArn", tableArn + "/index/" + name);
        return o;
    }

    static void checkUnique(List<IndexDef> indexes) {
        Iterator<IndexDef> it = indexes.iterator();
        java.util.Set<String> names = new java.util.HashSet<>();
        while (it.hasNext()) {
            String n = it.next().name;
            if (!names.add(n)) {
                throw ApiException.validation(
                        "One or more parameter values were invalid: Duplicate index name: " + n);
            }
        }
    }
}
