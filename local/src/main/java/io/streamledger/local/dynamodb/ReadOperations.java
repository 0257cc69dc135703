package io.streamledger.local.dynamodb;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.streamledger.local.dynamodb.expr.Ast.Condition;
import io.streamledger.local.dynamodb.expr.Evaluator;
import io.streamledger.local.dynamodb.expr.ExpressionContext;
import io.streamledger.local.dynamodb.expr.Parser;
import io.streamledger.local.dynamodb.expr.Path;
import io.streamledger.local.spi.ApiException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Set;
import javax.annotation.Nullable;

/**
 * GetItem, Query, Scan, BatchGetItem and TransactGetItems (AP01–AP07, AP11 read paths): lock-free
 * reads of committed items, 1 MB pages, read capacity by evaluated bytes.
 */
final class ReadOperations {
    static final long PAGE_BYTES = 1024 * 1024;
    private static final Set<String> SELECT =
            Set.of("ALL_ATTRIBUTES", "ALL_PROJECTED_ATTRIBUTES", "SPECIFIC_ATTRIBUTES", "COUNT");

    private final DynamoDbEngine engine;

    ReadOperations(DynamoDbEngine engine) {
        this.engine = engine;
    }

    ObjectNode get(ObjectNode request) {
        LegacyParameters.rejectMixing(request);
        Table t = engine.table(request);
        KeyValue pk = t.keyOf(request.get("Key"));
        ExpressionContext ctx =
                RequestSupport.context(request, request.has("ProjectionExpression"));
        List<Path> projection = RequestSupport.projection(request, ctx);
        ctx.checkAllUsed();
        boolean strong = request.path("ConsistentRead").asBoolean(false);
        Capacity.Mode mode = RequestSupport.capacityMode(request);
        ObjectNode item = t.items.get(pk);
        Capacity cap = new Capacity();
        cap.tableRead(t.name, Capacity.readUnits(ItemOperations.size(item), strong));
        ObjectNode out = engine.mapper.createObjectNode();
        if (item != null) {
            out.set("Item", RequestSupport.project(item, projection));
        }
        ItemOperations.addCapacity(out, cap, t.name, mode);
        return out;
    }

    ObjectNode query(ObjectNode request) {
        LegacyParameters.rejectMixing(request);
        Table t = engine.table(request);
        String indexName = request.path("IndexName").asText(null);
        IndexDef index = indexName == null ? null : requireIndex(t, indexName);
        KeyDef key = index == null ? t.key : index.key();
        boolean legacyKey = request.hasNonNull("KeyConditions");
        if (!legacyKey && !request.hasNonNull("KeyConditionExpression")) {
            throw ApiException.validation(
                    "Either the KeyConditions or KeyConditionExpression parameter must be"
                            + " specified in the request.");
        }
        ExpressionContext ctx = RequestSupport.context(request, !legacyKey);
        KeyCondition kc =
                KeyCondition.of(
                        legacyKey
                                ? LegacyParameters.keyConditions(request, key)
                                : Parser.condition(
                                        "KeyConditionExpression",
                                        request.get("KeyConditionExpression").asText(),
                                        ctx),
                        key);
        Condition filter = RequestSupport.condition(request, "FilterExpression", ctx);
        if (filter == null) {
            filter = LegacyParameters.filter(request, "QueryFilter", key);
        }
        List<Path> projection = RequestSupport.projection(request, ctx);
        ctx.checkAllUsed();
        Page page = new Page(request, t, index, projection);
        NavigableMap<KeyValue, ObjectNode> source =
                index == null ? t.items : t.indexes.get(index.name());
        NavigableMap<KeyValue, ObjectNode> range =
                source.subMap(kc.lowerKey(), true, kc.upperKey(), true);
        boolean forward = request.path("ScanIndexForward").asBoolean(true);
        if (!forward) {
            range = range.descendingMap();
        }
        KeyValue start = page.exclusiveStart(request.get("ExclusiveStartKey"));
        if (start != null) {
            try {
                range = range.tailMap(start, false);
            } catch (IllegalArgumentException outside) {
                throw ApiException.validation(
                        "The provided starting key is outside query boundaries based on provided"
                                + " conditions");
            }
        }
        boolean matched = false;
        for (Map.Entry<KeyValue, ObjectNode> e : range.entrySet()) {
            int at = kc.rangePosition();
            if (!kc.matchesRange(e.getKey().size() > at ? e.getKey().part(at) : null)) {
                if (kc.beginsWith() && matched) {
                    break; // sorted: the prefix's keys are contiguous and we are past them
                }
                continue;
            }
            matched = true;
            if (!page.offer(e.getKey(), e.getValue(), filter)) {
                break;
            }
        }
        return page.finish();
    }

