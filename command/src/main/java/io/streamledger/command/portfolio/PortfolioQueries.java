package io.streamledger.command.portfolio;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.streamledger.aws.items.Av;
import io.streamledger.command.api.ApiException;
import io.streamledger.command.api.Fields;
import io.streamledger.command.api.PageCursor;
import io.streamledger.command.api.StrictJson;
import io.streamledger.command.config.Schema;
import io.streamledger.command.config.TableNames;
import io.streamledger.command.dynamo.CapacityMeter;
import io.streamledger.command.dynamo.Ddb;
import io.streamledger.command.orders.OrderQueries;
import io.streamledger.model.keys.PositionKey;
import io.streamledger.model.projection.ProjectionSchema;
import io.streamledger.model.projection.ViewScope;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import javax.annotation.Nullable;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;
import software.amazon.awssdk.services.dynamodb.model.ResourceNotFoundException;

/**
 * GET /v1/accounts/{a}/portfolio (AP07 via IDX07): the derived Portfolio view of the namespace the
 * alias names, read eventually consistent and paginated. It never authorizes (AP07 vs AP12): the
 * body says {@code "authoritative": false} and carries each row's sourceVersion and gapOpen. An
 * account outside the namespace's view scope (house sub-accounts of a clients-only view) is 404
 * {@code NOT_IN_VIEW_SCOPE}, never an empty portfolio.
 */
public final class PortfolioQueries {

    /** Query parameters this route accepts; any other is 400 (a typo must not widen the read). */
    public static final Set<String> PARAMS = Set.of("symbol", "cursor", "limit");

    /** Synthetic cursor member pinning the namespace, so paging never mixes two namespaces. */
    static final String CURSOR_NAMESPACE = "namespaceVersion";

    public static final String WARNING =
            "AP07 derived view: eventually consistent and rebuildable; never use it to authorize"
                    + " orders, payments or reservations. The AP12 authority is"
                    + " GET /v1/accounts/{a}/balances.";

    private final Ddb ddb;
    private final TableNames tables;
    private final PortfolioAlias alias;

    public PortfolioQueries(Ddb ddb, TableNames tables) {
        this.ddb = ddb.ap("AP07");
        this.tables = tables;
        this.alias = new PortfolioAlias(ddb, tables);
    }

    public ObjectNode portfolio(
            String tenant,
            String accountId,
            @Nullable String symbol,
            @Nullable String cursor,
            @Nullable Integer limit,
            CapacityMeter meter) {
        Fields.checkId("account id", accountId);
        if (symbol != null) {
            Fields.checkId("symbol", symbol);
        }
        int pageSize = OrderQueries.pageSize(limit);
        String pk = Schema.portfolioPk(tenant, accountId);
        Map<String, AttributeValue> start =
                PageCursor.decode(
                        cursor, Set.of(Schema.PK, Schema.SK, CURSOR_NAMESPACE), Schema.PK, pk);
        PortfolioAlias.Active active;
        if (start == null) {
            active = alias.resolve(meter);
        } else {
            start = new HashMap<>(start);
            active = cursorNamespace(start.remove(CURSOR_NAMESPACE));
        }
        if (!active.scope().includes(accountId)) {
            throw new ApiException(
                    404,
                    "NOT_IN_VIEW_SCOPE",
                    "portfolio namespace v"
                            + active.version()
                            + " holds "
                            + active.scope().label()
                            + " accounts only, not "
                            + accountId
                            + "; its AP12 authority is GET /v1/accounts/{a}/balances");
        }
        String table = tables.portfolio(active.version());

        Map<String, String> names = new HashMap<>();
        Map<String, AttributeValue> values = new HashMap<>();
        names.put("#pk", Schema.PK);
        values.put(":pk", Av.s(pk));
        String condition = "#pk = :pk";
        if (symbol != null) {
            names.put("#sk", Schema.SK);
            values.put(":sk", Av.s(Schema.position(tenant, accountId, symbol).sk()));
            condition += " AND #sk = :sk";
        }
        QueryResponse r;
        try {
            r =
                    ddb.query(
                            QueryRequest.builder()
                                    .tableName(table)
                                    .keyConditionExpression(condition)
                                    .expressionAttributeNames(names)
                                    .expressionAttributeValues(values)
                                    .consistentRead(false)
                                    .limit(pageSize)
                                    .exclusiveStartKey(start),
                            meter);
        } catch (ResourceNotFoundException e) {
            throw new ApiException(
                    503,
                    "PORTFOLIO_NAMESPACE_UNAVAILABLE",
                    "portfolio namespace v"
                            + active.version()
                            + " ("
                            + table
                            + ") does not exist: not yet projected, or retired since the cursor"
                            + " was issued (restart without a cursor)");
        }

        ObjectNode body = StrictJson.MAPPER.createObjectNode();
        body.put("accountId", accountId);
        ArrayNode rows = body.putArray("positions");
        for (Map<String, AttributeValue> item : r.items()) {
            rows.add(view(item));
        }
        String next = null;
        if (r.hasLastEvaluatedKey() && !r.lastEvaluatedKey().isEmpty()) {
            Map<String, AttributeValue> lek = new HashMap<>(r.lastEvaluatedKey());
            lek.put(CURSOR_NAMESPACE, Av.s(active.version() + "/" + active.scope().label()));
            next = PageCursor.encode(lek);
        }
        if (next != null) {
            body.put("cursor", next);
        } else {
            body.putNull("cursor");
        }
        body.put("namespaceVersion", active.version());
        body.put("namespaceSource", active.source().name());
        body.put("viewScope", active.scope().label());
        body.put("consistency", "eventual");
        body.put("authoritative", false);
        body.put("warning", WARNING);
        return body;
    }

