package io.streamledger.local.dynamodb;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.streamledger.local.dynamodb.DynamoDbEngine.Write;
import io.streamledger.local.dynamodb.expr.Ast.Condition;
import io.streamledger.local.dynamodb.expr.Ast.UpdateAction;
import io.streamledger.local.dynamodb.expr.Evaluator;
import io.streamledger.local.dynamodb.expr.ExpressionContext;
import io.streamledger.local.dynamodb.expr.Parser;
import io.streamledger.local.dynamodb.expr.Updater;
import io.streamledger.local.spi.ApiException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;
import javax.annotation.Nullable;

/**
 * TransactWriteItems (AP08+AP16+AP17 accepted_order_v1, AP09+AP10+AP12 postings): all-or-nothing
 * under the commit lock, one CancellationReason per action, ClientRequestToken idempotency for ten
 * minutes, base units ×2 and index maintenance at ordinary cost.
 */
final class TransactWriteOperation {
    static final int MAX_ACTIONS = 100;
    static final long MAX_REQUEST_BYTES = 4L * 1024 * 1024;
    static final Duration TOKEN_TTL = Duration.ofMinutes(10);

    private final DynamoDbEngine engine;
    private final Map<String, TokenEntry> tokens = new LinkedHashMap<>();
    private final String idPrefix =
            Long.toHexString(ThreadLocalRandom.current().nextLong() & 0xffffffffL);
    private final AtomicLong ids = new AtomicLong();

    private record TokenEntry(String fingerprint, ObjectNode response, Instant expiresAt) {}

    private record Action(
            String kind,
            Table table,
            KeyValue pk,
            ObjectNode keyAttrs,
            @Nullable ObjectNode putItem,
            List<UpdateAction> updates,
            @Nullable Condition condition,
            boolean returnOld) {}

    TransactWriteOperation(DynamoDbEngine engine) {
        this.engine = engine;
    }

    ObjectNode handle(ObjectNode request) {
        JsonNode items = request.get("TransactItems");
        if (items == null || !items.isArray() || items.isEmpty() || items.size() > MAX_ACTIONS) {
            throw ApiException.validation(
                    "1 validation error detected: Value at 'transactItems' failed to satisfy"
                            + " constraint: Member must have length less than or equal to 100 and"
                            + " greater than or equal to 1");
        }
        String token = request.path("ClientRequestToken").asText(null);
        if (token != null && (token.isEmpty() || token.length() > 36)) {
            throw ApiException.validation(
                    "1 validation error detected: Value at 'clientRequestToken' failed to satisfy"
                            + " constraint: Member must have length less than or equal to 36");
        }
        Capacity.Mode mode = RequestSupport.capacityMode(request);
        List<Action> actions = new ArrayList<>(items.size());
        Set<String> seen = new HashSet<>();
        long requestBytes = 0;
        for (JsonNode a : items) {
            Action action = parse(a);
            if (!seen.add(action.table().name + "\u0000" + action.pk())) {
                throw ApiException.validation(
                        "Transaction request cannot include multiple operations on one item");
            }
            requestBytes +=
                    action.putItem() != null
                            ? ItemSize.of(action.putItem())
                            : ItemSize.of(action.keyAttrs());
            actions.add(action);
        }
        if (requestBytes > MAX_REQUEST_BYTES) {
            throw ApiException.validation("Transaction request size exceeds the maximum of 4 MB");
        }
        String fingerprint = token == null ? null : fingerprint(request);
        engine.commitLock.lock();
        try {
            if (token != null) {
                ObjectNode cached = cachedResponse(token, fingerprint);
                if (cached != null) {
                    return cached;
                }
            }
            ObjectNode response = executeLocked(actions, mode);
            if (token != null) {
                tokens.put(
                        token,
                        new TokenEntry(
                                fingerprint, response, engine.clock.instant().plus(TOKEN_TTL)));
            }
            return response;
        } finally {
            engine.commitLock.unlock();
        }
    }

    private @Nullable ObjectNode cachedResponse(String token, String fingerprint) {
        Instant now = engine.clock.instant();
        Iterator<TokenEntry> it = tokens.values().iterator();
        while (it.hasNext() && !it.next().expiresAt().isAfter(now)) {
            it.remove();
        }
        TokenEntry e = tokens.get(token);
        if (e == null || !e.expiresAt().isAfter(now)) {
            return null;
        }
        if (!e.fingerprint().equals(fingerprint)) {
            throw new ApiException(
                    "IdempotentParameterMismatchException",
                    400,
                    "The request uses the same client token as a previous, but non-identical"
                            + " request. Do not reuse a client token with different requests,"
                            + " unless the requests are identical.");
        }
        return e.response();
    }

    private String fingerprint(ObjectNode request) {
        ObjectNode copy = request.deepCopy();
        copy.remove("ReturnConsumedCapacity");
        copy.remove("ReturnItemCollectionMetrics");
        return copy.toString();
    }