    ObjectNode scan(ObjectNode request) {
        LegacyParameters.rejectMixing(request);
        Table t = engine.table(request);
        String indexName = request.path("IndexName").asText(null);
        IndexDef index = indexName == null ? null : requireIndex(t, indexName);
        int segment = request.path("Segment").asInt(0);
        int total = request.path("TotalSegments").asInt(1);
        if (request.has("Segment") != request.has("TotalSegments")) {
            throw ApiException.validation(
                    "The TotalSegments parameter is required but was not present in the request"
                            + " when Segment parameter is present");
        }
        if (total < 1 || total > 1_000_000 || segment < 0 || segment >= total) {
            throw ApiException.validation(
                    "The Segment parameter is zero-based and must be less than parameter"
                            + " TotalSegments: Segment: "
                            + segment
                            + " is not less than TotalSegments: "
                            + total);
        }
        ExpressionContext ctx =
                RequestSupport.context(
                        request,
                        request.has("FilterExpression") || request.has("ProjectionExpression"));
        Condition filter = RequestSupport.condition(request, "FilterExpression", ctx);
        if (filter == null) {
            filter = LegacyParameters.filter(request, "ScanFilter", null);
        }
        List<Path> projection = RequestSupport.projection(request, ctx);
        ctx.checkAllUsed();
        Page page = new Page(request, t, index, projection);
        NavigableMap<KeyValue, ObjectNode> source =
                index == null ? t.items : t.indexes.get(index.name());
        KeyValue start = page.exclusiveStart(request.get("ExclusiveStartKey"));
        if (start != null) {
            source = source.tailMap(start, false);
        }
        for (Map.Entry<KeyValue, ObjectNode> e : source.entrySet()) {
            if (total > 1 && segmentOf(e.getValue(), t, total) != segment) {
                continue;
            }
            if (!page.offer(e.getKey(), e.getValue(), filter)) {
                break;
            }
        }
        return page.finish();
    }

    /** Segments split by the partition key's hash, as DynamoDB splits by partition. */
    private static int segmentOf(ObjectNode item, Table t, int total) {
        Object h = KeyValue.part(item.get(t.key.hash()));
        int hash = KeyValue.of(h).hashCode();
        return Math.floorMod(hash * 0x9E3779B1, total);
    }

    private static IndexDef requireIndex(Table t, String name) {
        IndexDef idx = t.index(name);
        if (idx == null) {
            throw ApiException.validation("The table does not have the specified index: " + name);
        }
        if (t.backfilling.contains(name)) {
            throw ApiException.validation("Cannot read from backfilling global secondary index");
        }
        return idx;
    }

    /** Accumulates one Query/Scan page: limit, 1 MB, filter after evaluation, capacity. */
    private final class Page {
        private final Table table;
        private final @Nullable IndexDef index;
        private final @Nullable List<Path> projection;
        private final String select;
        private final int limit;
        private final boolean strong;
        private final Capacity.Mode mode;
        private final ArrayNode items = engine.mapper.createArrayNode();
        private int count;
        private int scanned;
        private long bytes;
        private @Nullable ObjectNode lastEvaluated;

        Page(
                ObjectNode request,
                Table table,
                @Nullable IndexDef index,
                @Nullable List<Path> projection) {
            this.table = table;
            this.index = index;
            this.projection = projection;
            this.limit = request.path("Limit").asInt(Integer.MAX_VALUE);
            if (request.has("Limit") && limit < 1) {
                throw ApiException.validation(
                        "1 validation error detected: Value '"
                                + limit
                                + "' at 'limit' failed to satisfy constraint: Member must have"
                                + " value greater than or equal to 1");
            }
            this.strong = request.path("ConsistentRead").asBoolean(false);
            if (strong && index != null && index.global()) {
                throw ApiException.validation(
                        "Consistent reads are not supported on global secondary indexes");
            }
            String dflt =
                    projection != null
                            ? "SPECIFIC_ATTRIBUTES"
                            : index == null ? "ALL_ATTRIBUTES" : "ALL_PROJECTED_ATTRIBUTES";
            this.select = RequestSupport.enumParam(request, "Select", dflt, SELECT);
            String projectionParam =
                    request.has("AttributesToGet") ? "AttributesToGet" : "ProjectionExpression";
            if (projection != null && !select.equals("SPECIFIC_ATTRIBUTES")) {
                throw ApiException.validation(
                        "Cannot specify the "
                                + projectionParam
                                + " when choosing to get "
                                + select);
            }
            if (projection == null && select.equals("SPECIFIC_ATTRIBUTES")) {
                throw ApiException.validation(
                        "Must specify the AttributesToGet or ProjectionExpression when choosing to"
                                + " get SPECIFIC_ATTRIBUTES");
            }
            if (select.equals("ALL_PROJECTED_ATTRIBUTES") && index == null) {
                throw ApiException.validation(
                        "ALL_PROJECTED_ATTRIBUTES can be used only when Querying using an"
                                + " IndexName");
            }
            if (select.equals("ALL_ATTRIBUTES")
                    && index != null
                    && index.global()
                    && !index.projectionType().equals("ALL")) {
                throw ApiException.validation(
                        "One or more parameter values were invalid: Select type ALL_ATTRIBUTES is"
                                + " not supported for global secondary index "
                                + index.name()
                                + " because its projection type is not ALL");
            }
            this.mode = RequestSupport.capacityMode(request);
        }

