package io.streamledger.local.partiql;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.streamledger.local.dynamodb.AttributeValues;
import io.streamledger.local.dynamodb.DynamoDbEngine;
import io.streamledger.local.dynamodb.IndexDef;
import io.streamledger.local.dynamodb.expr.Evaluator;
import io.streamledger.local.dynamodb.expr.Path;
import io.streamledger.local.partiql.Syntax.Expr;
import io.streamledger.local.partiql.Syntax.PathExpr;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.annotation.Nullable;

/**
 * Runs a {@link ReadPlan} through the engine's GetItem, Query and Scan (AP01–AP07, AP11 pages):
 * {@code Limit} counts the items read across the plan's reads, a page ends at DynamoDB's 1 MB of
 * items read, and the {@link NextToken} says which read to continue where.
 */
final class SelectExecution {
    /** Read units of one page: DynamoDB stops a page after 1 MB of items read. */
    private static final long PAGE_BYTES = 1024 * 1024;

    private final DynamoDbEngine engine;

    SelectExecution(DynamoDbEngine engine) {
        this.engine = engine;
    }

    /** One page of results: items, the token of the next page and the capacity used. */
    record Page(ArrayNode items, @Nullable NextToken next, @Nullable ObjectNode lastEvaluatedKey) {}

    /** One execution of a plan: its bound parameters, read options and capacity sink. */
    record Read(
            ReadPlan plan,
            Binder binder,
            boolean consistent,
            int limit,
            @Nullable NextToken from,
            CapacityTally capacity) {}

    Page run(Read read) {
        ReadPlan plan = read.plan();
        if (read.consistent() && plan.index() != null) {
            IndexDef index = plan.table().index(plan.index());
            if (index != null && index.global()) {
                throw Messages.validation(Messages.CONSISTENT_READ_ON_GSI);
            }
        }
        return switch (plan.mode()) {
            case GET -> gets(read);
            case QUERY -> queries(read);
            case SCAN -> scan(read);
        };
    }

    private Page gets(Read read) {
        ReadPlan plan = read.plan();
        NextToken from = read.from();
        CapacityTally capacity = read.capacity();
        List<ObjectNode> keys = lookups(plan, read.binder());
        ArrayNode items = AttributeValues.JSON.arrayNode();
        int evaluated = 0;
        for (int i = from == null ? 0 : from.lookup(); i < keys.size(); i++) {
            if (evaluated == read.limit()) {
                return new Page(items, new NextToken(i, null), null);
            }
            ObjectNode r = AttributeValues.JSON.objectNode();
            r.put("TableName", plan.table().name());
            r.set("Key", keys.get(i));
            r.put("ConsistentRead", read.consistent());
            r.put("ReturnConsumedCapacity", "INDEXES");
            ObjectNode out = engine.handle("GetItem", r);
            capacity.add(out.get("ConsumedCapacity"));
            evaluated++;
            JsonNode item = out.get("Item");
            if (item != null) {
                items.add(project((ObjectNode) item, plan.projection()));
            }
        }
        return new Page(items, null, null);
    }

    private Page queries(Read read) {
        ReadPlan plan = read.plan();
        NextToken from = read.from();
        CapacityTally capacity = read.capacity();
        List<ObjectNode> keys = lookups(plan, read.binder());
        ObjectNode values = boundValues(plan, read.binder());
        ArrayNode items = AttributeValues.JSON.arrayNode();
        int remaining = read.limit();
        int first = from == null ? 0 : from.lookup();
        for (int i = first; i < keys.size(); i++) {
            if (remaining == 0
                    || capacity.units(plan.table().name()) * bytesPerUnit(read.consistent())
                            >= PAGE_BYTES) {
                return new Page(items, new NextToken(i, null), null);
            }
            ObjectNode r = base(plan, read.consistent(), remaining);
            r.put("KeyConditionExpression", plan.keyCondition());
            ObjectNode eav = values.deepCopy();
            int k = 0;
            for (String attr : plan.lookupAttributes()) {
                eav.set(":k" + k++, keys.get(i).get(attr));
            }
            r.set("ExpressionAttributeValues", eav);
            r.put("ScanIndexForward", plan.forward());
            if (i == first && from != null && from.startKey() != null) {
                r.set("ExclusiveStartKey", from.startKey());
            }
            ObjectNode out = engine.handle("Query", r);
            capacity.add(out.get("ConsumedCapacity"));
            out.path("Items").forEach(it -> items.add(project((ObjectNode) it, plan.projection())));
            remaining -= Math.min(remaining, out.path("ScannedCount").asInt());
            JsonNode last = out.get("LastEvaluatedKey");
            if (last != null) {
                return new Page(items, new NextToken(i, (ObjectNode) last), (ObjectNode) last);
            }
        }
        return new Page(items, null, null);
    }

