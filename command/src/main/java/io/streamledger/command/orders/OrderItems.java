package io.streamledger.command.orders;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.streamledger.aws.items.Av;
import io.streamledger.command.api.StrictJson;
import io.streamledger.command.config.Schema;
import io.streamledger.model.keys.ClientOrderKey;
import io.streamledger.model.keys.OrderByAccountKey;
import io.streamledger.model.keys.OrderByStatusKey;
import io.streamledger.model.keys.OrderExpiryKey;
import io.streamledger.model.keys.OrderKey;
import io.streamledger.model.money.Money;
import io.streamledger.model.table.Attr;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import javax.annotation.Nullable;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * The order aggregate item (IDX01) with its projected GSI1 account-summary keys (IDX02), the sparse
 * GSI2 status membership (IDX03) and the sparse GSI3 due-time entry of a DAY/GTD order
 * (ORDER-EXPIRY), both absent once terminal, the AP17 sentinel (IDX18), and their JSON views (AP01
 * full, AP02/AP03 index summary).
 */
public final class OrderItems {

    public static final String A_TENANT = "tenant";
    public static final String A_ORDER_ID = Attr.ORDER_ID;
    public static final String A_CLIENT_ORDER_ID = "clientOrderId";
    public static final String A_ACCOUNT = Attr.ACCOUNT;
    public static final String A_SYMBOL = Attr.SYMBOL;
    public static final String A_SIDE = Attr.SIDE;
    public static final String A_TYPE = "type";
    public static final String A_QUANTITY = Attr.QUANTITY;
    public static final String A_FILLED = Attr.FILLED_QUANTITY;
    public static final String A_REMAINING = "remainingQuantity";
    public static final String A_LIMIT_PRICE = "limitPrice";
    public static final String A_CURRENCY = Attr.CURRENCY;
    public static final String A_STATUS = Attr.STATUS;
    public static final String A_VERSION = Attr.VERSION;
    public static final String A_CREATED = Attr.CREATED_AT;
    public static final String A_UPDATED = "updatedAt";
    public static final String A_FINGERPRINT = Attr.FINGERPRINT;
    public static final String A_REQUEST_KEY = "requestKey";
    public static final String A_TIME_IN_FORCE = "timeInForce";

    /** Epoch millis of a DAY order's expiry (immutable; absent for GTC). */
    public static final String A_EXPIRES_AT_MS = "expiresAtMs";

    /**
     * Index keys only an open order carries: a fill to FILLED, a cancel, an expiry REMOVE them in
     * the transaction that closes the order (IDX03 membership, ORDER-EXPIRY due-time entry).
     */
    public static final String[] OPEN_ONLY_KEYS = {
        Schema.GSI2PK, Schema.GSI2SK, Attr.EXPIRY_PK, Attr.EXPIRY_SK
    };

    /** Sentinel (IDX18) attributes. */
    public static final String S_ORDER_ID = Attr.ORDER_ID;

    public static final String S_FINGERPRINT = Attr.FINGERPRINT;

    private OrderItems() {}

    public static Map<String, AttributeValue> key(String tenant, String orderId) {
        OrderKey k = new OrderKey(tenant, orderId);
        return Map.of(Schema.PK, Av.s(k.pk()), Schema.SK, Av.s(k.sk()));
    }

    public static Map<String, AttributeValue> sentinelKey(String tenant, String clientOrderId) {
        ClientOrderKey k = Schema.clientOrder(tenant, clientOrderId);
        return Map.of(Schema.PK, Av.s(k.pk()), Schema.SK, Av.s(k.sk()));
    }

    public static Map<String, AttributeValue> newOrder(
            String tenant,
            String orderId,
            PlaceOrderCommand c,
            Instant at,
            @Nullable Instant expiresAt,
            String fingerprint,
            String requestKey) {
        Map<String, AttributeValue> item = new HashMap<>(key(tenant, orderId));
        item.put(A_TENANT, Av.s(tenant));
        item.put(A_ORDER_ID, Av.s(orderId));
        item.put(A_CLIENT_ORDER_ID, Av.s(c.clientOrderId()));
        item.put(A_ACCOUNT, Av.s(c.accountId()));
        item.put(A_SYMBOL, Av.s(c.symbol()));
        item.put(A_SIDE, Av.s(c.side().name()));
        item.put(A_TYPE, Av.s(c.type().name()));
        item.put(A_QUANTITY, Av.n(c.quantity().value()));
        item.put(A_FILLED, Av.n(BigDecimal.ZERO));
        item.put(A_REMAINING, Av.n(c.quantity().value()));
        if (c.limitPrice() != null) {
            item.put(A_LIMIT_PRICE, Av.n(c.limitPrice().amount()));
        }
        item.put(A_CURRENCY, Av.s(c.currency()));
        item.put(A_STATUS, Av.s(OrderStatus.ACCEPTED.name()));
        item.put(A_VERSION, Av.n(1));
        item.put(A_CREATED, Av.s(at.toString()));
        item.put(A_UPDATED, Av.s(at.toString()));
        item.put(A_FINGERPRINT, Av.s(fingerprint));
        item.put(A_REQUEST_KEY, Av.s(requestKey));
        if (expiresAt != null) {
            item.put(A_TIME_IN_FORCE, Av.s(c.timeInForce().name()));
            item.put(A_EXPIRES_AT_MS, Av.n(expiresAt.toEpochMilli()));
            item.putAll(expiryKeys(tenant, orderId, expiresAt));
        }
        OrderByAccountKey byAccount = Schema.orderByAccount(tenant, c.accountId(), at, orderId);
        item.put(Schema.GSI1PK, Av.s(byAccount.pk()));
        item.put(Schema.GSI1SK, Av.s(byAccount.sk()));
        OrderByStatusKey byStatus =
                Schema.orderByStatus(
                        tenant, c.accountId(), OrderStatus.ACCEPTED.name(), at, orderId);
        item.put(Schema.GSI2PK, Av.s(byStatus.pk()));
        item.put(Schema.GSI2SK, Av.s(byStatus.sk()));
        return item;
    }

