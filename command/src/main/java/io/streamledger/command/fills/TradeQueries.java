package io.streamledger.command.fills;

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
import io.streamledger.model.keys.KeyOrder;
import io.streamledger.model.keys.KeyPaths;
import io.streamledger.model.keys.KeyTime;
import io.streamledger.model.keys.TradeBySymbolKey;
import io.streamledger.model.money.AmountException;
import io.streamledger.model.money.QuantityPolicy;
import io.streamledger.model.shard.SymbolSharding;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.annotation.Nullable;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;

/**
 * Trade reads: AP04 order trades (IDX04, strong, ascending), AP05 account trades (GSI1/IDX05) and
 * AP06 symbol trades (GSI2/IDX06), eventual and newest first, with an opaque cursor; a symbol with
 * AP06 write sharding configured is read by a fan-out merge with a compound cursor.
 */
public final class TradeQueries {

    private final Ddb ddb;
    private final TableNames tables;
    private final SymbolSharding sharding;

    public TradeQueries(Ddb ddb, TableNames tables, SymbolSharding sharding) {
        this.ddb = ddb;
        this.tables = tables;
        this.sharding = sharding;
    }

    public ObjectNode byOrder(
            String tenant, String orderId, String cursor, Integer limit, CapacityMeter meter) {
        Fields.checkId("order id", orderId);
        return page(
                null,
                Schema.PK,
                Schema.orderPk(tenant, orderId),
                null,
                false,
                Set.of(Schema.PK, Schema.SK),
                true,
                true,
                cursor,
                limit,
                meter);
    }

    public ObjectNode byAccount(
            String tenant, String accountId, String cursor, Integer limit, CapacityMeter meter) {
        Fields.checkId("account id", accountId);
        return page(
                Schema.TRADES_BY_ACCOUNT_INDEX,
                Schema.GSI1PK,
                Schema.tradesOfAccountPk(tenant, accountId),
                null,
                false,
                Set.of(Schema.PK, Schema.SK, Schema.GSI1PK, Schema.GSI1SK),
                false,
                false,
                cursor,
                limit,
                meter);
    }

    /**
     * AP06: newest first, optionally only executions at or after {@code from}. An unsharded symbol
     * is one Query with today's cursor; a write-sharded one fans out over its partitions.
     */
    public ObjectNode bySymbol(
            String tenant,
            String symbol,
            @Nullable String from,
            String cursor,
            Integer limit,
            CapacityMeter meter) {
        try {
            QuantityPolicy.requireSymbol(symbol);
        } catch (AmountException e) {
            throw ApiException.badRequest("INVALID_SYMBOL", e.getMessage());
        }
        String fromSk = from == null || from.isEmpty() ? null : sortKeyAt(from(from));
        SymbolSharding.Plan plan = sharding.plan(symbol);
        if (plan.generations().size() > 1) {
            return shardedBySymbol(tenant, symbol, plan, fromSk, cursor, limit, meter);
        }
        return page(
                Schema.TRADES_BY_SYMBOL_INDEX,
                Schema.GSI2PK,
                Schema.symbolPk(tenant, symbol),
                fromSk,
                true,
                Set.of(Schema.PK, Schema.SK, Schema.GSI2PK, Schema.GSI2SK),
                false,
                false,
                cursor,
                limit,
                meter);
    }

    private ObjectNode shardedBySymbol(
            String tenant,
            String symbol,
            SymbolSharding.Plan plan,
            @Nullable String fromSk,
            String cursor,
            Integer limit,
            CapacityMeter meter) {
        int size = OrderQueries.pageSize(limit);
        List<Integer> shards = plan.readShards();
        SymbolTradeCursor.Binding binding =
                new SymbolTradeCursor.Binding(tenant, symbol, fromSk, plan.version());
        SymbolTradeCursor.State state = SymbolTradeCursor.decode(cursor, binding, shards);
        // no #SHARD# partition holds an execution before the first sharded cutover
        String shardedFromSk = plan.shardedFrom() == null ? null : sortKeyAt(plan.shardedFrom());
        String shardFloor =
                fromSk == null
                                || (shardedFromSk != null
                                        && KeyOrder.compare(shardedFromSk, fromSk) > 0)
                        ? shardedFromSk
                        : fromSk;
        SymbolTradeMerge.Page page =
                SymbolTradeMerge.page(
                        state.positions(),
                        state.watermark(),
                        size,
                        (shard, start, n) -> {
                            QueryResponse r =
                                    ddb.ap("AP06")
                                            .query(
                                                    symbolQuery(
                                                            TradeBySymbolKey.partition(
                                                                    tenant, symbol, shard),
                                                            shard == TradeBySymbolKey.UNSHARDED
                                                                    ? fromSk
                                                                    : shardFloor,
                                                            start,
                                                            n),
                                                    meter);
                            return new SymbolTradeMerge.Fetched(
                                    r.items(),
                                    r.hasLastEvaluatedKey() ? r.lastEvaluatedKey() : null);
                        });
        ObjectNode body = StrictJson.MAPPER.createObjectNode();
        ArrayNode items = body.putArray("trades");
        page.items().forEach(item -> items.add(TradeItems.summary(item, true)));
        String next =
                SymbolTradeCursor.encode(
                        binding, new SymbolTradeCursor.State(page.positions(), page.watermark()));
        if (next != null) {
            body.put("cursor", next);
        } else {
            body.putNull("cursor");
        }
        body.put("consistency", "eventual");
        body.put("shardVersion", plan.version());
        body.put("partitions", shards.size());
        return body;
    }

