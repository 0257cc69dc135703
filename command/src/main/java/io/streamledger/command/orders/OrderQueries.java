package io.streamledger.command.orders;

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
import java.util.Map;
import java.util.Set;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;

/**
 * Order reads: AP01 strong get of the aggregate (IDX01) and the eventual AP02/AP03 listings through
 * GSI1 (IDX02) and the sparse status GSI2 (IDX03), newest first, with an opaque cursor.
 */
public final class OrderQueries {

    public static final int DEFAULT_PAGE = 50;
    public static final int MAX_PAGE = 100;

    private final Ddb ddb;
    private final TableNames tables;

    public OrderQueries(Ddb ddb, TableNames tables) {
        this.ddb = ddb;
        this.tables = tables;
    }

    public ObjectNode get(String tenant, String orderId, CapacityMeter meter) {
        Fields.checkId("order id", orderId);
        Map<String, AttributeValue> item =
                ddb.ap("AP01").getStrong(tables.orders(), OrderItems.key(tenant, orderId), meter);
        if (item == null) {
            throw ApiException.notFound("order '" + orderId + "' not found");
        }
        ObjectNode body = StrictJson.MAPPER.createObjectNode();
        body.set("order", OrderItems.view(item));
        return body;
    }

    public ObjectNode listByAccount(
            String tenant,
            String accountId,
            String status,
            String cursor,
            Integer limit,
            CapacityMeter meter) {
        Fields.checkId("account id", accountId);
        int pageSize = pageSize(limit);
        String index;
        boolean statusIndex = status != null && !status.isEmpty();
        String pkAttr;
        String skAttr;
        String pkValue;
        if (status == null || status.isEmpty()) {
            index = Schema.ORDERS_BY_ACCOUNT_INDEX;
            pkAttr = Schema.GSI1PK;
            skAttr = Schema.GSI1SK;
            pkValue = Schema.accountPk(tenant, accountId);
        } else {
            OrderStatus s;
            try {
                s = OrderStatus.valueOf(status);
            } catch (IllegalArgumentException e) {
                throw ApiException.badRequest(
                        "INVALID_FIELD",
                        "status must be one of " + java.util.Arrays.toString(OrderStatus.values()));
            }
            if (s.terminal()) {
                throw ApiException.badRequest(
                        "INVALID_FIELD",
                        "status "
                                + s
                                + " is terminal; terminal orders leave the status index (AP03)"
                                + " and are listed without a status filter");
            }
            index = Schema.ORDERS_BY_STATUS_INDEX;
            pkAttr = Schema.GSI2PK;
            skAttr = Schema.GSI2SK;
            pkValue = Schema.accountStatusPk(tenant, accountId, s.name());
        }
        Map<String, AttributeValue> start =
                PageCursor.decode(
                        cursor, Set.of(Schema.PK, Schema.SK, pkAttr, skAttr), pkAttr, pkValue);
        QueryResponse r =
                ddb.ap(Schema.ORDERS_BY_STATUS_INDEX.equals(index) ? "AP03" : "AP02")
                        .query(
                                QueryRequest.builder()
                                        .tableName(tables.orders())
                                        .indexName(index)
                                        .keyConditionExpression("#pk = :pk")
                                        .expressionAttributeNames(Map.of("#pk", pkAttr))
                                        .expressionAttributeValues(Map.of(":pk", Av.s(pkValue)))
                                        .scanIndexForward(false)
                                        .limit(pageSize)
                                        .exclusiveStartKey(start),
                                meter);
        ObjectNode body = StrictJson.MAPPER.createObjectNode();
        ArrayNode items = body.putArray("orders");
        for (Map<String, AttributeValue> item : r.items()) {
            items.add(OrderItems.summary(item, statusIndex));
        }
        String next = PageCursor.encode(r.lastEvaluatedKey());
        if (next != null) {
            body.put("cursor", next);
        } else {
            body.putNull("cursor");
        }
        body.put("consistency", "eventual");
        return body;
    }

    public static int pageSize(Integer limit) {
        if (limit == null) {
            return DEFAULT_PAGE;
        }
        if (limit < 1 || limit > MAX_PAGE) {
            throw ApiException.badRequest(
                    "INVALID_FIELD", "limit must be between 1 and " + MAX_PAGE);
        }
        return limit;
    }
}
