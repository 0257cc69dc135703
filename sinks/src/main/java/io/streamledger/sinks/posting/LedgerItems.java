package io.streamledger.sinks.posting;

import io.streamledger.model.keys.AuthorityKey;
import io.streamledger.model.keys.InboxKey;
import io.streamledger.model.keys.MonthCounterKey;
import io.streamledger.model.keys.PostingKey;
import io.streamledger.model.shard.ShardAssignment;
import io.streamledger.model.table.Attr;
import io.streamledger.operators.posting.LedgerLine;
import io.streamledger.operators.posting.PostingPlan;
import io.streamledger.operators.posting.PostingSequence;
import io.streamledger.operators.posting.PostingTransactionPlan;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.YearMonth;
import java.util.HashMap;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.Put;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;
import software.amazon.awssdk.services.dynamodb.model.Update;

/**
 * The DynamoDB items of one posted fill (AP09 receipt, AP10 postings + month counter, AP12
 * authority), with the attribute names the command service uses for POST /v1/ledger/transactions so
 * the ledger-check job sees one ledger whoever wrote it.
 */
public final class LedgerItems {

    // posting attributes (same names as command's LedgerService)
    public static final String P_TENANT = "tenant";
    public static final String P_TXN = "txnId";
    public static final String P_SOURCE = "sourceId";
    public static final String P_LINE = "line";

    /**
     * Lines of the whole transaction, on every posting: the ledger check knows when all arrived.
     */
    public static final String P_LINE_COUNT = "lineCount";

    public static final String P_ACCOUNT = "accountId";
    public static final String P_ASSET_TYPE = "assetType";
    public static final String P_ASSET = "asset";
    public static final String P_AMOUNT = "amount";
    public static final String P_SEQ = "sequence";
    public static final String P_RECORDED = "recordedAt";
    // additions of the posting job
    public static final String P_EFFECTIVE = "effectiveAt";
    public static final String P_ROLE = "role";
    public static final String P_EVENT = "eventId";
    public static final String P_GROSS = "grossExact";
    public static final String P_RESIDUAL = "roundingResidual";
    public static final String P_ROUNDING = "roundingMode";

    // counter attributes
    public static final String C_MONTH_COUNT = "monthCount";
    public static final String C_BUCKET = "bucket";
    public static final String C_BUCKET_COUNT = "bucketCount";
    public static final String C_BUCKET_BYTES = "bucketBytes";

    // authority attributes
    public static final String A_POSTED = "posted";
    public static final String A_RESERVED = "reserved";
    public static final String A_AVAILABLE = "available";
    public static final String A_LAST_TXN = "lastTxnId";
    public static final String A_UPDATED = "updatedAt";

    // receipt attributes
    public static final String R_CONSUMER = "consumer";
    public static final String R_SOURCE_AGGREGATE = "sourceAggregate";
    public static final String R_RECEIVED = "receivedAt";

    private LedgerItems() {}

    public static YearMonth month(Instant at) {
        return PostingTransactionPlan.month(at);
    }

    public static Map<String, AttributeValue> counterKey(
            String tenant, String account, YearMonth month) {
        MonthCounterKey key = new MonthCounterKey(tenant, account, month);
        return Map.of(Attr.PK, s(key.pk()), Attr.SK, s(key.sk()));
    }

    public static PostingSequence.Counter counterFrom(Map<String, AttributeValue> item) {
        if (item == null || item.isEmpty()) {
            return PostingSequence.Counter.EMPTY;
        }
        return new PostingSequence.Counter(
                lng(item, C_MONTH_COUNT),
                (int) lng(item, C_BUCKET),
                lng(item, C_BUCKET_COUNT),
                lng(item, C_BUCKET_BYTES),
                lng(item, Attr.VERSION));
    }

    public static TransactWriteItem counterWrite(
            String table,
            String tenant,
            String account,
            YearMonth month,
            PostingSequence.Counter before,
            PostingSequence.Counter next,
            Instant now) {
        Map<String, AttributeValue> item = new HashMap<>(counterKey(tenant, account, month));
        item.put(P_TENANT, s(tenant));
        item.put(P_ACCOUNT, s(account));
        item.put(C_MONTH_COUNT, n(next.monthCount()));
        item.put(C_BUCKET, n(next.bucket()));
        item.put(C_BUCKET_COUNT, n(next.bucketCount()));
        item.put(C_BUCKET_BYTES, n(next.bucketBytes()));
        item.put(Attr.VERSION, n(next.version()));
        item.put(A_UPDATED, s(now.toString()));
        Put.Builder put = Put.builder().tableName(table).item(item);
        if (before.version() == 0) {
            put.conditionExpression("attribute_not_exists(#pk)")
                    .expressionAttributeNames(Map.of("#pk", Attr.PK));
        } else {
            put.conditionExpression("#v = :v")
                    .expressionAttributeNames(Map.of("#v", Attr.VERSION))
                    .expressionAttributeValues(Map.of(":v", n(before.version())));
        }
        return TransactWriteItem.builder().put(put.build()).build();
    }

