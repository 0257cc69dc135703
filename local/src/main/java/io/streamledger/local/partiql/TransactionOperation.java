package io.streamledger.local.partiql;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.streamledger.local.dynamodb.AttributeValues;
import io.streamledger.local.partiql.PartiQlApi.Statements;
import io.streamledger.local.partiql.StatementCache.Compiled;
import io.streamledger.local.partiql.Syntax.Select;
import io.streamledger.local.partiql.Syntax.Statement;
import io.streamledger.local.partiql.Syntax.Update;
import io.streamledger.local.spi.ApiException;
import java.util.ArrayList;
import java.util.List;

/**
 * ExecuteTransaction: up to 100 statements, all SELECTs by whole key (TransactGetItems) or all
 * writes and EXISTS conditions (TransactWriteItems: all or nothing, 2× units, ClientRequestToken
 * idempotency for ten minutes, one CancellationReason per statement) — the AP08/AP16/AP17 admission
 * transaction written in PartiQL. An INSERT whose key exists is cancelled with {@code
 * DuplicateItem}.
 */
final class TransactionOperation {
    static final int MAX_STATEMENTS = 100;

    private final Statements statements;

    TransactionOperation(Statements statements) {
        this.statements = statements;
    }

    private record Member(Statement statement, Compiled compiled, JsonNode source) {}

    ObjectNode handle(ObjectNode request) {
        JsonNode list = request.get("TransactStatements");
        if (list == null || list.isNull()) {
            throw Messages.memberNull("transactStatements");
        }
        if (!list.isArray() || list.isEmpty() || list.size() > MAX_STATEMENTS) {
            throw Messages.memberLength(
                    "transactStatements",
                    "[" + list.size() + " statements]",
                    "have length less than or equal to 100 and greater than or equal to 1");
        }
        List<Member> members = new ArrayList<>(list.size());
        boolean reads = false;
        boolean writes = false;
        for (JsonNode s : list) {
            JsonNode text = s.get("Statement");
            if (text == null || text.isNull() || text.asText().isEmpty()) {
                throw Messages.validation(Messages.TRANSACTION_EMPTY_STATEMENT);
            }
            Compiled compiled = statements.cache.get(Statements.text(s, "statement"));
            Statement statement = compiled.parsed().statement();
            reads |= !statement.writes();
            writes |= statement.writes();
            if (reads && writes) {
                throw Messages.validation(Messages.TRANSACTION_MIXED);
            }
            members.add(new Member(statement, compiled, s));
        }
        return reads ? read(members, request) : write(members, request);
    }

    private ObjectNode write(List<Member> members, ObjectNode request) {
        ObjectNode tx = AttributeValues.JSON.objectNode();
        ArrayNode items = tx.putArray("TransactItems");
        List<WritePlan> plans = new ArrayList<>(members.size());
        for (Member m : members) {
            if (m.statement() instanceof Update u && u.returnValues() != null
                    || m.statement() instanceof Syntax.Delete d && d.returnOld()) {
                throw Messages.validation(Messages.TRANSACTION_UNSUPPORTED);
            }
            Binder binder =
                    Binder.of(m.source().get("Parameters"), m.compiled().parsed().parameters());
            WritePlan plan =
                    m.compiled()
                            .plan(
                                    statements.table(m.statement().table()),
                                    null,
                                    t -> WritePlan.of(m.statement(), t));
            ObjectNode body = plan.request(binder);
            StatementOperation.copy(m.source(), body, "ReturnValuesOnConditionCheckFailure");
            items.addObject().set(plan.kind().transactAction, body);
            plans.add(plan);
        }
        StatementOperation.copy(request, tx, "ClientRequestToken");
        StatementOperation.copy(request, tx, "ReturnConsumedCapacity");
        ObjectNode result;
        try {
            result = statements.engine.handle("TransactWriteItems", tx);
        } catch (ApiException e) {
            throw duplicateReasons(e, plans);
        }
        ObjectNode out = AttributeValues.JSON.objectNode();
        StatementOperation.copy(result, out, "ConsumedCapacity");
        return out;
    }

    /**
     * Cancellation reasons name an INSERT whose key exists {@code DuplicateItem}, where the Put it
     * ran reports its failed guard as ConditionalCheckFailed.
     */
    private static ApiException duplicateReasons(ApiException e, List<WritePlan> plans) {
        if (!e.type().equals("TransactionCanceledException") || e.extra() == null) {
            return e;
        }
        ObjectNode extra = e.extra().deepCopy();
        JsonNode reasons = extra.get("CancellationReasons");
        if (reasons == null || reasons.size() != plans.size()) {
            return e;
        }
        List<String> codes = new ArrayList<>();
        for (int i = 0; i < plans.size(); i++) {
            ObjectNode reason = (ObjectNode) reasons.get(i);
            if (plans.get(i).kind() == WritePlan.Kind.INSERT
                    && reason.path("Code").asText().equals("ConditionalCheckFailed")) {
                reason.removeAll();
                reason.put("Code", "DuplicateItem");
                reason.put("Message", Messages.DUPLICATE_ITEM);
            }
            codes.add(reason.path("Code").asText());
        }
        return new ApiException(
                e.type(),
                e.httpStatus(),
                "Transaction cancelled, please refer cancellation reasons for specific reasons "
                        + codes,
                extra);
    }

    private ObjectNode read(List<Member> members, ObjectNode request) {
        ObjectNode tx = AttributeValues.JSON.objectNode();
        ArrayNode items = tx.putArray("TransactItems");
        List<ReadPlan> plans = new ArrayList<>(members.size());
        for (Member m : members) {
            Select select = (Select) m.statement();
            if (select.index() != null) {
                throw Messages.validation(Messages.TRANSACTION_SELECT_INDEX);
            }
            Binder binder =
                    Binder.of(m.source().get("Parameters"), m.compiled().parsed().parameters());
            ReadPlan plan =
                    m.compiled()
                            .plan(
                                    statements.table(select.table()),
                                    null,
                                    t -> ReadPlan.of(select, t));
            if (plan.mode() != ReadPlan.Mode.GET || plan.lookups().size() != 1) {
                throw Messages.validation(Messages.TRANSACTION_SELECT_KEY);
            }
            ObjectNode get = items.addObject().putObject("Get");
            get.put("TableName", plan.table().name());
            get.set("Key", SelectExecution.lookups(plan, binder).get(0));
            plans.add(plan);
        }
        StatementOperation.copy(request, tx, "ReturnConsumedCapacity");
        ObjectNode result = statements.engine.handle("TransactGetItems", tx);
        ObjectNode out = AttributeValues.JSON.objectNode();
        ArrayNode responses = out.putArray("Responses");
        JsonNode found = result.path("Responses");
        for (int i = 0; i < plans.size(); i++) {
            ObjectNode r = responses.addObject();
            JsonNode item = found.path(i).get("Item");
            if (item != null) {
                r.set(
                        "Item",
                        SelectExecution.project((ObjectNode) item, plans.get(i).projection()));
            }
        }
        StatementOperation.copy(result, out, "ConsumedCapacity");
        return out;
    }
}
