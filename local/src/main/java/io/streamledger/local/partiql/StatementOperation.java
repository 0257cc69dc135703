package io.streamledger.local.partiql;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.streamledger.local.dynamodb.AttributeValues;
import io.streamledger.local.dynamodb.Capacity;
import io.streamledger.local.dynamodb.Table;
import io.streamledger.local.partiql.PartiQlApi.Statements;
import io.streamledger.local.partiql.StatementCache.Compiled;
import io.streamledger.local.partiql.Syntax.Exists;
import io.streamledger.local.partiql.Syntax.Select;
import io.streamledger.local.partiql.Syntax.Statement;
import io.streamledger.local.spi.ApiException;

/**
 * ExecuteStatement: one SELECT (a page of items, {@code Limit}, {@code NextToken}, {@code
 * ConsistentRead}) or one INSERT, UPDATE or DELETE run as the single-item write it stands for
 * (AP16/AP17 guarded writes), with {@code ReturnValuesOnConditionCheckFailure} and {@code
 * ReturnConsumedCapacity} as that write has them.
 */
final class StatementOperation {
    private final Statements statements;

    StatementOperation(Statements statements) {
        this.statements = statements;
    }

    ObjectNode handle(ObjectNode request) {
        String text = Statements.text(request, "statement");
        Capacity.Mode mode = Capacity.Mode.of(request.path("ReturnConsumedCapacity").asText(null));
        Compiled compiled = statements.cache.get(text);
        Statement statement = compiled.parsed().statement();
        Binder binder = Binder.of(request.get("Parameters"), compiled.parsed().parameters());
        if (statement instanceof Exists) {
            throw Messages.validation(Messages.EXISTS_OUTSIDE_TRANSACTION);
        }
        Table table = statements.table(statement.table());
        if (statement instanceof Select select) {
            return select(request, text, compiled, select, table, binder, mode);
        }
        WritePlan plan = compiled.plan(table, null, t -> WritePlan.of(statement, t));
        return write(plan, binder, request);
    }

    private ObjectNode select(
            ObjectNode request,
            String text,
            Compiled compiled,
            Select select,
            Table table,
            Binder binder,
            Capacity.Mode mode) {
        ReadPlan plan = compiled.plan(table, select.index(), t -> ReadPlan.of(select, t));
        int limit = Integer.MAX_VALUE;
        JsonNode l = request.get("Limit");
        if (l != null && !l.isNull()) {
            if (l.asInt() < 1) {
                throw Messages.memberLength(
                        "limit", l.asText(), "have value greater than or equal to 1");
            }
            limit = l.asInt();
        }
        String fingerprint = NextToken.fingerprint(text, request.get("Parameters"));
        JsonNode token = request.get("NextToken");
        NextToken from =
                token == null || token.isNull()
                        ? null
                        : NextToken.decode(token.asText(), fingerprint);
        CapacityTally capacity = new CapacityTally();
        SelectExecution.Page page =
                statements.selects.run(
                        new SelectExecution.Read(
                                plan,
                                binder,
                                request.path("ConsistentRead").asBoolean(false),
                                limit,
                                from,
                                capacity));
        ObjectNode out = AttributeValues.JSON.objectNode();
        out.set("Items", page.items());
        if (page.next() != null) {
            out.put("NextToken", page.next().encode(fingerprint));
        }
        if (page.lastEvaluatedKey() != null) {
            out.set("LastEvaluatedKey", page.lastEvaluatedKey());
        }
        ObjectNode consumed = capacity.toJson(table.name(), mode);
        if (consumed != null) {
            out.set("ConsumedCapacity", consumed);
        }
        return out;
    }

    /** Runs a write plan as its single-item operation; a duplicate INSERT is DuplicateItem. */
    private ObjectNode write(WritePlan plan, Binder binder, ObjectNode request) {
        ObjectNode r = plan.request(binder);
        copy(request, r, "ReturnConsumedCapacity");
        copy(request, r, "ReturnValuesOnConditionCheckFailure");
        ObjectNode result;
        try {
            result = statements.engine.handle(plan.kind().operation, r);
        } catch (ApiException e) {
            throw duplicateOnInsert(plan, e);
        }
        ObjectNode out = AttributeValues.JSON.objectNode();
        var items = out.putArray("Items");
        JsonNode attributes = result.get("Attributes");
        if (attributes != null && !attributes.isEmpty()) {
            items.add(attributes);
        }
        JsonNode consumed = result.get("ConsumedCapacity");
        if (consumed != null) {
            out.set("ConsumedCapacity", consumed);
        }
        return out;
    }

    /** An INSERT's guard failing means the key exists: DynamoDB's DuplicateItemException. */
    static ApiException duplicateOnInsert(WritePlan plan, ApiException e) {
        if (plan.kind() == WritePlan.Kind.INSERT
                && e.type().equals("ConditionalCheckFailedException")) {
            return Messages.duplicateItem();
        }
        return e;
    }

    static void copy(JsonNode from, ObjectNode to, String member) {
        JsonNode v = from.get(member);
        if (v != null && !v.isNull()) {
            to.set(member, v);
        }
    }
}