    private QueryRequest.Builder symbolQuery(
            String partition,
            @Nullable String fromSk,
            @Nullable Map<String, AttributeValue> start,
            int limit) {
        QueryRequest.Builder q =
                QueryRequest.builder()
                        .tableName(tables.execution())
                        .indexName(Schema.TRADES_BY_SYMBOL_INDEX)
                        .scanIndexForward(false)
                        .limit(limit)
                        .exclusiveStartKey(start);
        keyCondition(q, Schema.GSI2PK, partition, Schema.GSI2SK, fromSk);
        return q;
    }

    private static void keyCondition(
            QueryRequest.Builder q,
            String pkAttr,
            String pkValue,
            String skAttr,
            @Nullable String skFrom) {
        if (skFrom == null) {
            q.keyConditionExpression("#pk = :pk")
                    .expressionAttributeNames(Map.of("#pk", pkAttr))
                    .expressionAttributeValues(Map.of(":pk", Av.s(pkValue)));
        } else {
            q.keyConditionExpression("#pk = :pk AND #sk >= :from")
                    .expressionAttributeNames(Map.of("#pk", pkAttr, "#sk", skAttr))
                    .expressionAttributeValues(Map.of(":pk", Av.s(pkValue), ":from", Av.s(skFrom)));
        }
    }

    private static Instant from(String text) {
        try {
            return Instant.parse(text);
        } catch (DateTimeParseException e) {
            throw ApiException.badRequest(
                    "INVALID_FIELD",
                    "query parameter 'from' must be an ISO-8601 UTC instant, got '" + text + "'");
        }
    }

    /** The IDX06 sort-key bound of an instant: {@code TRADE#at}, below every trade at it. */
    private static String sortKeyAt(Instant at) {
        return KeyPaths.IDX06_SK.literalPrefix() + KeyTime.format(KeyTime.normalise("from", at));
    }

    private ObjectNode page(
            String index,
            String pkAttr,
            String pkValue,
            @Nullable String skFrom,
            boolean bySymbol,
            Set<String> keyAttrs,
            boolean ascending,
            boolean strong,
            String cursor,
            Integer limit,
            CapacityMeter meter) {
        int size = OrderQueries.pageSize(limit);
        Map<String, AttributeValue> start = PageCursor.decode(cursor, keyAttrs, pkAttr, pkValue);
        QueryRequest.Builder q =
                QueryRequest.builder()
                        .tableName(tables.execution())
                        .scanIndexForward(ascending)
                        .limit(size)
                        .exclusiveStartKey(start);
        keyCondition(q, pkAttr, pkValue, Schema.GSI2SK, skFrom);
        if (index != null) {
            q.indexName(index);
        } else {
            q.consistentRead(strong);
        }
        QueryResponse r = ddb.ap(tradeAp(index)).query(q, meter);
        ObjectNode body = StrictJson.MAPPER.createObjectNode();
        ArrayNode items = body.putArray("trades");
        for (Map<String, AttributeValue> item : r.items()) {
            items.add(index == null ? TradeItems.view(item) : TradeItems.summary(item, bySymbol));
        }
        String next = PageCursor.encode(r.lastEvaluatedKey());
        if (next != null) {
            body.put("cursor", next);
        } else {
            body.putNull("cursor");
        }
        body.put("consistency", strong ? "strong" : "eventual");
        return body;
    }

    /** AP04 on the order's own key (IDX04), AP05 by account (IDX05), AP06 by symbol (IDX06). */
    private static String tradeAp(String index) {
        if (index == null) {
            return "AP04";
        }
        return Schema.TRADES_BY_SYMBOL_INDEX.equals(index) ? "AP06" : "AP05";
    }

    /** One trade of an order by its tradeId (AP04, strong): a Query of the order's fills. */
    public @javax.annotation.Nullable Map<String, AttributeValue> find(
            String tenant, String orderId, String tradeId, CapacityMeter meter) {
        List<Map<String, AttributeValue>> found =
                ddb.ap("AP04")
                        .queryAll(
                                QueryRequest.builder()
                                        .tableName(tables.execution())
                                        .keyConditionExpression(
                                                "#pk = :pk AND begins_with(#sk, :trade)")
                                        .filterExpression("#tid = :tid")
                                        .expressionAttributeNames(
                                                Map.of(
                                                        "#pk",
                                                        Schema.PK,
                                                        "#sk",
                                                        Schema.SK,
                                                        "#tid",
                                                        TradeItems.A_TRADE_ID))
                                        .expressionAttributeValues(
                                                Map.of(
                                                        ":pk",
                                                        Av.s(Schema.orderPk(tenant, orderId)),
                                                        ":trade",
                                                        Av.s(KeyPaths.IDX04_SK.literalPrefix()),
                                                        ":tid",
                                                        Av.s(tradeId)))
                                        .consistentRead(true),
                                meter);
        return found.isEmpty() ? null : found.get(0);
    }
}
