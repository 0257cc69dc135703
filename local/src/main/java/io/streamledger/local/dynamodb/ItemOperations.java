package io.streamledger.local.dynamodb;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.streamledger.local.dynamodb.DynamoDbEngine.Write;
import io.streamledger.local.dynamodb.expr.Ast.Condition;
import io.streamledger.local.dynamodb.expr.Ast.UpdateAction;
import io.streamledger.local.dynamodb.expr.Evaluator;
import io.streamledger.local.dynamodb.expr.ExpressionContext;
import io.streamledger.local.dynamodb.expr.Parser;
import io.streamledger.local.dynamodb.expr.Path;
import io.streamledger.local.dynamodb.expr.Projector;
import io.streamledger.local.dynamodb.expr.Updater;
import io.streamledger.local.spi.ApiException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import javax.annotation.Nullable;

/**
 * PutItem, UpdateItem and DeleteItem: each a linearizable single-item commit under the engine's
 * commit lock, with condition, update and ReturnValues semantics (AP13 checkpoints, AP16 outbox
 * state moves).
 */
final class ItemOperations {
    private final DynamoDbEngine engine;

    ItemOperations(DynamoDbEngine engine) {
        this.engine = engine;
    }

    ObjectNode put(ObjectNode request) {
        LegacyParameters.rejectMixing(request);
        Table t = engine.table(request);
        ObjectNode item = RequestSupport.item(request, "Item");
        t.validateItem(item);
        KeyValue pk = t.primaryKey(item, false);
        String rv = RequestSupport.returnValues(request, Set.of("NONE", "ALL_OLD"));
        boolean returnOld = RequestSupport.returnOldOnFailure(request);
        ExpressionContext ctx = RequestSupport.context(request, request.has("ConditionExpression"));
        Condition cond = RequestSupport.writeCondition(request, ctx);
        ctx.checkAllUsed();
        Capacity.Mode mode = RequestSupport.capacityMode(request);
        Capacity cap = new Capacity();
        ObjectNode old;
        engine.commitLock.lock();
        try {
            checkLive(t);
            old = t.items.get(pk);
            if (cond != null && !Evaluator.test(cond, old)) {
                throw RequestSupport.conditionFailed(old, returnOld);
            }
            engine.commit(List.of(new Write(t, pk, old, item)), null, false, cap);
        } finally {
            engine.commitLock.unlock();
        }
        cap.tableWrite(t.name, Capacity.writeUnits(Math.max(size(old), ItemSize.of(item))));
        ObjectNode out = engine.mapper.createObjectNode();
        if (rv.equals("ALL_OLD") && old != null) {
            out.set("Attributes", old);
        }
        addCapacity(out, cap, t.name, mode);
        return out;
    }

    ObjectNode update(ObjectNode request) {
        LegacyParameters.rejectMixing(request);
        Table t = engine.table(request);
        KeyValue pk = t.keyOf(request.get("Key"));
        ObjectNode keyAttrs = (ObjectNode) request.get("Key");
        String rv =
                RequestSupport.enumParam(
                        request,
                        "ReturnValues",
                        "NONE",
                        Set.of("NONE", "ALL_OLD", "UPDATED_OLD", "ALL_NEW", "UPDATED_NEW"));
        boolean returnOld = RequestSupport.returnOldOnFailure(request);
        ExpressionContext ctx =
                RequestSupport.context(
                        request,
                        request.has("ConditionExpression") || request.has("UpdateExpression"));
        List<UpdateAction> actions =
                request.hasNonNull("UpdateExpression")
                        ? Parser.update(request.get("UpdateExpression").asText(), ctx)
                        : LegacyParameters.attributeUpdates(request);
        Condition cond = RequestSupport.writeCondition(request, ctx);
        ctx.checkAllUsed();
        Updater.validate(actions, keyNames(t));
        Capacity.Mode mode = RequestSupport.capacityMode(request);
        Capacity cap = new Capacity();
        ObjectNode old;
        ObjectNode updated;
        engine.commitLock.lock();
        try {
            checkLive(t);
            old = t.items.get(pk);
            if (cond != null && !Evaluator.test(cond, old)) {
                throw RequestSupport.conditionFailed(old, returnOld);
            }
            updated = Updater.apply(actions, old, keyAttrs);
            AttributeValues.validateItem(updated);
            t.validateItem(updated);
            engine.commit(List.of(new Write(t, pk, old, updated)), null, false, cap);
        } finally {
            engine.commitLock.unlock();
        }
        cap.tableWrite(t.name, Capacity.writeUnits(Math.max(size(old), ItemSize.of(updated))));
        ObjectNode out = engine.mapper.createObjectNode();
        ObjectNode attrs = returnValues(rv, old, updated, actions);
        if (attrs != null && !attrs.isEmpty()) {
            out.set("Attributes", attrs);
        }
        addCapacity(out, cap, t.name, mode);
        return out;
    }

    static @Nullable ObjectNode returnValues(
            String rv, @Nullable ObjectNode old, ObjectNode updated, List<UpdateAction> actions) {
        List<Path> paths = new ArrayList<>();
        for (UpdateAction a : actions) {
            paths.add(a.path());
        }
        return switch (rv) {
            case "ALL_OLD" -> old;
            case "ALL_NEW" -> updated;
            case "UPDATED_OLD" ->
                    old == null || paths.isEmpty() ? null : Projector.project(old, paths);
            case "UPDATED_NEW" -> paths.isEmpty() ? null : Projector.project(updated, paths);
            default -> null;
        };
    }

    ObjectNode delete(ObjectNode request) {
        LegacyParameters.rejectMixing(request);
        Table t = engine.table(request);
        KeyValue pk = t.keyOf(request.get("Key"));
        String rv = RequestSupport.returnValues(request, Set.of("NONE", "ALL_OLD"));
        boolean returnOld = RequestSupport.returnOldOnFailure(request);
        ExpressionContext ctx = RequestSupport.context(request, request.has("ConditionExpression"));
        Condition cond = RequestSupport.writeCondition(request, ctx);
        ctx.checkAllUsed();
        Capacity.Mode mode = RequestSupport.capacityMode(request);
        Capacity cap = new Capacity();
        ObjectNode old;
        engine.commitLock.lock();
        try {
            checkLive(t);
            old = t.items.get(pk);
            if (cond != null && !Evaluator.test(cond, old)) {
                throw RequestSupport.conditionFailed(old, returnOld);
            }
            if (old != null) {
                engine.commit(List.of(new Write(t, pk, old, null)), null, false, cap);
            }
        } finally {
            engine.commitLock.unlock();
        }
        cap.tableWrite(t.name, Capacity.writeUnits(size(old)));
        ObjectNode out = engine.mapper.createObjectNode();
        if (rv.equals("ALL_OLD") && old != null) {
            out.set("Attributes", old);
        }
        addCapacity(out, cap, t.name, mode);
        return out;
    }

    /** Fails if the table was deleted after the request looked it up; caller holds the lock. */
    void checkLive(Table t) {
        if (engine.tables.get(t.name) != t) {
            throw ApiException.resourceNotFound("Requested resource not found");
        }
    }

    static Set<String> keyNames(Table t) {
        return t.key.range() == null ? Set.of(t.key.hash()) : Set.of(t.key.hash(), t.key.range());
    }

    static long size(@Nullable JsonNode item) {
        return item == null ? 0 : ItemSize.of(item);
    }

    static void addCapacity(ObjectNode out, Capacity cap, String table, Capacity.Mode mode) {
        ObjectNode c = cap.toJson(table, mode);
        if (c != null) {
            out.set("ConsumedCapacity", c);
        }
    }
}
