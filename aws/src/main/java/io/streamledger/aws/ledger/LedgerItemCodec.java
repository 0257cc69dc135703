package io.streamledger.aws.ledger;

import io.streamledger.model.keys.AuthorityKey;
import io.streamledger.model.keys.ItemKey;
import io.streamledger.model.keys.MonthCounterKey;
import io.streamledger.model.ledger.LedgerSchema;
import io.streamledger.model.ledger.PostingRow;
import io.streamledger.model.ledger.PostingSequence;
import io.streamledger.model.table.Attr;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import javax.annotation.Nullable;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.Put;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;
import software.amazon.awssdk.services.dynamodb.model.Update;

/**
 * The Ledger table's items in the SDK's AttributeValue form (AP10 postings, AP11 counters, AP12
 * authorities), named by {@link LedgerSchema}: the one builder the command service and the posting
 * job write with.
 */
public final class LedgerItemCodec {

    private LedgerItemCodec() {}

    /** {@code PK}/{@code SK} of any typed key. */
    public static Map<String, AttributeValue> key(ItemKey key) {
        return Map.of(Attr.PK, s(key.pk()), Attr.SK, s(key.sk()));
    }

    /** One immutable posting item. */
    public static Map<String, AttributeValue> posting(PostingRow r) {
        Map<String, AttributeValue> item = new HashMap<>(key(r.key()));
        item.put(LedgerSchema.TENANT, s(r.key().tenant()));
        item.put(LedgerSchema.TXN_ID, s(r.key().txnId()));
        item.put(LedgerSchema.SOURCE_ID, s(r.sourceId()));
        item.put(LedgerSchema.LINE, n(r.key().line()));
        item.put(LedgerSchema.LINE_COUNT, n(r.lineCount()));
        item.put(LedgerSchema.ACCOUNT, s(r.key().account()));
        item.put(LedgerSchema.ASSET_TYPE, s(r.assetType().name()));
        item.put(LedgerSchema.ASSET, s(r.asset()));
        item.put(LedgerSchema.AMOUNT, n(r.amount()));
        item.put(LedgerSchema.SEQUENCE, n(r.sequence()));
        item.put(LedgerSchema.RECORDED_AT, s(r.recordedAt().toString()));
        if (r.reversalOf() != null) {
            item.put(LedgerSchema.REVERSAL_OF, s(r.reversalOf()));
        }
        if (r.description() != null) {
            item.put(LedgerSchema.DESCRIPTION, s(r.description()));
        }
        PostingRow.FillLine fill = r.fill();
        if (fill != null) {
            item.put(LedgerSchema.EFFECTIVE_AT, s(fill.effectiveAt().toString()));
            item.put(LedgerSchema.ROLE, s(fill.role()));
            item.put(LedgerSchema.EVENT_ID, s(fill.eventId()));
            if (fill.rounding() != null) {
                item.put(LedgerSchema.GROSS_EXACT, n(fill.rounding().grossExact()));
                item.put(LedgerSchema.ROUNDING_RESIDUAL, n(fill.rounding().residual()));
                item.put(LedgerSchema.ROUNDING_MODE, s(fill.rounding().mode().name()));
            }
        }
        return item;
    }

    /** A posting's size as DynamoDB counts it, for the bucket byte budget. */
    public static long postingBytes(PostingRow r) {
        return itemSize(posting(r));
    }

    /** The create-once put of a posting (postings are never updated). */
    public static TransactWriteItem postingPut(String table, PostingRow r) {
        return TransactWriteItem.builder()
                .put(
                        Put.builder()
                                .tableName(table)
                                .item(posting(r))
                                .conditionExpression("attribute_not_exists(#pk)")
                                .expressionAttributeNames(Map.of("#pk", Attr.PK))
                                .build())
                .build();
    }