    private Page scan(Read read) {
        ReadPlan plan = read.plan();
        NextToken from = read.from();
        CapacityTally capacity = read.capacity();
        ObjectNode r = base(plan, read.consistent(), read.limit());
        ObjectNode values = boundValues(plan, read.binder());
        if (!values.isEmpty()) {
            r.set("ExpressionAttributeValues", values);
        }
        if (from != null && from.startKey() != null) {
            r.set("ExclusiveStartKey", from.startKey());
        }
        ObjectNode out = engine.handle("Scan", r);
        capacity.add(out.get("ConsumedCapacity"));
        ArrayNode items = AttributeValues.JSON.arrayNode();
        out.path("Items").forEach(it -> items.add(project((ObjectNode) it, plan.projection())));
        JsonNode last = out.get("LastEvaluatedKey");
        return last == null
                ? new Page(items, null, null)
                : new Page(items, new NextToken(0, (ObjectNode) last), (ObjectNode) last);
    }

    private static double bytesPerUnit(boolean consistent) {
        return consistent ? 4096 : 8192;
    }

    private static ObjectNode base(ReadPlan plan, boolean consistent, int limit) {
        ObjectNode r = AttributeValues.JSON.objectNode();
        r.put("TableName", plan.table().name());
        if (plan.index() != null) {
            r.put("IndexName", plan.index());
        }
        if (plan.filter() != null) {
            r.put("FilterExpression", plan.filter());
        }
        if (plan.names() != null) {
            r.set("ExpressionAttributeNames", plan.names());
        }
        r.put("ConsistentRead", consistent);
        if (limit != Integer.MAX_VALUE) {
            r.put("Limit", limit);
        }
        r.put("ReturnConsumedCapacity", "INDEXES");
        return r;
    }

    private static ObjectNode boundValues(ReadPlan plan, Binder binder) {
        ObjectNode eav = AttributeValues.JSON.objectNode();
        for (int i = 0; i < plan.values().size(); i++) {
            eav.set(":v" + i, binder.value(plan.values().get(i)));
        }
        return eav;
    }

    /**
     * The keys (GET) or partition key values (QUERY) of the plan's reads, bound, checked against
     * the key schema, without repeats, in the order ORDER BY asks for.
     */
    static List<ObjectNode> lookups(ReadPlan plan, Binder binder) {
        Map<String, ObjectNode> unique = new LinkedHashMap<>();
        for (List<Expr> lookup : plan.lookups()) {
            ObjectNode key = AttributeValues.JSON.objectNode();
            for (int i = 0; i < lookup.size(); i++) {
                String attr = plan.lookupAttributes().get(i);
                ObjectNode v = binder.value(lookup.get(i));
                KeyMatch.checkType(attr, v, plan.key());
                key.set(attr, v);
            }
            unique.putIfAbsent(key.toString(), key);
        }
        List<ObjectNode> keys = new ArrayList<>(unique.values());
        if (keys.size() > ReadPlan.MAX_LOOKUPS) {
            throw Messages.validation(Messages.TOO_MANY_READS);
        }
        if (plan.lookupsDescending() || keys.size() > 1) {
            String attr = plan.lookupAttributes().get(0);
            keys.sort(
                    (a, b) -> {
                        Integer c = AttributeValues.compare(a.get(attr), b.get(attr));
                        int order = c == null ? 0 : c;
                        return plan.lookupsDescending() ? -order : order;
                    });
        }
        return keys;
    }

    /** A result item: the whole item for {@code *}, else each path under its result name. */
    static ObjectNode project(ObjectNode item, @Nullable List<PathExpr> projection) {
        if (projection == null) {
            return item;
        }
        ObjectNode out = AttributeValues.JSON.objectNode();
        for (PathExpr p : projection) {
            JsonNode v = Evaluator.get(item, new Path(p.steps()));
            if (v != null) {
                out.set(p.resultName(), v);
            }
        }
        return out;
    }
}
