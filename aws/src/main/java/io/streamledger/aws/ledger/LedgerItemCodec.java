package io.streamledger.aws.ledger;

import io.streamledger.aws.items.Av;
import io.streamledger.model.keys.AuthorityKey;
import io.streamledger.model.keys.ItemKey;
import io.streamledger.model.keys.MonthCounterKey;
import io.streamledger.model.ledger.LedgerSchema;
import io.streamledger.model.ledger.PostingRow;
import io.streamledger.model.ledger.PostingSequence;
import io.streamledger.model.table.Attr;
import java.math.BigDecimal;
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
        return Map.of(Attr.PK, Av.s(key.pk()), Attr.SK, Av.s(key.sk()));
    }

    /** One immutable posting item. */
    public static Map<String, AttributeValue> posting(PostingRow r) {
        Map<String, AttributeValue> item = new HashMap<>(key(r.key()));
        item.put(LedgerSchema.TENANT, Av.s(r.key().tenant()));
        item.put(LedgerSchema.TXN_ID, Av.s(r.key().txnId()));
        item.put(LedgerSchema.SOURCE_ID, Av.s(r.sourceId()));
        item.put(LedgerSchema.LINE, Av.n(r.key().line()));
        item.put(LedgerSchema.LINE_COUNT, Av.n(r.lineCount()));
        item.put(LedgerSchema.ACCOUNT, Av.s(r.key().account()));
        item.put(LedgerSchema.ASSET_TYPE, Av.s(r.assetType().name()));
        item.put(LedgerSchema.ASSET, Av.s(r.asset()));
        item.put(LedgerSchema.AMOUNT, Av.n(r.amount()));
        item.put(LedgerSchema.SEQUENCE, Av.n(r.sequence()));
        item.put(LedgerSchema.RECORDED_AT, Av.s(r.recordedAt().toString()));
        if (r.reversalOf() != null) {
            item.put(LedgerSchema.REVERSAL_OF, Av.s(r.reversalOf()));
        }
        if (r.description() != null) {
            item.put(LedgerSchema.DESCRIPTION, Av.s(r.description()));
        }
        PostingRow.FillLine fill = r.fill();
        if (fill != null) {
            item.put(LedgerSchema.EFFECTIVE_AT, Av.s(fill.effectiveAt().toString()));
            item.put(LedgerSchema.ROLE, Av.s(fill.role()));
            item.put(LedgerSchema.EVENT_ID, Av.s(fill.eventId()));
            if (fill.rounding() != null) {
                item.put(LedgerSchema.GROSS_EXACT, Av.n(fill.rounding().grossExact()));
                item.put(LedgerSchema.ROUNDING_RESIDUAL, Av.n(fill.rounding().residual()));
                item.put(LedgerSchema.ROUNDING_MODE, Av.s(fill.rounding().mode().name()));
            }
        }
        return item;
    }

    /** A posting's size as DynamoDB counts it, for the bucket byte budget. */
    public static long postingBytes(PostingRow r) {
        return Av.itemSize(posting(r));
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
                Av.lng(item, LedgerSchema.MONTH_COUNT, 0),
                (int) Av.lng(item, LedgerSchema.BUCKET, 0),
                Av.lng(item, LedgerSchema.BUCKET_COUNT, 0),
                Av.lng(item, LedgerSchema.BUCKET_BYTES, 0),
                Av.lng(item, LedgerSchema.VERSION, 0));
    }

    /** The counter after a transaction, compare-and-set on the version it was read at. */
    public static TransactWriteItem counterPut(
            String table,
            MonthCounterKey key,
            PostingSequence.Counter before,
            PostingSequence.Counter next,
            Instant at) {
        Map<String, AttributeValue> item = new HashMap<>(key(key));
        item.put(LedgerSchema.TENANT, Av.s(key.tenant()));
        item.put(LedgerSchema.ACCOUNT, Av.s(key.account()));
        item.put(LedgerSchema.MONTH_COUNT, Av.n(next.monthCount()));
        item.put(LedgerSchema.BUCKET, Av.n(next.bucket()));
        item.put(LedgerSchema.BUCKET_COUNT, Av.n(next.bucketCount()));
        item.put(LedgerSchema.BUCKET_BYTES, Av.n(next.bucketBytes()));
        item.put(LedgerSchema.VERSION, Av.n(next.version()));
        item.put(LedgerSchema.UPDATED_AT, Av.s(at.toString()));
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
        item.put(LedgerSchema.TENANT, Av.s(key.tenant()));
        item.put(LedgerSchema.ACCOUNT, Av.s(key.account()));
        item.put(LedgerSchema.ASSET_TYPE, Av.s(key.kind().name()));
        item.put(LedgerSchema.ASSET, Av.s(key.asset()));
        item.put(LedgerSchema.POSTED, Av.n(posted));
        item.put(LedgerSchema.RESERVED, Av.n(reserved));
        item.put(LedgerSchema.AVAILABLE, Av.n(available));
        item.put(LedgerSchema.VERSION, Av.n(version));
        Map<String, AttributeValue> res = new HashMap<>();
        reservations.forEach((k, v) -> res.put(k, Av.n(v)));
        item.put(LedgerSchema.RESERVATIONS, AttributeValue.fromM(res));
        item.put(LedgerSchema.LAST_TXN_ID, Av.s(lastTxnId));
        item.put(LedgerSchema.UPDATED_AT, Av.s(at.toString()));
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
                    .expressionAttributeValues(Map.of(":v", Av.n(expectedVersion)));
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
        values.put(":tenant", Av.s(key.tenant()));
        values.put(":acct", Av.s(key.account()));
        values.put(":atype", Av.s(key.kind().name()));
        values.put(":asset", Av.s(key.asset()));
        values.put(":txn", Av.s(txnId));
        values.put(":upd", Av.s(now.toString()));
        values.put(":zero", Av.n(BigDecimal.ZERO));
        values.put(":d", Av.n(delta));
        values.put(":one", Av.n(1));
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
}