    /** The counter state of an item, {@link PostingSequence.Counter#EMPTY} when absent. */
    public static PostingSequence.Counter counterFrom(@Nullable Map<String, AttributeValue> item) {
        if (item == null || item.isEmpty()) {
            return PostingSequence.Counter.EMPTY;
        }
        return new PostingSequence.Counter(
                lng(item, LedgerSchema.MONTH_COUNT),
                (int) lng(item, LedgerSchema.BUCKET),
                lng(item, LedgerSchema.BUCKET_COUNT),
                lng(item, LedgerSchema.BUCKET_BYTES),
                lng(item, LedgerSchema.VERSION));
    }

    /** The counter after a transaction, compare-and-set on the version it was read at. */
    public static TransactWriteItem counterPut(
            String table,
            MonthCounterKey key,
            PostingSequence.Counter before,
            PostingSequence.Counter next,
            Instant at) {
        Map<String, AttributeValue> item = new HashMap<>(key(key));
        item.put(LedgerSchema.TENANT, s(key.tenant()));
        item.put(LedgerSchema.ACCOUNT, s(key.account()));
        item.put(LedgerSchema.MONTH_COUNT, n(next.monthCount()));
        item.put(LedgerSchema.BUCKET, n(next.bucket()));
        item.put(LedgerSchema.BUCKET_COUNT, n(next.bucketCount()));
        item.put(LedgerSchema.BUCKET_BYTES, n(next.bucketBytes()));
        item.put(LedgerSchema.VERSION, n(next.version()));
        item.put(LedgerSchema.UPDATED_AT, s(at.toString()));
        return versionedPut(table, item, before.version());
    }

    /**
     * The full AP12 authority item (posted/reserved/available, open reservations, version).
     *
     * @param reservations reservation id → held amount
     */
    public static Map<String, AttributeValue> authority(
            AuthorityKey key,
            BigDecimal posted,
            BigDecimal reserved,
            BigDecimal available,
            long version,
            Map<String, BigDecimal> reservations,
            String lastTxnId,
            Instant at) {
        Map<String, AttributeValue> item = new HashMap<>(key(key));
        item.put(LedgerSchema.TENANT, s(key.tenant()));
        item.put(LedgerSchema.ACCOUNT, s(key.account()));
        item.put(LedgerSchema.ASSET_TYPE, s(key.kind().name()));
        item.put(LedgerSchema.ASSET, s(key.asset()));
        item.put(LedgerSchema.POSTED, n(posted));
        item.put(LedgerSchema.RESERVED, n(reserved));
        item.put(LedgerSchema.AVAILABLE, n(available));
        item.put(LedgerSchema.VERSION, n(version));
        Map<String, AttributeValue> res = new HashMap<>();
        reservations.forEach((k, v) -> res.put(k, n(v)));
        item.put(LedgerSchema.RESERVATIONS, AttributeValue.fromM(res));
        item.put(LedgerSchema.LAST_TXN_ID, s(lastTxnId));
        item.put(LedgerSchema.UPDATED_AT, s(at.toString()));
        return item;
    }

    /** Creation when {@code expectedVersion} is 0, compare-and-set on the version otherwise. */
    public static TransactWriteItem versionedPut(
            String table, Map<String, AttributeValue> item, long expectedVersion) {
        Put.Builder put = Put.builder().tableName(table).item(item);
        if (expectedVersion == 0) {
            put.conditionExpression("attribute_not_exists(#pk)")
                    .expressionAttributeNames(Map.of("#pk", Attr.PK));
        } else {
            put.conditionExpression("#v = :v")
                    .expressionAttributeNames(Map.of("#v", LedgerSchema.VERSION))
                    .expressionAttributeValues(Map.of(":v", n(expectedVersion)));
        }
        return TransactWriteItem.builder().put(put.build()).build();
    }

