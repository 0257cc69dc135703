package io.streamledger.local.partiql;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.streamledger.local.dynamodb.DynamoDbEngine;
import io.streamledger.local.dynamodb.Table;
import io.streamledger.local.spi.ApiException;
import io.streamledger.local.spi.ApiExtension;
import java.nio.charset.StandardCharsets;
import java.util.Set;

/**
 * DynamoDB's PartiQL API — ExecuteStatement, BatchExecuteStatement, ExecuteTransaction — served by
 * translating each statement into the engine's item operations (GetItem, Query, Scan, PutItem,
 * UpdateItem, DeleteItem, TransactWriteItems, TransactGetItems), so conditions, capacity, stream
 * records and the Kinesis destination are exactly those of the equivalent item requests (AP16/AP17
 * guarded writes of the sinks, CS07 change records).
 */
public final class PartiQlApi implements ApiExtension {
    static final String PREFIX = "DynamoDB_20120810.";
    public static final String EXECUTE_STATEMENT = PREFIX + "ExecuteStatement";
    public static final String BATCH_EXECUTE_STATEMENT = PREFIX + "BatchExecuteStatement";
    public static final String EXECUTE_TRANSACTION = PREFIX + "ExecuteTransaction";

    /** DynamoDB's limit on the text of one statement. */
    static final int MAX_STATEMENT_LENGTH = 8192;

    private final StatementOperation statement;
    private final BatchStatementOperation batch;
    private final TransactionOperation transaction;

    public PartiQlApi(DynamoDbEngine engine) {
        Statements statements = new Statements(engine, new StatementCache());
        this.statement = new StatementOperation(statements);
        this.batch = new BatchStatementOperation(statements);
        this.transaction = new TransactionOperation(statements);
    }

    @Override
    public Set<String> targets() {
        return Set.of(EXECUTE_STATEMENT, BATCH_EXECUTE_STATEMENT, EXECUTE_TRANSACTION);
    }

    @Override
    public JsonNode handle(String target, ObjectNode request) {
        return switch (target) {
            case EXECUTE_STATEMENT -> statement.handle(request);
            case BATCH_EXECUTE_STATEMENT -> batch.handle(request);
            case EXECUTE_TRANSACTION -> transaction.handle(request);
            default ->
                    throw new ApiException(
                            "UnknownOperationException", 400, "Unknown operation: " + target);
        };
    }

    /** What the three operations share: the engine, the statement cache, table lookup. */
    static final class Statements {
        final DynamoDbEngine engine;
        final StatementCache cache;
        final SelectExecution selects;

        Statements(DynamoDbEngine engine, StatementCache cache) {
            this.engine = engine;
            this.cache = cache;
            this.selects = new SelectExecution(engine);
        }

        /** The statement text of a request member; DynamoDB's model validation when absent. */
        static String text(JsonNode holder, String member) {
            JsonNode s = holder.get("Statement");
            if (s == null || s.isNull()) {
                throw Messages.memberNull(member);
            }
            String text = s.asText();
            if (text.isEmpty()) {
                throw Messages.memberLength(member, text, "have length greater than or equal to 1");
            }
            if (text.length() > MAX_STATEMENT_LENGTH
                    && text.getBytes(StandardCharsets.UTF_8).length > MAX_STATEMENT_LENGTH) {
                throw Messages.memberLength(
                        member, text, "have length less than or equal to " + MAX_STATEMENT_LENGTH);
            }
            return text;
        }

        Table table(String name) {
            Table t = engine.liveTable(name);
            if (t == null) {
                throw ApiException.resourceNotFound("Requested resource not found");
            }
            return t;
        }
    }
}