    /** The namespace a cursor pinned: {@code version/scope}, or {@code version} (every account). */
    private static PortfolioAlias.Active cursorNamespace(AttributeValue v) {
        try {
            String[] parts = v.s().split("/", 2);
            int version = Integer.parseInt(parts[0]);
            if (version >= 1) {
                return new PortfolioAlias.Active(
                        version,
                        PortfolioAlias.Source.CURSOR,
                        ViewScope.parse(parts.length == 2 ? parts[1] : null));
            }
        } catch (IllegalArgumentException e) {
            // falls through to the same 400 as any other malformed cursor
        }
        throw ApiException.badRequest(
                "INVALID_CURSOR", "cursor is not a cursor issued by this service");
    }

    /** One row as the projection wrote it; amounts stay exact decimal strings. */
    static ObjectNode view(Map<String, AttributeValue> item) {
        PositionKey key = PositionKey.parse(Av.reqStr(item, Schema.PK), Av.reqStr(item, Schema.SK));
        ObjectNode o = StrictJson.MAPPER.createObjectNode();
        o.put("symbol", key.symbol());
        o.put("assetType", Av.str(item, ProjectionSchema.ASSET_TYPE));
        o.put("asset", Av.str(item, ProjectionSchema.ASSET));
        putDecimal(o, "posted", item, ProjectionSchema.POSTED);
        putDecimal(o, "reserved", item, ProjectionSchema.RESERVED);
        putDecimal(o, "available", item, ProjectionSchema.AVAILABLE);
        AttributeValue sv = item.get(ProjectionSchema.SOURCE_VERSION);
        if (sv != null && sv.n() != null) {
            o.put("sourceVersion", Long.parseLong(sv.n()));
        } else {
            o.putNull("sourceVersion");
        }
        AttributeValue gap = item.get(ProjectionSchema.GAP_OPEN);
        if (gap != null && gap.bool() != null) {
            o.put("gapOpen", gap.bool());
        } else {
            o.putNull("gapOpen");
        }
        AttributeValue parked = item.get(ProjectionSchema.PARKED);
        if (parked != null && parked.n() != null) {
            o.put("parkedCount", Long.parseLong(parked.n()));
        }
        o.put("projectedAt", Av.str(item, ProjectionSchema.PROJECTED_AT));
        return o;
    }

    private static void putDecimal(
            ObjectNode o, String field, Map<String, AttributeValue> item, String attribute) {
        java.math.BigDecimal v = Av.dec(item, attribute);
        if (v != null) {
            o.put(field, v.toPlainString());
        } else {
            o.putNull(field);
        }
    }
}
