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
import io.streamledger.model.keys.KeyPaths;
import io.streamledger.model.money.AmountException;
import io.streamledger.model.money.QuantityPolicy;
import java.util.List;
import java.util.Map;
import java.util.Set;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;

/**
 * Trade reads: AP04 order trades (IDX04, strong, ascending), AP05 account trades (GSI1/IDX05) and
 * AP06 symbol trades (GSI2/IDX06), eventual and newest first, with an opaque cursor.
 */
public final class TradeQueries {

    private final Ddb ddb;
    private final TableNames tables;

    public TradeQueries(Ddb ddb, TableNames tables) {
        this.ddb = ddb;
        this.tables = tables;
    }

    public ObjectNode byOrder(
            String tenant, String orderId, String cursor, Integer limit, CapacityMeter meter) {
        Fields.checkId("order id", orderId);
        return page(
                null,
                Schema.PK,
                Schema.orderPk(tenant, orderId),
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
                false,
                Set.of(Schema.PK, Schema.SK, Schema.GSI1PK, Schema.GSI1SK),
                false,
                false,
                cursor,
                limit,
                meter);
    }

    public ObjectNode bySymbol(
            String tenant, String symbol, String cursor, Integer limit, CapacityMeter meter) {
        try {
            QuantityPolicy.requireSymbol(symbol);
        } catch (AmountException e) {
            throw ApiException.badRequest("INVALID_SYMBOL", e.getMessage());
        }
        return page(
                Schema.TRADES_BY_SYMBOL_INDEX,
                Schema.GSI2PK,
                Schema.symbolPk(tenant, symbol),
                true,
                Set.of(Schema.PK, Schema.SK, Schema.GSI2PK, Schema.GSI2SK),
                false,
                false,
                cursor,
                limit,
                meter);
    }

    private ObjectNode page(
            String index,
            String pkAttr,
            String pkValue,
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
                        .keyConditionExpression("#pk = :pk")
                        .expressionAttributeNames(Map.of("#pk", pkAttr))
                        .expressionAttributeValues(Map.of(":pk", Av.s(pkValue)))
                        .scanIndexForward(ascending)
                        .limit(size)
                        .exclusiveStartKey(start);
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
