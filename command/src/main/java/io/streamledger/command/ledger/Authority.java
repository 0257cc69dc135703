package io.streamledger.command.ledger;

import io.streamledger.aws.items.Av;
import io.streamledger.command.config.Schema;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.Put;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;

/**
 * One AP12 authority item (IDX11, {@code AUTH#CASH#ccy} / {@code AUTH#SEC#symbol}): posted,
 * reserved and available with a version; open reservations are held on the item so a reservation
 * and the balance it blocks change in one conditional write.
 */
public record Authority(
        String tenant,
        String accountId,
        Asset asset,
        BigDecimal posted,
        BigDecimal reserved,
        BigDecimal available,
        long version,
        Map<String, BigDecimal> reservations) {

    public static final String A_TENANT = "tenant";
    public static final String A_ACCOUNT = "accountId";
    public static final String A_ASSET_TYPE = "assetType";
    public static final String A_ASSET = "asset";
    public static final String A_POSTED = "posted";
    public static final String A_RESERVED = "reserved";
    public static final String A_AVAILABLE = "available";
    public static final String A_VERSION = "version";
    public static final String A_RESERVATIONS = "reservations";
    public static final String A_LAST_TXN = "lastTxnId";
    public static final String A_UPDATED = "updatedAt";

    public static Map<String, AttributeValue> key(String tenant, String accountId, Asset asset) {
        var k = asset.authorityKey(tenant, accountId);
        return Map.of(Schema.PK, Av.s(k.pk()), Schema.SK, Av.s(k.sk()));
    }

    public static Authority empty(String tenant, String accountId, Asset asset) {
        return new Authority(
                tenant,
                accountId,
                asset,
                BigDecimal.ZERO,
                BigDecimal.ZERO,
                BigDecimal.ZERO,
                0,
                Map.of());
    }

    public static Authority from(String tenant, Map<String, AttributeValue> item) {
        Asset asset =
                new Asset(
                        Asset.Type.valueOf(Av.reqStr(item, A_ASSET_TYPE)),
                        Av.reqStr(item, A_ASSET));
        Map<String, BigDecimal> res = new TreeMap<>();
        AttributeValue m = item.get(A_RESERVATIONS);
        if (m != null && m.hasM()) {
            m.m().forEach((k, v) -> res.put(k, new BigDecimal(v.n())));
        }
        return new Authority(
                tenant,
                Av.reqStr(item, A_ACCOUNT),
                asset,
                Av.dec(item, A_POSTED),
                Av.dec(item, A_RESERVED),
                Av.dec(item, A_AVAILABLE),
                Av.lng(item, A_VERSION, 0),
                res);
    }

    /** The next state: posted/reserved change by the deltas, available = posted - reserved. */
    public Authority next(
            BigDecimal postedDelta, BigDecimal reservedDelta, Map<String, BigDecimal> res) {
        BigDecimal p = posted.add(postedDelta);
        BigDecimal r = reserved.add(reservedDelta);
        return new Authority(tenant, accountId, asset, p, r, p.subtract(r), version + 1, res);
    }

    /** Versioned write: creation when absent, compare-and-set on the version otherwise. */
    public TransactWriteItem writeFrom(
            long expectedVersion, String table, String txnId, Instant at) {
        Map<String, AttributeValue> item = new HashMap<>(key(tenant, accountId, asset));
        item.put(A_TENANT, Av.s(tenant));
        item.put(A_ACCOUNT, Av.s(accountId));
        item.put(A_ASSET_TYPE, Av.s(asset.type().name()));
        item.put(A_ASSET, Av.s(asset.code()));
        item.put(A_POSTED, Av.n(posted));
        item.put(A_RESERVED, Av.n(reserved));
        item.put(A_AVAILABLE, Av.n(available));
        item.put(A_VERSION, Av.n(version));
        Map<String, AttributeValue> res = new HashMap<>();
        reservations.forEach((k, v) -> res.put(k, Av.n(v)));
        item.put(A_RESERVATIONS, AttributeValue.fromM(res));
        item.put(A_LAST_TXN, Av.s(txnId));
        item.put(A_UPDATED, Av.s(at.toString()));
        Put.Builder put = Put.builder().tableName(table).item(item);
        if (expectedVersion == 0) {
            put.conditionExpression("attribute_not_exists(#pk)")
                    .expressionAttributeNames(Map.of("#pk", Schema.PK));
        } else {
            put.conditionExpression("#v = :v")
                    .expressionAttributeNames(Map.of("#v", A_VERSION))
                    .expressionAttributeValues(Map.of(":v", Av.n(expectedVersion)));
        }
        return TransactWriteItem.builder().put(put.build()).build();
    }

    public com.fasterxml.jackson.databind.node.ObjectNode view() {
        var o = io.streamledger.command.api.StrictJson.MAPPER.createObjectNode();
        o.put("accountId", accountId);
        o.put(asset.type() == Asset.Type.CASH ? "currency" : "symbol", asset.code());
        o.put("posted", asset.format(posted));
        o.put("reserved", asset.format(reserved));
        o.put("available", asset.format(available));
        o.put("version", version);
        return o;
    }
}
