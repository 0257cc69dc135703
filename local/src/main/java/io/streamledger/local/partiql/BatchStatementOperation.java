package io.streamledger.local.partiql;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.streamledger.local.dynamodb.AttributeValues;
import io.streamledger.local.dynamodb.Capacity;
import io.streamledger.local.dynamodb.ItemSize;
import io.streamledger.local.dynamodb.Table;
import io.streamledger.local.fault.FaultInjector;
import io.streamledger.local.partiql.PartiQlApi.Statements;
import io.streamledger.local.partiql.StatementCache.Compiled;
import io.streamledger.local.partiql.Syntax.Exists;
import io.streamledger.local.partiql.Syntax.Select;
import io.streamledger.local.partiql.Syntax.Statement;
import io.streamledger.local.spi.ApiException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import javax.annotation.Nullable;

/**
 * BatchExecuteStatement: up to 25 statements, all reads (each a single-item SELECT, i.e. GetItem)
 * or all writes (each its own conditional PutItem/UpdateItem/DeleteItem at ordinary write units).
 * Each statement succeeds or fails on its own — {@code Responses[i].Error} with DynamoDB's code
 * ({@code ConditionalCheckFailed}, {@code DuplicateItem}, {@code ValidationError}, …) and, when the
 * statement asks for ALL_OLD, the item that failed its condition. This is the path of the sinks'
 * batched version-guarded UPDATEs (AP13/AP16: a stale version is a counted ConditionalCheckFailed,
 * not an error of the batch).
 */
final class BatchStatementOperation {
    static final int MAX_STATEMENTS = 25;

    /** Fault rules on this operation throttle single statements (a per-statement error). */
    static final String OPERATION = "BatchExecuteStatement";

    private final Statements statements;

    BatchStatementOperation(Statements statements) {
        this.statements = statements;
    }

    /** One statement of the batch as planned: a bound request to run, or its error. */
    private static final class Member {
        final JsonNode source;
        @Nullable Statement statement;
        @Nullable Table table;
        @Nullable WritePlan write;
        @Nullable ReadPlan read;
        @Nullable ObjectNode request;
        @Nullable ApiException error;

        Member(JsonNode source) {
            this.source = source;
        }
    }

    ObjectNode handle(ObjectNode request) {
        JsonNode list = request.get("Statements");
        if (list == null || list.isNull()) {
            throw Messages.memberNull("statements");
        }
        if (!list.isArray() || list.isEmpty()) {
            throw Messages.memberLength(
                    "statements", "[]", "have length greater than or equal to 1");
        }
        if (list.size() > MAX_STATEMENTS) {
            throw Messages.memberLength(
                    "statements",
                    "[" + list.size() + " statements]",
                    "have length less than or equal to " + MAX_STATEMENTS);
        }
        Capacity.Mode mode = Capacity.Mode.of(request.path("ReturnConsumedCapacity").asText(null));
        List<Member> members = new ArrayList<>(list.size());
        for (JsonNode s : list) {
            members.add(parse(s));
        }
        boolean reads = false;
        boolean writes = false;
        for (Member m : members) {
            if (m.statement != null) {
                reads |= !m.statement.writes();
                writes |= m.statement.writes();
            }
        }
        if (reads && writes) {
            throw Messages.validation(Messages.BATCH_MIXED);
        }
        Set<TableKey> keys = new HashSet<>();
        for (Member m : members) {
            if (m.error == null) {
                plan(m, mode);
                if (!keys.add(new TableKey(m.table.name(), key(m)))) {
                    throw Messages.validation(Messages.DUPLICATE_KEYS);
                }
            }
        }
        CapacityTally capacity = new CapacityTally();
        ObjectNode out = AttributeValues.JSON.objectNode();
        ArrayNode responses = out.putArray("Responses");
        for (Member m : members) {
            responses.add(m.error != null ? error(m, m.error) : run(m, capacity));
        }
        ArrayNode consumed = capacity.toJsonList(mode);
        if (consumed != null) {
            out.set("ConsumedCapacity", consumed);
        }
        return out;
    }

    private Member parse(JsonNode source) {
        Member m = new Member(source);
        JsonNode text = source.get("Statement");
        if (text == null || text.isNull() || text.asText().isEmpty()) {
            throw Messages.validation(Messages.BATCH_EMPTY_STATEMENT);
        }
        try {
            Compiled compiled = statements.cache.get(Statements.text(source, "statement"));
            Statement s = compiled.parsed().statement();
            if (s instanceof Exists) {
                throw Messages.validation(Messages.EXISTS_OUTSIDE_TRANSACTION);
            }
            m.statement = s;
            Binder binder = Binder.of(source.get("Parameters"), compiled.parsed().parameters());
            m.table = statements.table(s.table());
            if (s instanceof Select select) {
                m.read = compiled.plan(m.table, select.index(), t -> ReadPlan.of(select, t));
                m.request = getRequest(m.read, binder, source);
            } else {
                m.write = compiled.plan(m.table, null, t -> WritePlan.of(s, t));
                m.request = m.write.request(binder);
            }
        } catch (ApiException e) {
            m.error = e;
        }
        return m;
    }

