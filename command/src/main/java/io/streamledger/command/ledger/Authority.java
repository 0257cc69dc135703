package io.streamledger.command.ledger;

import io.streamledger.aws.items.Av;
import io.streamledger.aws.ledger.LedgerItemCodec;
import io.streamledger.model.keys.AuthorityKey;
import io.streamledger.model.ledger.LedgerSchema;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.Map;
import java.util.TreeMap;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;

/**
 * One AP12 authority item (IDX11, {@code AUTH#CASH#ccy} / {@code AUTH#SEC#symbol}): posted,
 * reserved, pending (admitted fills not yet posted) and available = posted + pending - reserved
 * with a version; the legacy ledger-API reservations are held on the item so a reservation and the
 * balance it blocks change in one conditional write.
 */
public record Authority(
        String tenant,
        String accountId,
        Asset asset,
        BigDecimal posted,
        BigDecimal reserved,
        BigDecimal pending,
        BigDecimal available,
        long version,
        Map<String, BigDecimal> reservations) {

    public static Map<String, AttributeValue> key(String tenant, String accountId, Asset asset) {
        return LedgerItemCodec.key(asset.authorityKey(tenant, accountId));
    }

    public static Authority empty(String tenant, String accountId, Asset asset) {
        return new Authority(
                tenant,
                accountId,
                asset,
                BigDecimal.ZERO,
                BigDecimal.ZERO,
                BigDecimal.ZERO,
                BigDecimal.ZERO,
                0,
                Map.of());
    }

    public static Authority from(String tenant, Map<String, AttributeValue> item) {
        Asset asset =
                new Asset(
                        AuthorityKey.Kind.valueOf(Av.reqStr(item, LedgerSchema.ASSET_TYPE)),
                        Av.reqStr(item, LedgerSchema.ASSET));
        Map<String, BigDecimal> res = new TreeMap<>();
        AttributeValue m = item.get(LedgerSchema.RESERVATIONS);
        if (m != null && m.hasM()) {
            m.m().forEach((k, v) -> res.put(k, new BigDecimal(v.n())));
        }
        return new Authority(
                tenant,
                Av.reqStr(item, LedgerSchema.ACCOUNT),
                asset,
                Av.dec(item, LedgerSchema.POSTED),
                Av.dec(item, LedgerSchema.RESERVED),
                item.containsKey(LedgerSchema.PENDING)
                        ? Av.dec(item, LedgerSchema.PENDING)
                        : BigDecimal.ZERO,
                Av.dec(item, LedgerSchema.AVAILABLE),
                Av.lng(item, LedgerSchema.VERSION, 0),
                res);
    }

    /**
     * The next state: posted/reserved change by the deltas, pending stays, available = posted +
     * pending - reserved.
     */
    public Authority next(
            BigDecimal postedDelta, BigDecimal reservedDelta, Map<String, BigDecimal> res) {
        BigDecimal p = posted.add(postedDelta);
        BigDecimal r = reserved.add(reservedDelta);
        return new Authority(
                tenant,
                accountId,
                asset,
                p,
                r,
                pending,
                p.add(pending).subtract(r),
                version + 1,
                res);
    }

    /** Versioned write: creation when absent, compare-and-set on the version otherwise. */
    public TransactWriteItem writeFrom(
            long expectedVersion, String table, String txnId, Instant at) {
        return LedgerItemCodec.versionedPut(
                table,
                LedgerItemCodec.authority(
                        asset.authorityKey(tenant, accountId),
                        posted,
                        reserved,
                        pending,
                        available,
                        version,
                        reservations,
                        txnId,
                        at),
                expectedVersion);
    }

    public com.fasterxml.jackson.databind.node.ObjectNode view() {
        var o = io.streamledger.command.api.StrictJson.MAPPER.createObjectNode();
        o.put("accountId", accountId);
        o.put(asset.viewField(), asset.code());
        o.put("posted", asset.format(posted));
        o.put("reserved", asset.format(reserved));
        o.put("pending", asset.format(pending));
        o.put("available", asset.format(available));
        o.put("version", version);
        return o;
    }
}
