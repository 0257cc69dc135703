package io.streamledger.local.dynamodb;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.streamledger.local.dynamodb.DynamoDbEngine.Write;
import io.streamledger.local.spi.ApiException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * BatchWriteItem: up to 25 independent puts/deletes, each its own commit; items hit by injected
 * throttling come back in UnprocessedItems (AP14 batch metadata, retry only the remainder).
 */
final class BatchWriteOperation {
    private final DynamoDbEngine engine;

    BatchWriteOperation(DynamoDbEngine engine) {
        this.engine = engine;
    }

    private record Request(Table table, KeyValue pk, ObjectNode newItem, JsonNode original) {}

    ObjectNode handle(ObjectNode request) {
        JsonNode requestItems = request.get("RequestItems");
        if (requestItems == null || !requestItems.isObject() || requestItems.isEmpty()) {
            throw ApiException.validation(
                    "1 validation error detected: Value at 'requestItems' failed to satisfy"
                            + " constraint: Member must have length greater than or equal to 1");
        }
        int total = 0;
        for (JsonNode list : requestItems) {
            total += list.size();
        }
        if (total > 25) {
            throw ApiException.validation(
                    "1 validation error detected: Value at 'requestItems' failed to satisfy"
                            + " constraint: Map value must satisfy constraint: [Member must have"
                            + " length less than or equal to 25, Member must have length greater"
                            + " than or equal to 1]");
        }
        List<Request> requests = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        Iterator<Map.Entry<String, JsonNode>> it = requestItems.fields();
        while (it.hasNext()) {
            Map.Entry<String, JsonNode> e = it.next();
            Table t = engine.table(e.getKey());
            if (e.getValue().isEmpty()) {
                throw ApiException.validation(
                        "1 validation error detected: Value at 'requestItems' failed to satisfy"
                                + " constraint: Member must have length greater than or equal to"
                                + " 1");
            }
            for (JsonNode w : e.getValue()) {
                Request r;
                if (w.has("PutRequest") && w.size() == 1) {
                    ObjectNode item = RequestSupport.item(w.get("PutRequest"), "Item");
                    t.validateItem(item);
                    r = new Request(t, t.primaryKey(item, false), item, w);
                } else if (w.has("DeleteRequest") && w.size() == 1) {
                    r = new Request(t, t.keyOf(w.get("DeleteRequest").get("Key")), null, w);
                } else {
                    throw ApiException.validation(
                            "Supplied AttributeValue has more than one datatypes set, must contain"
                                    + " exactly one of the supported datatypes");
                }
                if (!seen.add(t.name + "\u0000" + r.pk())) {
                    throw ApiException.validation("Provided list of item keys contains duplicates");
                }
                requests.add(r);
            }
        }
        Capacity.Mode mode = RequestSupport.capacityMode(request);
        Capacity cap = new Capacity();
        ObjectNode unprocessed = engine.mapper.createObjectNode();
        int done = 0;
        for (Request r : requests) {
            if (engine.faults.throttleItem("BatchWriteItem", r.table().name)) {
                JsonNode existing = unprocessed.get(r.table().name);
                ArrayNode list =
                        existing == null
                                ? unprocessed.putArray(r.table().name)
                                : (ArrayNode) existing;
                list.add(r.original());
                continue;
            }
            ObjectNode old;
            engine.commitLock.lock();
            try {
                if (engine.tables.get(r.table().name) != r.table()) {
                    throw ApiException.resourceNotFound("Requested resource not found");
                }
                old = r.table().items.get(r.pk());
                if (old != null || r.newItem() != null) {
                    engine.commit(
                            List.of(new Write(r.table(), r.pk(), old, r.newItem())),
                            null,
                            false,
                            cap);
                }
            } finally {
                engine.commitLock.unlock();
            }
            done++;
            cap.tableWrite(
                    r.table().name,
                    Capacity.writeUnits(
                            Math.max(ItemOperations.size(old), ItemOperations.size(r.newItem()))));
        }
        if (done == 0) {
            throw new ApiException(
                    "ProvisionedThroughputExceededException",
                    400,
                    "The level of configured provisioned throughput for the table was exceeded."
                            + " Consider increasing your provisioning level with the UpdateTable"
                            + " API.");
        }
        ObjectNode out = engine.mapper.createObjectNode();
        out.set("UnprocessedItems", unprocessed);
        ArrayNode c = cap.toJsonList(mode);
        if (c != null) {
            out.set("ConsumedCapacity", c);
        }
        return out;
    }
}
