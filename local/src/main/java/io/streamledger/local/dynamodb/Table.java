package io.streamledger.local.dynamodb;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.streamledger.local.spi.ApiException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.atomic.AtomicLong;
import javax.annotation.Nullable;

/**
 * One table: its definition and its items in key order with every secondary index maintained on
 * commit (IDX01–IDX19 physical paths). Mutated only under the engine's commit lock; read lock-free.
 */
public final class Table {
    static final long MAX_HASH_KEY_BYTES = 2048;
    static final long MAX_RANGE_KEY_BYTES = 1024;

    final String name;
    final String arn;
    final String tableId;
    final Instant createdAt;
    final KeyDef key;
    final Map<String, String> attributeTypes;
    final List<IndexDef> lsis;
    volatile List<IndexDef> gsis;
    volatile String billingMode;
    volatile JsonNode provisionedThroughput;
    volatile boolean streamEnabled;
    volatile @Nullable String streamViewType;
    volatile @Nullable String ttlAttribute;
    volatile boolean deletionProtection;

    /** When point-in-time recovery was enabled; null = disabled. */
    volatile @Nullable Instant pitrSince;

    /** When the table last became PAY_PER_REQUEST (DescribeTable's BillingModeSummary). */
    volatile @Nullable Instant payPerRequestSince;

    final ConcurrentSkipListMap<KeyValue, ObjectNode> items = new ConcurrentSkipListMap<>();
    final Map<String, ConcurrentSkipListMap<KeyValue, ObjectNode>> indexes =
            new ConcurrentHashMap<>();
    final AtomicLong sizeBytes = new AtomicLong();

    /** GSIs added by UpdateTable whose backfill is still running (CREATING, not readable). */
    final Set<String> backfilling = ConcurrentHashMap.newKeySet();

    Table(
            String name,
            String arn,
            String tableId,
            Instant createdAt,
            KeyDef key,
            Map<String, String> attributeTypes,
            List<IndexDef> gsis,
            List<IndexDef> lsis) {
        this.name = name;
        this.arn = arn;
        this.tableId = tableId;
        this.createdAt = createdAt;
        this.key = key;
        this.attributeTypes = new ConcurrentHashMap<>(attributeTypes);
        this.gsis = List.copyOf(gsis);
        this.lsis = List.copyOf(lsis);
        for (IndexDef i : gsis) {
            indexes.put(i.name(), new ConcurrentSkipListMap<>());
        }
        for (IndexDef i : lsis) {
            indexes.put(i.name(), new ConcurrentSkipListMap<>());
        }
    }

    public String name() {
        return name;
    }

    public KeyDef key() {
        return key;
    }

    @Nullable
    public IndexDef index(String indexName) {
        for (IndexDef i : gsis) {
            if (i.name().equals(indexName)) {
                return i;
            }
        }
        for (IndexDef i : lsis) {
            if (i.name().equals(indexName)) {
                return i;
            }
        }
        return null;
    }

    List<IndexDef> allIndexes() {
        List<IndexDef> all = new ArrayList<>(gsis);
        all.addAll(lsis);
        return all;
    }

    /** The primary key of a Key parameter, which must name exactly the key attributes. */
    KeyValue keyOf(JsonNode keyParam) {
        if (keyParam == null || !keyParam.isObject()) {
            throw ApiException.validation("The provided key element does not match the schema");
        }
        int expected = key.range() == null ? 1 : 2;
        if (keyParam.size() != expected) {
            throw ApiException.validation("The provided key element does not match the schema");
        }
        AttributeValues.validateItem(keyParam);
        return primaryKey(keyParam, true);
    }

    /** The primary key of a full item; validates the key attributes. */
    KeyValue primaryKey(JsonNode item, boolean isKeyParam) {
        Object h = keyPart(item, key.hash(), key.hashType(), MAX_HASH_KEY_BYTES, isKeyParam);
        if (key.range() == null) {
            return KeyValue.of(h);
        }
        Object r = keyPart(item, key.range(), key.rangeType(), MAX_RANGE_KEY_BYTES, isKeyParam);
        return KeyValue.of(h, r);
    }

