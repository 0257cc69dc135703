package io.streamledger.command.config;

import io.streamledger.model.keys.ClientOrderKey;
import io.streamledger.model.keys.KeyFields;
import io.streamledger.model.keys.KeyPaths;
import io.streamledger.model.keys.OrderByAccountKey;
import io.streamledger.model.keys.OrderByStatusKey;
import io.streamledger.model.keys.OrderKey;
import io.streamledger.model.keys.OutboxKey;
import io.streamledger.model.keys.OutboxReadyKey;
import io.streamledger.model.keys.PositionKey;
import io.streamledger.model.keys.ProjectionAliasKey;
import io.streamledger.model.keys.RepairDueKey;
import io.streamledger.model.keys.RequestKey;
import io.streamledger.model.keys.TradeByAccountKey;
import io.streamledger.model.keys.TradeBySymbolKey;
import io.streamledger.model.keys.TradeKey;
import io.streamledger.model.shard.ShardHash;
import io.streamledger.model.shard.ShardMap;
import io.streamledger.model.table.Attr;
import io.streamledger.model.table.Tables;
import java.time.Instant;

/**
 * The command service's single entry to the model's key grammar (IDX01-IDX19), attribute names and
 * index names: every key string comes from io.streamledger.model.keys, none is spelled here.
 */
public final class Schema {

    private Schema() {}

    public static final String PK = Attr.PK;
    public static final String SK = Attr.SK;
    public static final String GSI1PK = Attr.GSI1PK;
    public static final String GSI1SK = Attr.GSI1SK;
    public static final String GSI2PK = Attr.GSI2PK;
    public static final String GSI2SK = Attr.GSI2SK;
    public static final String READY_PK = Attr.READY_PK;
    public static final String READY_SK = Attr.READY_SK;
    public static final String ACTIVE_VERSION = Attr.ACTIVE_VERSION;
    public static final String SOURCE_VERSION = Attr.SOURCE_VERSION;

    /** IDX19 lives on the Idempotency table's GSI1 attributes. */
    public static final String REPAIR_PK = Tables.IDEMPOTENCY.gsis().get(0).pkAttr();

    public static final String REPAIR_SK = Tables.IDEMPOTENCY.gsis().get(0).skAttr();
    public static final String REPAIR_INDEX = Tables.IDEMPOTENCY.gsis().get(0).indexName();

    public static final String ORDERS_BY_ACCOUNT_INDEX = gsi(Tables.ORDERS, "IDX02");
    public static final String ORDERS_BY_STATUS_INDEX = gsi(Tables.ORDERS, "IDX03");
    public static final String TRADES_BY_ACCOUNT_INDEX = gsi(Tables.EXECUTION, "IDX05");
    public static final String TRADES_BY_SYMBOL_INDEX = gsi(Tables.EXECUTION, "IDX06");
    public static final String READY_INDEX = gsi(Tables.CONTEXT, "IDX17");

    /** AP18 repair queue shards: the seed fixes no N for the rare repair lane; four suffice. */
    public static final ShardMap REPAIR_SHARDS =
            new ShardMap("idempotency-repair", 4, ShardHash.HASH_VERSION, 1);

    public static final ShardMap READY_SHARDS = ShardMap.OUTBOX_READY;

    private static String gsi(io.streamledger.model.table.TableSpec t, String indexId) {
        return t.gsis().stream()
                .filter(g -> g.indexId().equals(indexId))
                .findFirst()
                .orElseThrow(() -> new IllegalStateException(indexId + " missing in " + t))
                .indexName();
    }

    // IDX01 / IDX04 partition
    public static String orderPk(String t, String orderId) {
        return new OrderKey(t, orderId).pk();
    }

    public static String orderSk(String t, String orderId) {
        return new OrderKey(t, orderId).sk();
    }

    // IDX02
    public static OrderByAccountKey orderByAccount(String t, String a, Instant at, String id) {
        return new OrderByAccountKey(t, a, at, id);
    }

    public static String accountPk(String t, String a) {
        return KeyPaths.IDX02_PK.build(t, a);
    }

    // IDX03
    public static OrderByStatusKey orderByStatus(
            String t, String a, String status, Instant at, String id) {
        return new OrderByStatusKey(t, a, status, at, id);
    }

    public static String accountStatusPk(String t, String a, String status) {
        return KeyPaths.IDX03_PK.build(t, a, status);
    }

    // IDX04-06
    public static TradeKey trade(String t, String orderId, Instant at, String tradeId) {
        return new TradeKey(t, orderId, at, tradeId);
    }

    public static TradeByAccountKey tradeByAccount(String t, String a, Instant at, String id) {
        return new TradeByAccountKey(t, a, at, id);
    }

    public static TradeBySymbolKey tradeBySymbol(String t, String sym, Instant at, String id) {
        return new TradeBySymbolKey(t, sym, at, id);
    }

    public static String tradesOfAccountPk(String t, String a) {
        return KeyPaths.IDX05_PK.build(t, a);
    }

    public static String symbolPk(String t, String symbol) {
        return KeyPaths.IDX06_PK.build(t, symbol);
    }

    // IDX07 (AP07 Portfolio view, read only)
    public static String portfolioPk(String t, String a) {
        return KeyPaths.IDX07_PK.build(t, a);
    }

    public static PositionKey position(String t, String a, String symbol) {
        return new PositionKey(t, a, symbol);
    }

    /** CS09 alias of the Portfolio projection in the Projection table. */
    public static ProjectionAliasKey portfolioAlias() {
        return ProjectionAliasKey.PORTFOLIO;
    }

    // IDX08
    public static RequestKey request(String t, String key) {
        return new RequestKey(t, key);
    }

    // IDX19
    public static RepairDueKey repairDue(String t, String requestKey, Instant due) {
        return new RepairDueKey(
                t, REPAIR_SHARDS.assign(t + "/" + requestKey).shard(), due, requestKey);
    }

    public static String repairPk(String t, int shard) {
        return KeyPaths.IDX19_PK.build(t, KeyFields.shard("shard", shard));
    }

    // IDX16 / IDX17
    public static OutboxKey outbox(String eventId) {
        return new OutboxKey(eventId);
    }

    public static OutboxReadyKey ready(String service, Instant due, String eventId) {
        return OutboxReadyKey.forEvent(service, due, eventId, READY_SHARDS);
    }

    public static String readyPk(String service, int shard) {
        return KeyPaths.IDX17_PK.build(service, KeyFields.shard("shard", shard));
    }

    // IDX18
    public static ClientOrderKey clientOrder(String t, String clientOrderId) {
        return new ClientOrderKey(t, clientOrderId);
    }
}
