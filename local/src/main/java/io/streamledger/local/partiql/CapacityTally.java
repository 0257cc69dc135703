package io.streamledger.local.partiql;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.streamledger.local.dynamodb.Capacity;
import java.util.Iterator;
import java.util.Map;
import javax.annotation.Nullable;

/**
 * Sums the ConsumedCapacity (INDEXES form) of the item operations a PartiQL request ran, so the
 * request reports exactly what its equivalent item operations report, in the mode the client asked
 * for (CS01 capacity of the admission path).
 */
final class CapacityTally {
    private final Capacity capacity = new Capacity();

    /** Adds a ConsumedCapacity object or list an item operation returned in INDEXES mode. */
    void add(@Nullable JsonNode consumed) {
        if (consumed == null) {
            return;
        }
        if (consumed.isArray()) {
            consumed.forEach(this::add);
            return;
        }
        String table = consumed.path("TableName").asText();
        JsonNode base = consumed.path("Table");
        capacity.tableRead(table, base.path("ReadCapacityUnits").asDouble(0));
        capacity.tableWrite(table, base.path("WriteCapacityUnits").asDouble(0));
        indexes(table, consumed.path("GlobalSecondaryIndexes"), true);
        indexes(table, consumed.path("LocalSecondaryIndexes"), false);
    }

    private void indexes(String table, JsonNode byName, boolean global) {
        Iterator<Map.Entry<String, JsonNode>> it = byName.fields();
        while (it.hasNext()) {
            Map.Entry<String, JsonNode> e = it.next();
            double read = e.getValue().path("ReadCapacityUnits").asDouble(0);
            double write = e.getValue().path("WriteCapacityUnits").asDouble(0);
            if (read > 0) {
                capacity.indexRead(table, e.getKey(), global, read);
            }
            if (write > 0) {
                capacity.indexWrite(table, e.getKey(), global, write);
            }
        }
    }

    /** Write units charged apart from an operation's response (a failed conditional write). */
    void tableWrite(String table, double units) {
        capacity.tableWrite(table, units);
    }

    /** Units so far on one table, base and indexes. */
    double units(String table) {
        return capacity.total(table);
    }

    @Nullable
    ObjectNode toJson(String table, Capacity.Mode mode) {
        return capacity.toJson(table, mode);
    }

    @Nullable
    ArrayNode toJsonList(Capacity.Mode mode) {
        return capacity.toJsonList(mode);
    }
}
