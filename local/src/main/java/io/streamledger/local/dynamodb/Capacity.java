package io.streamledger.local.dynamodb;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.LinkedHashMap;
import java.util.Map;
import javax.annotation.Nullable;

/**
 * ConsumedCapacity accounting by DynamoDB's documented rules (AMP01–AMP18): write units = ceil(KiB)
 * of the larger image, strong read = ceil(4 KiB units), eventual = half, transactional base items
 * ×2, index maintenance as ordinary writes.
 */
public final class Capacity {
    /** ReturnConsumedCapacity. */
    public enum Mode {
        NONE,
        TOTAL,
        INDEXES;

        public static Mode of(@Nullable String s) {
            if (s == null || s.isEmpty()) {
                return NONE;
            }
            try {
                return Mode.valueOf(s);
            } catch (IllegalArgumentException e) {
                throw io.streamledger.local.spi.ApiException.validation(
                        "1 validation error detected: Value '"
                                + s
                                + "' at 'returnConsumedCapacity' failed to satisfy constraint:"
                                + " Member must satisfy enum value set: [INDEXES, TOTAL, NONE]");
            }
        }
    }

    private static final class Usage {
        double tableRead;
        double tableWrite;
        final Map<String, double[]> gsi = new LinkedHashMap<>();
        final Map<String, double[]> lsi = new LinkedHashMap<>();
    }

    private final Map<String, Usage> perTable = new LinkedHashMap<>();

    /** Units of writing an item (or index entry) of the given size. */
    public static double writeUnits(long bytes) {
        return Math.max(1, (bytes + 1023) / 1024);
    }

    /** Units of reading the given number of bytes, strongly or eventually consistent. */
    public static double readUnits(long bytes, boolean strong) {
        double units = Math.max(1, (bytes + 4095) / 4096);
        return strong ? units : units / 2;
    }

    private Usage usage(String table) {
        return perTable.computeIfAbsent(table, t -> new Usage());
    }

    public void tableRead(String table, double units) {
        usage(table).tableRead += units;
    }

    public void tableWrite(String table, double units) {
        usage(table).tableWrite += units;
    }

    public void indexRead(String table, String index, boolean global, double units) {
        (global ? usage(table).gsi : usage(table).lsi)
                        .computeIfAbsent(index, i -> new double[2])[0] +=
                units;
    }

    public void indexWrite(String table, String index, boolean global, double units) {
        (global ? usage(table).gsi : usage(table).lsi)
                        .computeIfAbsent(index, i -> new double[2])[1] +=
                units;
    }

    /** Total units of one table (base and indexes), for tests and benchmarks. */
    public double total(String table) {
        Usage u = perTable.get(table);
        if (u == null) {
            return 0;
        }
        double t = u.tableRead + u.tableWrite;
        for (double[] v : u.gsi.values()) {
            t += v[0] + v[1];
        }
        for (double[] v : u.lsi.values()) {
            t += v[0] + v[1];
        }
        return t;
    }

    /** The ConsumedCapacity object of one table, or null for mode NONE. */
    public @Nullable ObjectNode toJson(String table, Mode mode) {
        if (mode == Mode.NONE) {
            return null;
        }
        Usage u = perTable.getOrDefault(table, new Usage());
        ObjectNode o = AttributeValues.JSON.objectNode();
        o.put("TableName", table);
        double read = u.tableRead;
        double write = u.tableWrite;
        for (double[] v : u.gsi.values()) {
            read += v[0];
            write += v[1];
        }
        for (double[] v : u.lsi.values()) {
            read += v[0];
            write += v[1];
        }
        o.put("CapacityUnits", read + write);
        if (read > 0) {
            o.put("ReadCapacityUnits", read);
        }
        if (write > 0) {
            o.put("WriteCapacityUnits", write);
        }
        if (mode == Mode.INDEXES) {
            o.set("Table", units(u.tableRead, u.tableWrite));
            if (!u.gsi.isEmpty()) {
                ObjectNode g = o.putObject("GlobalSecondaryIndexes");
                u.gsi.forEach((n, v) -> g.set(n, units(v[0], v[1])));
            }
            if (!u.lsi.isEmpty()) {
                ObjectNode l = o.putObject("LocalSecondaryIndexes");
                u.lsi.forEach((n, v) -> l.set(n, units(v[0], v[1])));
            }
        }
        return o;
    }

    /** ConsumedCapacity list (batch and transaction operations), or null for NONE. */
    public @Nullable ArrayNode toJsonList(Mode mode) {
        if (mode == Mode.NONE) {
            return null;
        }
        ArrayNode a = AttributeValues.JSON.arrayNode();
        for (String t : perTable.keySet()) {
            a.add(toJson(t, mode));
        }
        return a;
    }

    private static ObjectNode units(double read, double write) {
        ObjectNode o = AttributeValues.JSON.objectNode();
        o.put("CapacityUnits", read + write);
        if (read > 0) {
            o.put("ReadCapacityUnits", read);
        }
        if (write > 0) {
            o.put("WriteCapacityUnits", write);
        }
        return o;
    }
}