    /**
     * AP12 authority update without a read: ADD the net delta to posted and available and 1 to the
     * version, creating the item if absent; the condition only checks it is the same kind of asset.
     * Fills are facts the exchange already executed, so no available-balance policy applies here
     * (that is admission's job, with reservations).
     */
    public static TransactWriteItem authorityAdd(
            String table, AuthorityKey key, BigDecimal delta, String txnId, Instant now) {
        Map<String, String> names = new HashMap<>();
        names.put("#pk", Attr.PK);
        names.put("#tenant", LedgerSchema.TENANT);
        names.put("#acct", LedgerSchema.ACCOUNT);
        names.put("#atype", LedgerSchema.ASSET_TYPE);
        names.put("#asset", LedgerSchema.ASSET);
        names.put("#txn", LedgerSchema.LAST_TXN_ID);
        names.put("#upd", LedgerSchema.UPDATED_AT);
        names.put("#reserved", LedgerSchema.RESERVED);
        names.put("#posted", LedgerSchema.POSTED);
        names.put("#avail", LedgerSchema.AVAILABLE);
        names.put("#ver", LedgerSchema.VERSION);
        Map<String, AttributeValue> values = new HashMap<>();
        values.put(":tenant", s(key.tenant()));
        values.put(":acct", s(key.account()));
        values.put(":atype", s(key.kind().name()));
        values.put(":asset", s(key.asset()));
        values.put(":txn", s(txnId));
        values.put(":upd", s(now.toString()));
        values.put(":zero", n(BigDecimal.ZERO));
        values.put(":d", n(delta));
        values.put(":one", n(1));
        return TransactWriteItem.builder()
                .update(
                        Update.builder()
                                .tableName(table)
                                .key(key(key))
                                .updateExpression(
                                        "SET #tenant = :tenant, #acct = :acct, #atype = :atype,"
                                                + " #asset = :asset, #txn = :txn, #upd = :upd,"
                                                + " #reserved = if_not_exists(#reserved, :zero)"
                                                + " ADD #posted :d, #avail :d, #ver :one")
                                .conditionExpression("attribute_not_exists(#pk) OR #atype = :atype")
                                .expressionAttributeNames(names)
                                .expressionAttributeValues(values)
                                .build())
                .build();
    }

    /**
     * Item size as DynamoDB counts it: UTF-8 names and strings, numbers by significant digits
     * ({@code (digits + 1) / 2 + 1}), 1 byte for booleans/null, 3 + entries for maps and lists, raw
     * bytes for binary.
     */
    public static long itemSize(Map<String, AttributeValue> item) {
        long size = 0;
        for (Map.Entry<String, AttributeValue> e : item.entrySet()) {
            size += utf8(e.getKey()) + valueSize(e.getValue());
        }
        return size;
    }

    private static long valueSize(AttributeValue v) {
        if (v.s() != null) {
            return utf8(v.s());
        }
        if (v.n() != null) {
            BigDecimal d = new BigDecimal(v.n()).abs();
            int digits = d.signum() == 0 ? 1 : d.stripTrailingZeros().precision();
            return (digits + 1) / 2 + 1;
        }
        if (v.bool() != null || Boolean.TRUE.equals(v.nul())) {
            return 1;
        }
        if (v.hasM()) {
            long s = 3;
            for (Map.Entry<String, AttributeValue> e : v.m().entrySet()) {
                s += utf8(e.getKey()) + valueSize(e.getValue()) + 1;
            }
            return s;
        }
        if (v.hasL()) {
            long s = 3;
            for (AttributeValue e : v.l()) {
                s += valueSize(e) + 1;
            }
            return s;
        }
        return v.b() != null ? v.b().asByteArray().length : 0;
    }

    private static int utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8).length;
    }

    private static AttributeValue s(String v) {
        return AttributeValue.fromS(v);
    }

    private static AttributeValue n(long v) {
        return AttributeValue.fromN(Long.toString(v));
    }

    private static AttributeValue n(BigDecimal v) {
        return AttributeValue.fromN(v.toPlainString());
    }

    private static long lng(Map<String, AttributeValue> item, String name) {
        AttributeValue v = item.get(name);
        return v == null || v.n() == null ? 0 : Long.parseLong(v.n());
    }
}