    /** The ORDER-EXPIRY due-time entry of an open order expiring at {@code expiresAt}. */
    public static Map<String, AttributeValue> expiryKeys(
            String tenant, String orderId, Instant expiresAt) {
        OrderExpiryKey k = OrderExpiryKey.forOrder(tenant, orderId, expiresAt);
        return Map.of(Attr.EXPIRY_PK, Av.s(k.pk()), Attr.EXPIRY_SK, Av.s(k.sk()));
    }

    public static Map<String, AttributeValue> sentinel(
            String tenant, String clientOrderId, String orderId, String fingerprint) {
        Map<String, AttributeValue> item = new HashMap<>(sentinelKey(tenant, clientOrderId));
        item.put(S_ORDER_ID, Av.s(orderId));
        item.put(S_FINGERPRINT, Av.s(fingerprint));
        return item;
    }

    /** The public JSON view of an order item; amounts as exact decimal strings. */
    public static ObjectNode view(Map<String, AttributeValue> item) {
        ObjectNode o = StrictJson.MAPPER.createObjectNode();
        String ccy = Av.reqStr(item, A_CURRENCY);
        o.put("orderId", Av.reqStr(item, A_ORDER_ID));
        o.put("clientOrderId", Av.reqStr(item, A_CLIENT_ORDER_ID));
        o.put("accountId", Av.reqStr(item, A_ACCOUNT));
        o.put("symbol", Av.reqStr(item, A_SYMBOL));
        o.put("side", Av.reqStr(item, A_SIDE));
        o.put("type", Av.reqStr(item, A_TYPE));
        o.put("quantity", plain(Av.dec(item, A_QUANTITY)));
        o.put("filledQuantity", plain(Av.dec(item, A_FILLED)));
        o.put("remainingQuantity", plain(Av.dec(item, A_REMAINING)));
        BigDecimal limit = Av.dec(item, A_LIMIT_PRICE);
        if (limit != null) {
            o.put("limitPrice", Money.of(limit, ccy).amount().toPlainString());
        }
        o.put("currency", ccy);
        o.put("status", Av.reqStr(item, A_STATUS));
        long expiresAtMs = Av.lng(item, A_EXPIRES_AT_MS, 0);
        if (expiresAtMs > 0) {
            o.put("timeInForce", Av.reqStr(item, A_TIME_IN_FORCE));
            o.put("expiresAt", Instant.ofEpochMilli(expiresAtMs).toString());
        }
        o.put("version", Av.lng(item, A_VERSION, 0));
        o.put("createdAt", Av.reqStr(item, A_CREATED));
        o.put("updatedAt", Av.reqStr(item, A_UPDATED));
        return o;
    }

    /**
     * The AP02/AP03 listing view from an index item: its keys plus the INCLUDE-projected summary
     * attributes of the TableSpec (status, symbol, side, quantity, filledQuantity, version).
     */
    public static ObjectNode summary(Map<String, AttributeValue> item, boolean statusIndex) {
        ObjectNode o = StrictJson.MAPPER.createObjectNode();
        String orderId;
        Instant at;
        if (statusIndex) {
            OrderByStatusKey k =
                    OrderByStatusKey.parse(
                            Av.reqStr(item, Schema.GSI2PK), Av.reqStr(item, Schema.GSI2SK));
            orderId = k.orderId();
            at = k.at();
        } else {
            OrderByAccountKey k =
                    OrderByAccountKey.parse(
                            Av.reqStr(item, Schema.GSI1PK), Av.reqStr(item, Schema.GSI1SK));
            orderId = k.orderId();
            at = k.at();
        }
        o.put("orderId", orderId);
        o.put("createdAt", at.toString());
        o.put("status", Av.str(item, A_STATUS));
        o.put("symbol", Av.str(item, A_SYMBOL));
        o.put("side", Av.str(item, A_SIDE));
        o.put("quantity", plain(Av.dec(item, A_QUANTITY)));
        o.put("filledQuantity", plain(Av.dec(item, A_FILLED)));
        o.put("version", Av.lng(item, A_VERSION, 0));
        return o;
    }

    static String plain(BigDecimal v) {
        if (v == null) {
            return null;
        }
        return v.signum() == 0 ? "0" : v.stripTrailingZeros().toPlainString();
    }
}
