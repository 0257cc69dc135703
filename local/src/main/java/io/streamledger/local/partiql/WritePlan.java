package io.streamledger.local.partiql;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.streamledger.local.dynamodb.AttributeValues;
import io.streamledger.local.dynamodb.KeyDef;
import io.streamledger.local.dynamodb.Table;
import io.streamledger.local.partiql.Syntax.And;
import io.streamledger.local.partiql.Syntax.Cond;
import io.streamledger.local.partiql.Syntax.Delete;
import io.streamledger.local.partiql.Syntax.Exists;
import io.streamledger.local.partiql.Syntax.Expr;
import io.streamledger.local.partiql.Syntax.Fn;
import io.streamledger.local.partiql.Syntax.Insert;
import io.streamledger.local.partiql.Syntax.Or;
import io.streamledger.local.partiql.Syntax.PathExpr;
import io.streamledger.local.partiql.Syntax.Statement;
import io.streamledger.local.partiql.Syntax.Update;
import java.util.List;
import java.util.Map;
import javax.annotation.Nullable;

/**
 * A write statement translated into the item operation DynamoDB runs for it (AP16/AP17 guarded
 * writes): INSERT is PutItem guarded by {@code attribute_not_exists(key)}, UPDATE is UpdateItem
 * guarded by {@code attribute_exists(key) AND <condition>} (an UPDATE never creates an item),
 * DELETE is DeleteItem guarded by {@code attribute_not_exists(key) OR <condition>} (deleting a
 * missing item succeeds), EXISTS is a transaction's ConditionCheck. The expression texts are fixed
 * per statement text and table; only the bound values change per execution.
 */
record WritePlan(
        Kind kind,
        Table table,
        Map<String, Expr> key,
        @Nullable Syntax.Tuple item,
        @Nullable String updateExpression,
        @Nullable String conditionExpression,
        @Nullable ObjectNode names,
        List<Expr> values,
        @Nullable String returnValues) {

    enum Kind {
        INSERT("PutItem", "Put"),
        UPDATE("UpdateItem", "Update"),
        DELETE("DeleteItem", "Delete"),
        EXISTS(null, "ConditionCheck");

        /** The single-item operation, and the TransactWriteItems action, of the statement. */
        final @Nullable String operation;

        final String transactAction;

        Kind(@Nullable String operation, String transactAction) {
            this.operation = operation;
            this.transactAction = transactAction;
        }
    }

    static WritePlan of(Statement statement, Table table) {
        KeyDef keyDef = table.key();
        PathExpr hash = new PathExpr(List.of(keyDef.hash()));
        ExpressionWriter w = new ExpressionWriter();
        if (statement instanceof Insert insert) {
            String condition = w.condition(new Fn("attribute_not_exists", List.of(hash)));
            return new WritePlan(
                    Kind.INSERT,
                    table,
                    Map.of(),
                    insert.item(),
                    null,
                    condition,
                    w.names(),
                    w.values(),
                    null);
        }
        Cond where;
        if (statement instanceof Update u) {
            where = u.where();
        } else if (statement instanceof Delete d) {
            where = d.where();
        } else {
            Syntax.Select select = ((Exists) statement).select();
            if (select.index() != null) {
                throw Messages.validation(Messages.TRANSACTION_INDEX);
            }
            if (select.where() == null) {
                throw Messages.validation(Messages.TRANSACTION_EXISTS_KEY);
            }
            where = select.where();
        }
        KeyMatch match = KeyMatch.fullKey(where, keyDef);
        if (match == null) {
            throw Messages.validation(
                    statement instanceof Exists
                            ? Messages.TRANSACTION_EXISTS_KEY
                            : Messages.INCOMPLETE_KEY);
        }
        Cond exists = new Fn("attribute_exists", List.of(hash));
        if (statement instanceof Update u) {
            String update = w.update(u.actions());
            Cond guard = match.rest() == null ? exists : new And(exists, match.rest());
            return new WritePlan(
                    Kind.UPDATE,
                    table,
                    match.key(),
                    null,
                    update,
                    w.condition(guard),
                    w.names(),
                    w.values(),
                    u.returnValues());
        }
        if (statement instanceof Delete d) {
            String condition =
                    match.rest() == null
                            ? null
                            : w.condition(
                                    new Or(
                                            new Fn("attribute_not_exists", List.of(hash)),
                                            match.rest()));
            return new WritePlan(
                    Kind.DELETE,
                    table,
                    match.key(),
                    null,
                    null,
                    condition,
                    w.names(),
                    w.values(),
                    d.returnOld() ? "ALL_OLD" : null);
        }
        Cond guard = match.rest() == null ? exists : new And(exists, match.rest());
        return new WritePlan(
                Kind.EXISTS,
                table,
                match.key(),
                null,
                null,
                w.condition(guard),
                w.names(),
                w.values(),
                null);
    }

    /**
     * The item operation's request body (or a TransactWriteItems action's), without the request
     * level members (ReturnConsumedCapacity, ReturnValuesOnConditionCheckFailure).
     */
    ObjectNode request(Binder binder) {
        ObjectNode r = AttributeValues.JSON.objectNode();
        r.put("TableName", table.name());
        if (item != null) {
            ObjectNode bound = binder.item(item);
            KeyMatch.checkItemKey(bound, table.key());
            r.set("Item", bound);
        } else {
            r.set("Key", KeyMatch.boundKey(key, table.key(), binder));
        }
        if (updateExpression != null) {
            r.put("UpdateExpression", updateExpression);
        }
        if (conditionExpression != null) {
            r.put("ConditionExpression", conditionExpression);
        }
        if (names != null) {
            r.set("ExpressionAttributeNames", names);
        }
        if (!values.isEmpty()) {
            ObjectNode eav = r.putObject("ExpressionAttributeValues");
            for (int i = 0; i < values.size(); i++) {
                eav.set(":v" + i, binder.value(values.get(i)));
            }
        }
        if (returnValues != null) {
            r.put("ReturnValues", returnValues);
        }
        return r;
    }

    /** The key the bound statement writes (duplicate detection of batches and transactions). */
    ObjectNode boundKey(ObjectNode request) {
        if (request.has("Key")) {
            return (ObjectNode) request.get("Key");
        }
        ObjectNode k = AttributeValues.JSON.objectNode();
        ObjectNode it = (ObjectNode) request.get("Item");
        for (String a : table.key().hashes()) {
            k.set(a, it.get(a));
        }
        for (String a : table.key().ranges()) {
            k.set(a, it.get(a));
        }
        return k;
    }
}