        @Nullable
        KeyValue exclusiveStart(@Nullable JsonNode esk) {
            if (esk == null || esk.isNull()) {
                return null;
            }
            AttributeValues.validateItem(esk);
            KeyValue base;
            try {
                base = table.primaryKey(esk, true);
            } catch (ApiException e) {
                throw ApiException.validation(
                        "The provided starting key is invalid: " + e.getMessage());
            }
            if (index == null) {
                return base;
            }
            ObjectNode asItem = esk.deepCopy();
            KeyValue k = table.indexKey(index, asItem);
            if (k == null) {
                throw ApiException.validation(
                        "The provided starting key is invalid: the index key attributes are"
                                + " missing");
            }
            return k;
        }

        /** Evaluates one item; false when the page is full and iteration must stop. */
        boolean offer(KeyValue key, ObjectNode entry, @Nullable Condition filter) {
            scanned++;
            bytes += ItemSize.of(entry);
            ObjectNode item = entry;
            if (index != null
                    && !index.global()
                    && select.equals("ALL_ATTRIBUTES")
                    && !index.projectionType().equals("ALL")) {
                ObjectNode full = table.items.get(table.primaryKey(entry, false));
                item = full == null ? entry : full;
            }
            if (filter == null || Evaluator.test(filter, item)) {
                count++;
                if (!select.equals("COUNT")) {
                    items.add(RequestSupport.project(item, projection));
                }
            }
            if (scanned >= limit || bytes >= PAGE_BYTES) {
                lastEvaluated = lastKey(entry);
                return false;
            }
            return true;
        }

        private ObjectNode lastKey(ObjectNode entry) {
            ObjectNode k = table.keyAttributes(entry);
            if (index != null) {
                for (String a : index.key().attributes()) {
                    k.set(a, entry.get(a));
                }
            }
            return k;
        }

        ObjectNode finish() {
            ObjectNode out = engine.mapper.createObjectNode();
            if (!select.equals("COUNT")) {
                out.set("Items", items);
            }
            out.put("Count", count);
            out.put("ScannedCount", scanned);
            if (lastEvaluated != null) {
                out.set("LastEvaluatedKey", lastEvaluated);
            }
            Capacity cap = new Capacity();
            double units = Capacity.readUnits(bytes, strong);
            if (index == null) {
                cap.tableRead(table.name, units);
            } else {
                cap.indexRead(table.name, index.name(), index.global(), units);
            }
            ItemOperations.addCapacity(out, cap, table.name, mode);
            return out;
        }
    }