    /** The AP09 receipt: created once; its condition failing means "already posted". */
    public static TransactWriteItem receipt(
            String table,
            InboxKey key,
            ShardAssignment shard,
            String orderId,
            long orderVersion,
            String txnId,
            Instant now,
            long expiresAtEpochSeconds) {
        Map<String, AttributeValue> item = new HashMap<>();
        item.put(Attr.PK, s(key.pk()));
        item.put(Attr.SK, s(key.sk()));
        item.put(R_CONSUMER, s(key.consumer()));
        item.put(Attr.EVENT_ID, s(key.eventId()));
        item.put(Attr.HASH_VERSION, n(shard.hashVersion()));
        item.put(Attr.SHARD_MAP_VERSION, n(shard.shardMapVersion()));
        item.put(R_SOURCE_AGGREGATE, s("Order#" + orderId));
        item.put(Attr.SOURCE_VERSION, n(orderVersion));
        item.put(P_TXN, s(txnId));
        item.put(R_RECEIVED, s(now.toString()));
        item.put(Attr.EXPIRES_AT, n(expiresAtEpochSeconds));
        return TransactWriteItem.builder()
                .put(
                        Put.builder()
                                .tableName(table)
                                .item(item)
                                .conditionExpression("attribute_not_exists(#pk)")
                                .expressionAttributeNames(Map.of("#pk", Attr.PK))
                                .build())
                .build();
    }

    /** One immutable posting row (never updated: created with attribute_not_exists). */
    public static Map<String, AttributeValue> posting(
            PostingPlan plan,
            LedgerLine line,
            int bucket,
            long sequence,
            String eventId,
            Instant recordedAt) {
        PostingKey key =
                new PostingKey(
                        plan.tenant(),
                        line.accountId(),
                        month(plan.effectiveAt()),
                        bucket,
                        plan.effectiveAt(),
                        plan.txnId(),
                        line.line());
        Map<String, AttributeValue> item = new HashMap<>();
        item.put(Attr.PK, s(key.pk()));
        item.put(Attr.SK, s(key.sk()));
        item.put(P_TENANT, s(plan.tenant()));
        item.put(P_TXN, s(plan.txnId()));
        item.put(P_SOURCE, s(plan.sourceId()));
        item.put(P_LINE, n(line.line()));
        item.put(P_LINE_COUNT, n(plan.lines().size()));
        item.put(P_ACCOUNT, s(line.accountId()));
        item.put(P_ASSET_TYPE, s(line.assetType()));
        item.put(P_ASSET, s(line.asset()));
        item.put(P_AMOUNT, n(line.amount()));
        item.put(P_SEQ, n(sequence));
        item.put(P_RECORDED, s(recordedAt.toString()));
        item.put(P_EFFECTIVE, s(plan.effectiveAt().toString()));
        item.put(P_ROLE, s(line.role()));
        item.put(P_EVENT, s(eventId));
        if (line.role().startsWith("CONSIDERATION")) {
            item.put(P_GROSS, n(plan.grossExact()));
            item.put(P_RESIDUAL, n(plan.roundingResidual()));
            item.put(P_ROUNDING, s(plan.roundingMode().name()));
        }
        return item;
    }

    public static TransactWriteItem createPut(String table, Map<String, AttributeValue> item) {
        return TransactWriteItem.builder()
                .put(
                        Put.builder()
                                .tableName(table)
                                .item(item)
                                .conditionExpression("attribute_not_exists(#pk)")
                                .expressionAttributeNames(Map.of("#pk", Attr.PK))
                                .build())
                .build();
    }

    /**
     * AP12 authority update without a read: ADD the net delta to posted and available and 1 to the
     * version, creating the item if absent; the condition only checks it is the same kind of asset.
     * Fills are facts the exchange already executed, so no available-balance policy is applied here
     * (that is admission's job, with reservations).
     */
    public static TransactWriteItem authorityAdd(
            String table, AuthorityKey key, BigDecimal delta, String txnId, Instant now) {
        Map<String, String> names = new HashMap<>();
        names.put("#pk", Attr.PK);
        names.put("#tenant", P_TENANT);
        names.put("#acct", P_ACCOUNT);
        names.put("#atype", P_ASSET_TYPE);
        names.put("#asset", P_ASSET);
        names.put("#txn", A_LAST_TXN);
        names.put("#upd", A_UPDATED);
        names.put("#reserved", A_RESERVED);
        names.put("#posted", A_POSTED);
        names.put("#avail", A_AVAILABLE);
        names.put("#ver", Attr.VERSION);
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
                                .key(
                                        Map.of(
                                                Attr.PK, s(key.pk()),
                                                Attr.SK, s(key.sk())))
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

    /** Approximate DynamoDB item size (names + values, UTF-8), for the bucket byte budget. */
    public static long approximateSize(Map<String, AttributeValue> item) {
        long size = 0;
        for (Map.Entry<String, AttributeValue> e : item.entrySet()) {
            size += e.getKey().getBytes(StandardCharsets.UTF_8).length;
            AttributeValue v = e.getValue();
            if (v.s() != null) {
                size += v.s().getBytes(StandardCharsets.UTF_8).length;
            } else if (v.n() != null) {
                size += 1 + (v.n().length() + 1) / 2;
            } else {
                size += 8;
            }
        }
        return size;
    }

    static AttributeValue s(String v) {
        return AttributeValue.fromS(v);
    }

    static AttributeValue n(long v) {
        return AttributeValue.fromN(Long.toString(v));
    }

    static AttributeValue n(BigDecimal v) {
        return AttributeValue.fromN(v.toPlainString());
    }

    private static long lng(Map<String, AttributeValue> item, String name) {
        AttributeValue v = item.get(name);
        return v == null || v.n() == null ? 0 : Long.parseLong(v.n());
    }
}
