package io.streamledger.command.ops;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.javalin.Javalin;
import io.streamledger.aws.items.OpsAuditItems;
import io.streamledger.command.api.HttpApi;
import io.streamledger.command.api.PageCursor;
import io.streamledger.command.api.StrictJson;
import io.streamledger.model.table.Attr;
import java.time.LocalDate;
import java.util.Map;
import java.util.Set;
import javax.annotation.Nullable;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;

/**
 * The auditor's read of the append-only ops audit ({@link OpsAuditItems}: who, when, what,
 * before/after version of every AP14/AP15/AP18 and dead-letter action): one tenant's UTC day in
 * time order, a strong Query of one partition, paginated with a cursor bound to that partition.
 */
public final class AuditQueries {

    public static final int MAX_PAGE = 100;

    static final int DEFAULT_PAGE = 50;

    private static final Set<String> CURSOR_ATTRS = Set.of(Attr.PK, Attr.SK);

    private final DynamoDbClient ddb;
    private final String table;

    /**
     * @param table the Reconciliation table, where the audit items live
     */
    public AuditQueries(DynamoDbClient ddb, String table) {
        this.ddb = ddb;
        this.table = table;
    }

    void register(Javalin app) {
        app.get(
                "/v1/ops/audit",
                ctx -> {
                    HttpApi.onlyParams(ctx, Set.of("date", "limit", "cursor", "tenant"));
                    HttpApi.writeRead(
                            ctx,
                            list(
                                    HttpApi.tenant(ctx),
                                    BatchQueries.requiredDate(ctx),
                                    ctx.queryParam("cursor"),
                                    BatchQueries.pageLimit(ctx, MAX_PAGE, DEFAULT_PAGE)));
                });
    }

    /** One page of a tenant's audit entries of {@code date} (UTC), oldest first. */
    public ObjectNode list(String tenant, LocalDate date, @Nullable String cursor, int limit) {
        String pk = OpsAuditItems.PK.build(tenant, date.toString());
        Map<String, AttributeValue> start = PageCursor.decode(cursor, CURSOR_ATTRS, Attr.PK, pk);
        QueryResponse r =
                ddb.query(
                        q ->
                                q.tableName(table)
                                        .keyConditionExpression("#pk = :pk")
                                        .expressionAttributeNames(Map.of("#pk", Attr.PK))
                                        .expressionAttributeValues(
                                                Map.of(":pk", AttributeValue.fromS(pk)))
                                        .exclusiveStartKey(start)
                                        .consistentRead(true)
                                        .limit(limit));
        ObjectNode o = StrictJson.MAPPER.createObjectNode();
        ArrayNode items = o.putArray("items");
        r.items().forEach(i -> items.add(doc(OpsAuditItems.view(i))));
        o.put("cursor", r.hasLastEvaluatedKey() ? PageCursor.encode(r.lastEvaluatedKey()) : null);
        o.put("consistency", "strong");
        return o;
    }

    private static ObjectNode doc(OpsAuditItems.Entry e) {
        ObjectNode o = StrictJson.MAPPER.createObjectNode();
        o.put("auditId", e.auditId());
        o.put("at", e.at().toString());
        o.put("actor", e.actor());
        o.put("role", e.role());
        o.put("keyId", e.keyId());
        o.put("action", e.action());
        o.put("targetType", e.targetType());
        o.put("target", e.target());
        o.put("fromStatus", e.fromStatus());
        o.put("toStatus", e.toStatus());
        o.put("fromVersion", e.fromVersion());
        o.put("toVersion", e.toVersion());
        o.set("detail", BatchQueries.json(e.detail()));
        return o;
    }
}