    ObjectNode batchGet(ObjectNode request) {
        JsonNode requestItems = request.get("RequestItems");
        if (requestItems == null || !requestItems.isObject() || requestItems.isEmpty()) {
            throw ApiException.validation(
                    "1 validation error detected: Value at 'requestItems' failed to satisfy"
                            + " constraint: Member must have length greater than or equal to 1");
        }
        int total = 0;
        for (JsonNode spec : requestItems) {
            total += spec.path("Keys").size();
        }
        if (total > 100) {
            throw ApiException.validation("Too many items requested for the BatchGetItem call");
        }
        Capacity.Mode mode = RequestSupport.capacityMode(request);
        Capacity cap = new Capacity();
        ObjectNode out = engine.mapper.createObjectNode();
        ObjectNode responses = out.putObject("Responses");
        ObjectNode unprocessed = engine.mapper.createObjectNode();
        Iterator<Map.Entry<String, JsonNode>> it = requestItems.fields();
        Map<String, Runnable> work = new LinkedHashMap<>();
        while (it.hasNext()) {
            Map.Entry<String, JsonNode> e = it.next();
            Table t = engine.table(e.getKey());
            JsonNode spec = e.getValue();
            if (!spec.has("Keys") || spec.get("Keys").isEmpty()) {
                throw ApiException.validation(
                        "1 validation error detected: Value at 'requestItems."
                                + t.name
                                + ".member.keys' failed to satisfy constraint: Member must have"
                                + " length greater than or equal to 1");
            }
            ExpressionContext ctx = RequestSupport.context(spec, spec.has("ProjectionExpression"));
            List<Path> projection = RequestSupport.projection(spec, ctx);
            ctx.checkAllUsed();
            boolean strong = spec.path("ConsistentRead").asBoolean(false);
            List<KeyValue> keys = new ArrayList<>();
            Set<KeyValue> seen = new HashSet<>();
            for (JsonNode k : spec.get("Keys")) {
                KeyValue pk = t.keyOf(k);
                if (!seen.add(pk)) {
                    throw ApiException.validation("Provided list of item keys contains duplicates");
                }
                keys.add(pk);
            }
            work.put(
                    t.name,
                    () -> {
                        ArrayNode found = responses.putArray(t.name);
                        ArrayNode left = null;
                        int i = 0;
                        for (KeyValue pk : keys) {
                            JsonNode keyJson = spec.get("Keys").get(i++);
                            if (engine.faults.throttleItem("BatchGetItem", t.name)) {
                                if (left == null) {
                                    ObjectNode u = spec.deepCopy();
                                    left = u.putArray("Keys");
                                    unprocessed.set(t.name, u);
                                }
                                left.add(keyJson);
                                continue;
                            }
                            ObjectNode item = t.items.get(pk);
                            cap.tableRead(
                                    t.name, Capacity.readUnits(ItemOperations.size(item), strong));
                            if (item != null) {
                                found.add(RequestSupport.project(item, projection));
                            }
                        }
                    });
        }
        work.values().forEach(Runnable::run);
        if (unprocessed.size() == requestItems.size() && allEmpty(responses, unprocessed)) {
            throw new ApiException(
                    "ProvisionedThroughputExceededException",
                    400,
                    "The level of configured provisioned throughput for the table was exceeded."
                            + " Consider increasing your provisioning level with the UpdateTable"
                            + " API.");
        }
        out.set("UnprocessedKeys", unprocessed);
        ArrayNode c = cap.toJsonList(mode);
        if (c != null) {
            out.set("ConsumedCapacity", c);
        }
        return out;
    }

    /** True when nothing at all was processed (every key went to UnprocessedKeys). */
    private static boolean allEmpty(ObjectNode responses, ObjectNode unprocessed) {
        for (JsonNode a : responses) {
            if (!a.isEmpty()) {
                return false;
            }
        }
        return !unprocessed.isEmpty();
    }

    ObjectNode transactGet(ObjectNode request) {
        JsonNode actions = request.get("TransactItems");
        if (actions == null || !actions.isArray() || actions.isEmpty() || actions.size() > 100) {
            throw ApiException.validation(
                    "1 validation error detected: Value at 'transactItems' failed to satisfy"
                            + " constraint: Member must have length less than or equal to 100 and"
                            + " greater than or equal to 1");
        }
        Capacity.Mode mode = RequestSupport.capacityMode(request);
        record Get(Table t, KeyValue pk, @Nullable List<Path> projection) {}
        List<Get> gets = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        for (JsonNode a : actions) {
            JsonNode g = a.get("Get");
            if (g == null) {
                throw ApiException.validation("TransactItems can only contain Get actions");
            }
            Table t = engine.table(g);
            KeyValue pk = t.keyOf(g.get("Key"));
            if (!seen.add(t.name + "\u0000" + pk)) {
                throw ApiException.validation(
                        "Transaction request cannot include multiple operations on one item");
            }
            ExpressionContext ctx = RequestSupport.context(g, g.has("ProjectionExpression"));
            List<Path> projection = RequestSupport.projection(g, ctx);
            ctx.checkAllUsed();
            gets.add(new Get(t, pk, projection));
        }
        List<ObjectNode> found = new ArrayList<>();
        // serializable against writes: read every item at one commit point
        engine.commitLock.lock();
        try {
            for (Get g : gets) {
                found.add(g.t().items.get(g.pk()));
            }
        } finally {
            engine.commitLock.unlock();
        }
        Capacity cap = new Capacity();
        ObjectNode out = engine.mapper.createObjectNode();
        ArrayNode responses = out.putArray("Responses");
        for (int i = 0; i < gets.size(); i++) {
            ObjectNode item = found.get(i);
            cap.tableRead(
                    gets.get(i).t().name, 2 * Capacity.readUnits(ItemOperations.size(item), true));
            ObjectNode r = responses.addObject();
            if (item != null) {
                r.set("Item", RequestSupport.project(item, gets.get(i).projection()));
            }
        }
        ArrayNode c = cap.toJsonList(mode);
        if (c != null) {
            out.set("ConsumedCapacity", c);
        }
        return out;
    }
}