    private Action parse(JsonNode a) {
        if (a == null || !a.isObject() || a.size() != 1) {
            throw ApiException.validation(
                    "TransactItems can only contain one of Check, Put, Update or Delete");
        }
        String kind = a.fieldNames().next();
        JsonNode body = a.get(kind);
        RequestSupport.rejectLegacy(body);
        Table t = engine.table(body);
        boolean returnOld = RequestSupport.returnOldOnFailure(body);
        switch (kind) {
            case "Put":
                {
                    ObjectNode item = RequestSupport.item(body, "Item");
                    t.validateItem(item);
                    ExpressionContext ctx =
                            RequestSupport.context(body, body.has("ConditionExpression"));
                    Condition c = RequestSupport.condition(body, "ConditionExpression", ctx);
                    ctx.checkAllUsed();
                    return new Action(
                            kind,
                            t,
                            t.primaryKey(item, false),
                            t.keyAttributes(item),
                            item,
                            List.of(),
                            c,
                            returnOld);
                }
            case "Update":
                {
                    KeyValue pk = t.keyOf(body.get("Key"));
                    if (!body.hasNonNull("UpdateExpression")) {
                        throw ApiException.validation(
                                "1 validation error detected: Value null at"
                                        + " 'transactItems.member.update.updateExpression' failed"
                                        + " to satisfy constraint: Member must not be null");
                    }
                    ExpressionContext ctx = RequestSupport.context(body, true);
                    List<UpdateAction> updates =
                            Parser.update(body.get("UpdateExpression").asText(), ctx);
                    Condition c = RequestSupport.condition(body, "ConditionExpression", ctx);
                    ctx.checkAllUsed();
                    Updater.validate(updates, ItemOperations.keyNames(t));
                    return new Action(
                            kind, t, pk, (ObjectNode) body.get("Key"), null, updates, c, returnOld);
                }
            case "Delete":
            case "ConditionCheck":
                {
                    KeyValue pk = t.keyOf(body.get("Key"));
                    ExpressionContext ctx =
                            RequestSupport.context(body, body.has("ConditionExpression"));
                    Condition c = RequestSupport.condition(body, "ConditionExpression", ctx);
                    ctx.checkAllUsed();
                    if (kind.equals("ConditionCheck") && c == null) {
                        throw ApiException.validation(
                                "1 validation error detected: Value null at"
                                        + " 'transactItems.member.conditionCheck.conditionExpression'"
                                        + " failed to satisfy constraint: Member must not be null");
                    }
                    return new Action(
                            kind,
                            t,
                            pk,
                            (ObjectNode) body.get("Key"),
                            null,
                            List.of(),
                            c,
                            returnOld);
                }
            default:
                throw ApiException.validation(
                        "TransactItems can only contain one of Check, Put, Update or Delete; got "
                                + kind);
        }
    }

    /** An injected conflict: the first action's item is "locked by another transaction". */
    private ApiException conflict(int actions) {
        ArrayNode reasons = engine.mapper.createArrayNode();
        List<String> codes = new ArrayList<>();
        for (int i = 0; i < actions; i++) {
            ObjectNode r = reasons.addObject();
            if (i == 0) {
                r.put("Code", "TransactionConflict");
                r.put("Message", "Transaction is ongoing for the item");
                codes.add("TransactionConflict");
            } else {
                r.put("Code", "None");
                codes.add("None");
            }
        }
        ObjectNode extra = engine.mapper.createObjectNode();
        extra.set("CancellationReasons", reasons);
        return new ApiException(
                "TransactionCanceledException",
                400,
                "Transaction cancelled, please refer cancellation reasons for specific reasons "
                        + codes,
                extra);
    }

    /** Evaluates every action against the current items, then commits all or none. */
    private ObjectNode executeLocked(List<Action> actions, Capacity.Mode mode) {
        java.util.Set<String> tableNames = new java.util.LinkedHashSet<>();
        actions.forEach(a -> tableNames.add(a.table().name));
        if (engine.faults.transactionConflict(tableNames)) {
            throw conflict(actions.size());
        }
        List<Write> writes = new ArrayList<>(actions.size());
        ArrayNode reasons = engine.mapper.createArrayNode();
        List<String> codes = new ArrayList<>();
        boolean failed = false;
        Capacity cap = new Capacity();
        for (Action a : actions) {
            if (engine.tables.get(a.table().name) != a.table()) {
                throw ApiException.resourceNotFound("Requested resource not found");
            }
            ObjectNode old = a.table().items.get(a.pk());
            ObjectNode reason = reasons.addObject();
            if (a.condition() != null && !Evaluator.test(a.condition(), old)) {
                failed = true;
                reason.put("Code", "ConditionalCheckFailed");
                reason.put("Message", "The conditional request failed");
                if (a.returnOld() && old != null) {
                    reason.set("Item", old);
                }
                codes.add("ConditionalCheckFailed");
                continue;
            }
            ObjectNode next;
            try {
                next =
                        switch (a.kind()) {
                            case "Put" -> a.putItem();
                            case "Update" -> {
                                ObjectNode u = Updater.apply(a.updates(), old, a.keyAttrs());
                                AttributeValues.validateItem(u);
                                a.table().validateItem(u);
                                yield u;
                            }
                            case "Delete" -> null;
                            default -> old; // ConditionCheck writes nothing
                        };
            } catch (ApiException e) {
                failed = true;
                reason.put("Code", "ValidationError");
                reason.put("Message", e.getMessage());
                codes.add("ValidationError");
                continue;
            }
            reason.put("Code", "None");
            codes.add("None");
            cap.tableWrite(
                    a.table().name,
                    2
                            * Capacity.writeUnits(
                                    Math.max(ItemOperations.size(old), ItemOperations.size(next))));
            if (!a.kind().equals("ConditionCheck") && (old != null || next != null)) {
                writes.add(new Write(a.table(), a.pk(), old, next));
            }
        }
        if (failed) {
            ObjectNode extra = engine.mapper.createObjectNode();
            extra.set("CancellationReasons", reasons);
            throw new ApiException(
                    "TransactionCanceledException",
                    400,
                    "Transaction cancelled, please refer cancellation reasons for specific reasons"
                            + " "
                            + codes.toString().replace(" ", " "),
                    extra);
        }
        String txId = idPrefix + "-" + ids.incrementAndGet();
        engine.commit(writes, txId, false, cap);
        ObjectNode out = engine.mapper.createObjectNode();
        ArrayNode c = cap.toJsonList(mode);
        if (c != null) {
            out.set("ConsumedCapacity", c);
        }
        return out;
    }
}