    private Object keyPart(
            JsonNode item, String attr, String type, long maxBytes, boolean isKeyParam) {
        JsonNode v = item.get(attr);
        if (v == null) {
            throw ApiException.validation(
                    isKeyParam
                            ? "The provided key element does not match the schema"
                            : "One or more parameter values were invalid: Missing the key "
                                    + attr
                                    + " in the item");
        }
        if (!v.has(type)) {
            throw ApiException.validation(
                    isKeyParam
                            ? "The provided key element does not match the schema"
                            : "One or more parameter values were invalid: Type mismatch for key "
                                    + attr
                                    + " expected: "
                                    + type
                                    + " actual: "
                                    + AttributeValues.type(v));
        }
        long bytes =
                type.equals("S")
                        ? ItemSize.utf8Length(v.get("S").asText())
                        : type.equals("B") ? ItemSize.binaryLength(v.get("B").asText()) : 0;
        if ((type.equals("S") || type.equals("B")) && bytes == 0) {
            throw ApiException.validation(
                    "One or more parameter values are not valid. The AttributeValue for a key"
                            + " attribute cannot contain an empty "
                            + (type.equals("S") ? "string" : "binary")
                            + " value. Key: "
                            + attr);
        }
        if (bytes > maxBytes) {
            throw ApiException.validation(
                    "One or more parameter values were invalid: Size of "
                            + (maxBytes == MAX_HASH_KEY_BYTES ? "hashkey" : "rangekey")
                            // DynamoDB's own text has no space before the number
                            + " has exceeded the maximum size limit of"
                            + maxBytes
                            + " bytes");
        }
        return KeyValue.part(v);
    }

    /** The key attributes of an item, wire form. */
    ObjectNode keyAttributes(JsonNode item) {
        ObjectNode k = AttributeValues.JSON.objectNode();
        k.set(key.hash(), item.get(key.hash()));
        if (key.range() != null) {
            k.set(key.range(), item.get(key.range()));
        }
        return k;
    }

    /** Validates a full item about to be stored: size, key and index key attributes. */
    void validateItem(ObjectNode item) {
        primaryKey(item, false);
        long size = ItemSize.of(item);
        if (size > ItemSize.MAX_ITEM_BYTES) {
            throw ApiException.validation("Item size has exceeded the maximum allowed size");
        }
        for (IndexDef idx : allIndexes()) {
            KeyDef k = idx.key();
            for (int i = 0; i < k.hashes().size(); i++) {
                checkIndexKeyAttr(idx, item, k.hashes().get(i), k.hashTypes().get(i));
            }
            for (int i = 0; i < k.ranges().size(); i++) {
                checkIndexKeyAttr(idx, item, k.ranges().get(i), k.rangeTypes().get(i));
            }
        }
    }

    private void checkIndexKeyAttr(IndexDef idx, ObjectNode item, String attr, String type) {
        if (attr == null) {
            return;
        }
        JsonNode v = item.get(attr);
        if (v == null) {
            return;
        }
        if (!v.has(type)) {
            throw ApiException.validation(
                    "One or more parameter values were invalid: Type mismatch for Index Key "
                            + attr
                            + " Expected: "
                            + type
                            + " Actual: "
                            + AttributeValues.type(v)
                            + " IndexName: "
                            + idx.name());
        }
        if ((type.equals("S") && v.get("S").asText().isEmpty())
                || (type.equals("B") && v.get("B").asText().isEmpty())) {
            throw ApiException.validation(
                    "One or more parameter values are not valid. A value specified for a secondary"
                            + " index key is not supported. The AttributeValue for a key attribute"
                            + " cannot contain an empty string value. IndexName: "
                            + idx.name()
                            + ", IndexKey: "
                            + attr);
        }
    }

    /** The index map key of an item, or null when the item is not in the index (sparse). */
    @Nullable
    KeyValue indexKey(IndexDef idx, ObjectNode item) {
        KeyDef k = idx.key();
        int nh = k.hashes().size();
        int nr = k.ranges().size();
        // partition parts, sort parts (one null slot if none), then the table key
        Object[] parts = new Object[nh + Math.max(nr, 1) + 2];
        for (int i = 0; i < nh; i++) {
            JsonNode v = item.get(k.hashes().get(i));
            if (v == null || !v.has(k.hashTypes().get(i))) {
                return null;
            }
            parts[i] = KeyValue.part(v);
        }
        for (int i = 0; i < nr; i++) {
            JsonNode v = item.get(k.ranges().get(i));
            if (v == null || !v.has(k.rangeTypes().get(i))) {
                return null;
            }
            parts[nh + i] = KeyValue.part(v);
        }
        KeyValue pk = primaryKey(item, false);
        parts[parts.length - 2] = pk.part(0);
        parts[parts.length - 1] = pk.size() > 1 ? pk.part(1) : null;
        return KeyValue.of(parts);
    }

    /** Capacity of one index's maintenance for one item change. */
    record IndexWrite(String index, boolean global, double units) {}