    /** A batch SELECT must address one item by its whole key: it is a GetItem. */
    private ObjectNode getRequest(ReadPlan plan, Binder binder, JsonNode source) {
        if (plan.mode() != ReadPlan.Mode.GET || plan.lookups().size() != 1) {
            throw Messages.validation(Messages.BATCH_SELECT_NOT_SINGLE);
        }
        ObjectNode r = AttributeValues.JSON.objectNode();
        r.put("TableName", plan.table().name());
        r.set("Key", SelectExecution.lookups(plan, binder).get(0));
        r.put("ConsistentRead", source.path("ConsistentRead").asBoolean(false));
        return r;
    }

    /** A key of one table; JSON equality is value equality of the canonical wire values. */
    private record TableKey(String table, JsonNode key) {}

    private static void plan(Member m, Capacity.Mode mode) {
        ObjectNode r = m.request;
        if (mode != Capacity.Mode.NONE) {
            r.put("ReturnConsumedCapacity", "INDEXES");
        }
        if (m.write != null) {
            // always ALL_OLD inside: a failed conditional write is charged by the old item's size
            r.put("ReturnValuesOnConditionCheckFailure", "ALL_OLD");
        }
    }

    private static JsonNode key(Member m) {
        return m.write != null ? m.write.boundKey(m.request) : m.request.get("Key");
    }

    private ObjectNode run(Member m, CapacityTally capacity) {
        if (statements.engine.faults().throttleItem(OPERATION, m.table.name())) {
            return error(m, FaultInjector.provisionedThroughputExceeded());
        }
        String operation = m.write != null ? m.write.kind().operation : "GetItem";
        ObjectNode result;
        try {
            result = statements.engine.handle(operation, m.request);
        } catch (ApiException e) {
            if (e.type().equals("ConditionalCheckFailedException")) {
                JsonNode old = e.extra() == null ? null : e.extra().get("Item");
                // a conditional write that fails is charged as DynamoDB charges it
                capacity.tableWrite(
                        m.table.name(), Capacity.writeUnits(old == null ? 0 : ItemSize.of(old)));
            }
            return error(m, m.write == null ? e : StatementOperation.duplicateOnInsert(m.write, e));
        }
        capacity.add(result.get("ConsumedCapacity"));
        ObjectNode r = AttributeValues.JSON.objectNode();
        r.put("TableName", m.table.name());
        JsonNode item = m.write != null ? result.get("Attributes") : result.get("Item");
        if (item != null && !item.isEmpty()) {
            r.set(
                    "Item",
                    m.read != null
                            ? SelectExecution.project((ObjectNode) item, m.read.projection())
                            : item);
        }
        return r;
    }

    /** A statement's error in DynamoDB's BatchStatementError shape. */
    private static ObjectNode error(Member m, ApiException e) {
        ObjectNode r = AttributeValues.JSON.objectNode();
        if (m.table != null) {
            r.put("TableName", m.table.name());
        }
        ObjectNode err = r.putObject("Error");
        err.put("Code", code(e.type()));
        err.put("Message", e.getMessage());
        JsonNode item = e.extra() == null ? null : e.extra().get("Item");
        if (item != null
                && e.type().equals("ConditionalCheckFailedException")
                && "ALL_OLD"
                        .equals(m.source.path("ReturnValuesOnConditionCheckFailure").asText())) {
            err.set("Item", item);
        }
        return r;
    }

    /** DynamoDB's BatchStatementError code of an operation's error type. */
    static String code(String errorType) {
        return switch (errorType) {
            case "ConditionalCheckFailedException" -> "ConditionalCheckFailed";
            case "DuplicateItemException" -> "DuplicateItem";
            case "ResourceNotFoundException" -> "ResourceNotFound";
            case "ProvisionedThroughputExceededException" -> "ProvisionedThroughputExceeded";
            case "ThrottlingException" -> "ThrottlingError";
            case "TransactionConflictException" -> "TransactionConflict";
            case "RequestLimitExceeded" -> "RequestLimitExceeded";
            case "ItemCollectionSizeLimitExceededException" -> "ItemCollectionSizeLimitExceeded";
            case "AccessDeniedException" -> "AccessDenied";
            case "InternalServerError" -> "InternalServerError";
            default -> "ValidationError";
        };
    }
}
