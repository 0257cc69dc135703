package io.streamledger.local.testing;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.streamledger.local.spi.TableCatalog;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

/** In-process TableCatalog over hash-key-only tables of {PK:S} items, for unit tests. */
public final class FakeTableCatalog implements TableCatalog {
    private final Map<String, Map<String, ObjectNode>> tables = new ConcurrentHashMap<>();

    public void createTable(String table) {
        tables.put(table, new TreeMap<>());
    }

    public synchronized void put(String table, ObjectNode item) {
        tables.get(table).put(item.get("PK").get("S").asText(), item);
    }

    @Override
    public Optional<ObjectNode> describe(String table) {
        if (!tables.containsKey(table)) {
            return Optional.empty();
        }
        ObjectNode d = JsonNodeFactory.instance.objectNode();
        d.put("TableName", table);
        d.put("TableArn", "arn:aws:dynamodb:us-east-1:000000000000:table/" + table);
        d.putArray("KeySchema").addObject().put("AttributeName", "PK").put("KeyType", "HASH");
        return Optional.of(d);
    }

    @Override
    public List<String> tableNames() {
        return new ArrayList<>(tables.keySet());
    }

    @Override
    public synchronized long snapshot(String table, Runnable atCommit, Consumer<ObjectNode> items) {
        Map<String, ObjectNode> t = tables.get(table);
        if (t == null) {
            throw new IllegalArgumentException("no table " + table);
        }
        atCommit.run();
        t.values().forEach(i -> items.accept(i.deepCopy()));
        return t.size();
    }
}