    /**
     * Stores {@code newItem} (null = delete) in place of {@code oldItem}, maintaining every index;
     * returns the index writes for capacity accounting. Caller holds the commit lock.
     */
    List<IndexWrite> apply(
            KeyValue pk, @Nullable ObjectNode oldItem, @Nullable ObjectNode newItem) {
        if (newItem == null) {
            items.remove(pk);
        } else {
            items.put(pk, newItem);
        }
        sizeBytes.addAndGet(
                (newItem == null ? 0 : ItemSize.of(newItem))
                        - (oldItem == null ? 0 : ItemSize.of(oldItem)));
        List<IndexWrite> writes = new ArrayList<>(2);
        for (IndexDef idx : allIndexes()) {
            ConcurrentSkipListMap<KeyValue, ObjectNode> map = indexes.get(idx.name());
            KeyValue oldKey = oldItem == null ? null : indexKey(idx, oldItem);
            KeyValue newKey = newItem == null ? null : indexKey(idx, newItem);
            ObjectNode oldEntry = oldKey == null ? null : idx.project(oldItem, key);
            ObjectNode newEntry = newKey == null ? null : idx.project(newItem, key);
            double units = 0;
            if (oldKey != null && newKey != null && oldKey.equals(newKey)) {
                if (!sameEntry(oldEntry, newEntry)) {
                    units =
                            Capacity.writeUnits(
                                    Math.max(ItemSize.of(oldEntry), ItemSize.of(newEntry)));
                }
            } else {
                if (oldKey != null) {
                    map.remove(oldKey);
                    units += Capacity.writeUnits(ItemSize.of(oldEntry));
                }
                if (newKey != null) {
                    units += Capacity.writeUnits(ItemSize.of(newEntry));
                }
            }
            if (newKey != null) {
                map.put(newKey, newEntry);
            }
            if (units > 0) {
                writes.add(new IndexWrite(idx.name(), idx.global(), units));
            }
        }
        return writes;
    }

    private static boolean sameEntry(ObjectNode a, ObjectNode b) {
        if (a.size() != b.size()) {
            return false;
        }
        Iterator<Map.Entry<String, JsonNode>> it = a.fields();
        while (it.hasNext()) {
            Map.Entry<String, JsonNode> e = it.next();
            if (!AttributeValues.valueEquals(e.getValue(), b.get(e.getKey()))) {
                return false;
            }
        }
        return true;
    }

    /** DescribeTable's Table object (stream fields are added by the engine). */
    ObjectNode describe() {
        ObjectNode t = AttributeValues.JSON.objectNode();
        var defs = t.putArray("AttributeDefinitions");
        Map<String, String> sorted = new LinkedHashMap<>(attributeTypes);
        sorted.forEach(
                (n, ty) -> {
                    ObjectNode d = defs.addObject();
                    d.put("AttributeName", n);
                    d.put("AttributeType", ty);
                });
        t.put("TableName", name);
        t.set("KeySchema", key.toJson());
        t.put("TableStatus", "ACTIVE");
        t.put("CreationDateTime", createdAt.toEpochMilli() / 1000.0);
        ObjectNode pt = t.putObject("ProvisionedThroughput");
        pt.put("NumberOfDecreasesToday", 0);
        pt.put("ReadCapacityUnits", provisionedThroughput.path("ReadCapacityUnits").asLong(0));
        pt.put("WriteCapacityUnits", provisionedThroughput.path("WriteCapacityUnits").asLong(0));
        t.put("TableSizeBytes", sizeBytes.get());
        t.put("ItemCount", items.size());
        t.put("TableArn", arn);
        t.put("TableId", tableId);
        ObjectNode billing = t.putObject("BillingModeSummary");
        billing.put("BillingMode", billingMode);
        if (billingMode.equals("PAY_PER_REQUEST")) {
            Instant since = payPerRequestSince != null ? payPerRequestSince : createdAt;
            billing.put("LastUpdateToPayPerRequestDateTime", since.toEpochMilli() / 1000.0);
        }
        if (!gsis.isEmpty()) {
            var a = t.putArray("GlobalSecondaryIndexes");
            for (IndexDef i : gsis) {
                ObjectNode g = i.describe(arn, indexes.get(i.name()).size(), 0);
                if (backfilling.contains(i.name())) {
                    g.put("IndexStatus", "CREATING");
                    g.put("Backfilling", true);
                }
                a.add(g);
            }
        }
        if (!lsis.isEmpty()) {
            var a = t.putArray("LocalSecondaryIndexes");
            for (IndexDef i : lsis) {
                a.add(i.describe(arn, indexes.get(i.name()).size(), 0));
            }
        }
        t.put("DeletionProtectionEnabled", deletionProtection);
        return t;
    }
}
