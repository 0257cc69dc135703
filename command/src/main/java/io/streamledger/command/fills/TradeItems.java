package io.streamledger.command.fills;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.streamledger.aws.items.Av;
import io.streamledger.command.api.StrictJson;
import io.streamledger.command.config.DeterministicIds;
import io.streamledger.command.config.Schema;
import io.streamledger.model.keys.TradeByAccountKey;
import io.streamledger.model.keys.TradeBySymbolKey;
import io.streamledger.model.keys.TradeKey;
import io.streamledger.model.money.Money;
import io.streamledger.model.shard.SymbolSharding;
import io.streamledger.model.table.Attr;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * The trade item (IDX04, in the order's Execution collection) with its GSI1 account (IDX05) and
 * GSI2 symbol (IDX06) keys; plus its JSON view.
 */
public final class TradeItems {

    public static final String A_TENANT = "tenant";
    public static final String A_TRADE_ID = "tradeId";
    public static final String A_FILL_ID = "fillId";
    public static final String A_ORDER_ID = Attr.ORDER_ID;
    public static final String A_ACCOUNT = Attr.ACCOUNT;
    public static final String A_SYMBOL = Attr.SYMBOL;
    public static final String A_SIDE = Attr.SIDE;
    public static final String A_QUANTITY = Attr.QUANTITY;
    public static final String A_PRICE = Attr.PRICE;
    public static final String A_CURRENCY = Attr.CURRENCY;
    public static final String A_FEE = "fee";
    public static final String A_EXECUTED = "executedAt";
    public static final String A_ORDER_VERSION = Attr.ORDER_VERSION;
    public static final String A_ACCOUNT_EXEC_SEQ = Attr.ACCOUNT_EXEC_SEQ;

    private TradeItems() {}

    /** A validated trade, ready to write. */
    public record Trade(
            String tenant,
            String orderId,
            String fillId,
            String accountId,
            String symbol,
            String side,
            java.math.BigDecimal quantity,
            Money price,
            Money fee,
            Instant executedAt,
            long orderVersion,
            long accountExecSeq) {

        public String tradeId() {
            return orderId + ":" + fillId;
        }

        /** The id of this trade's TradeExecuted outbox event (AP16), hashed by AP06 sharding. */
        public String eventId() {
            return DeterministicIds.eventId(tradeId(), FillService.EVENT_TRADE_EXECUTED, 1);
        }
    }

    /** The item, its IDX06 entry placed by the AP06 configuration (unsharded by default). */
    public static Map<String, AttributeValue> item(Trade t, SymbolSharding sharding) {
        Map<String, AttributeValue> item = new HashMap<>();
        TradeKey key = Schema.trade(t.tenant(), t.orderId(), t.executedAt(), t.tradeId());
        TradeByAccountKey byAccount =
                Schema.tradeByAccount(t.tenant(), t.accountId(), t.executedAt(), t.tradeId());
        SymbolSharding.Placement bySymbol =
                sharding.place(t.tenant(), t.symbol(), t.executedAt(), t.tradeId(), t.eventId());
        item.put(Schema.PK, Av.s(key.pk()));
        item.put(Schema.SK, Av.s(key.sk()));
        item.put(A_TENANT, Av.s(t.tenant()));
        item.put(A_TRADE_ID, Av.s(t.tradeId()));
        item.put(A_FILL_ID, Av.s(t.fillId()));
        item.put(A_ORDER_ID, Av.s(t.orderId()));
        item.put(A_ACCOUNT, Av.s(t.accountId()));
        item.put(A_SYMBOL, Av.s(t.symbol()));
        item.put(A_SIDE, Av.s(t.side()));
        item.put(A_QUANTITY, Av.n(t.quantity()));
        item.put(A_PRICE, Av.n(t.price().amount()));
        item.put(A_CURRENCY, Av.s(t.price().currency()));
        item.put(A_FEE, Av.n(t.fee().amount()));
        item.put(A_EXECUTED, Av.s(t.executedAt().toString()));
        item.put(A_ORDER_VERSION, Av.n(t.orderVersion()));
        item.put(A_ACCOUNT_EXEC_SEQ, Av.n(t.accountExecSeq()));
        item.put(Schema.GSI1PK, Av.s(byAccount.pk()));
        item.put(Schema.GSI1SK, Av.s(byAccount.sk()));
        item.put(Schema.GSI2PK, Av.s(bySymbol.key().pk()));
        item.put(Schema.GSI2SK, Av.s(bySymbol.key().sk()));
        if (bySymbol.shardMapVersion() > 1) {
            // the seed's "record the shard version in items": which generation placed the entry
            item.put(Attr.SHARD_MAP_VERSION, Av.n(bySymbol.shardMapVersion()));
            item.put(Attr.HASH_VERSION, Av.n(bySymbol.hashVersion()));
        }
        return item;
    }

    /**
     * The AP05/AP06 listing view from an index item: key-derived trade id and time plus the
     * INCLUDE-projected attributes of that index.
     */
    public static ObjectNode summary(Map<String, AttributeValue> item, boolean bySymbol) {
        ObjectNode o = StrictJson.MAPPER.createObjectNode();
        String tradeId;
        Instant at;
        if (bySymbol) {
            TradeBySymbolKey k =
                    TradeBySymbolKey.parse(
                            Av.reqStr(item, Schema.GSI2PK), Av.reqStr(item, Schema.GSI2SK));
            tradeId = k.tradeId();
            at = k.at();
            o.put("symbol", k.symbol());
        } else {
            TradeByAccountKey k =
                    TradeByAccountKey.parse(
                            Av.reqStr(item, Schema.GSI1PK), Av.reqStr(item, Schema.GSI1SK));
            tradeId = k.tradeId();
            at = k.at();
            o.put("accountId", k.account());
        }
        o.put("tradeId", tradeId);
        o.put("executedAt", at.toString());
        o.put("orderId", Av.str(item, A_ORDER_ID));
        if (bySymbol) {
            o.put("accountId", Av.str(item, A_ACCOUNT));
        } else {
            o.put("symbol", Av.str(item, A_SYMBOL));
            o.put("side", Av.str(item, A_SIDE));
        }
        String ccy = Av.str(item, A_CURRENCY);
        java.math.BigDecimal q = Av.dec(item, A_QUANTITY);
        o.put("quantity", q == null ? null : q.stripTrailingZeros().toPlainString());
        java.math.BigDecimal p = Av.dec(item, A_PRICE);
        o.put("price", p == null || ccy == null ? null : Money.of(p, ccy).amount().toPlainString());
        o.put("currency", ccy);
        return o;
    }

    public static ObjectNode view(Map<String, AttributeValue> item) {
        ObjectNode o = StrictJson.MAPPER.createObjectNode();
        String ccy = Av.reqStr(item, A_CURRENCY);
        o.put("tradeId", Av.reqStr(item, A_TRADE_ID));
        o.put("fillId", Av.reqStr(item, A_FILL_ID));
        o.put("orderId", Av.reqStr(item, A_ORDER_ID));
        o.put("accountId", Av.reqStr(item, A_ACCOUNT));
        o.put("symbol", Av.reqStr(item, A_SYMBOL));
        o.put("side", Av.reqStr(item, A_SIDE));
        o.put("quantity", Av.dec(item, A_QUANTITY).stripTrailingZeros().toPlainString());
        o.put("price", Money.of(Av.dec(item, A_PRICE), ccy).amount().toPlainString());
        o.put("currency", ccy);
        o.put("fee", Money.of(Av.dec(item, A_FEE), ccy).amount().toPlainString());
        o.put("executedAt", Av.reqStr(item, A_EXECUTED));
        o.put("orderVersion", Av.lng(item, A_ORDER_VERSION, 0));
        if (item.containsKey(A_ACCOUNT_EXEC_SEQ)) {
            o.put(A_ACCOUNT_EXEC_SEQ, Av.lng(item, A_ACCOUNT_EXEC_SEQ, 0));
        }
        return o;
    }
}
