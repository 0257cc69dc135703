package io.streamledger.sinks.posting;

import io.streamledger.aws.ledger.LedgerItemCodec;
import io.streamledger.model.keys.InboxKey;
import io.streamledger.model.keys.MonthCounterKey;
import io.streamledger.model.keys.PostingKey;
import io.streamledger.model.ledger.LedgerSchema;
import io.streamledger.model.ledger.PostingRow;
import io.streamledger.model.shard.ShardAssignment;
import io.streamledger.model.table.Attr;
import io.streamledger.operators.posting.LedgerLine;
import io.streamledger.operators.posting.PostingPlan;
import io.streamledger.operators.posting.PostingTransactionPlan;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.Put;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;

/**
 * The DynamoDB items of one posted fill that are the posting job's own: the AP09 receipt, and the
 * mapping of a {@link PostingPlan} line to the shared {@link PostingRow} (AP10) that {@link
 * LedgerItemCodec} writes, so the ledger-check job sees one ledger whoever wrote it.
 */
public final class LedgerItems {

    // receipt attributes
    public static final String R_CONSUMER = "consumer";
    public static final String R_SOURCE_AGGREGATE = "sourceAggregate";
    public static final String R_RECEIVED = "receivedAt";

    private LedgerItems() {}

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
        item.put(LedgerSchema.TXN_ID, s(txnId));
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

    /** One line of a fill's transaction as an immutable posting row, before its allocation. */
    public static PostingRow posting(
            PostingPlan plan, LedgerLine line, String eventId, Instant recordedAt) {
        PostingKey key =
                new PostingKey(
                        plan.tenant(),
                        line.accountId(),
                        LedgerSchema.month(plan.effectiveAt()),
                        0,
                        plan.effectiveAt(),
                        plan.txnId(),
                        line.line());
        PostingRow.Rounding rounding =
                line.role().startsWith(LedgerSchema.CONSIDERATION_ROLE_PREFIX)
                        ? new PostingRow.Rounding(
                                plan.grossExact(), plan.roundingResidual(), plan.roundingMode())
                        : null;
        return new PostingRow(
                key,
                plan.sourceId(),
                plan.lines().size(),
                line.assetType(),
                line.asset(),
                line.amount(),
                0,
                recordedAt,
                null,
                null,
                new PostingRow.FillLine(plan.effectiveAt(), line.role(), eventId, rounding));
    }

    /** The SDK items of one fill's posting transaction, in its order (AP09 + AP10 + AP12). */
    public static List<TransactWriteItem> encode(
            PostingTransactionPlan tx, String ledgerTable, String inboxTable) {
        PostingPlan plan = tx.plan();
        Instant now = tx.recordedAt();
        String ledger = ledgerTable;
        List<TransactWriteItem> out = new ArrayList<>(tx.items().size());
        for (PostingTransactionPlan.Item item : tx.items()) {
            if (item instanceof PostingTransactionPlan.Receipt r) {
                out.add(
                        receipt(
                                inboxTable,
                                r.key(),
                                r.shard(),
                                r.orderId(),
                                r.orderVersion(),
                                plan.txnId(),
                                now,
                                r.expiresAtEpochSeconds()));
            } else if (item instanceof PostingTransactionPlan.Posting p) {
                out.add(
                        LedgerItemCodec.postingPut(
                                ledger,
                                posting(plan, p.line(), tx.fill().getEventId(), now)
                                        .placed(p.bucket(), p.sequence())));
            } else if (item instanceof PostingTransactionPlan.CounterWrite c) {
                out.add(
                        LedgerItemCodec.counterPut(
                                ledger,
                                new MonthCounterKey(plan.tenant(), c.account(), tx.month()),
                                c.before(),
                                c.next(),
                                now));
            } else if (item instanceof PostingTransactionPlan.AuthorityAdd a) {
                out.add(
                        LedgerItemCodec.authorityAdd(
                                ledger, a.key(), a.delta(), a.settledPending(), plan.txnId(), now));
            } else {
                throw new IllegalStateException("unknown transaction item " + item);
            }
        }
        return out;
    }

    static AttributeValue s(String v) {
        return AttributeValue.fromS(v);
    }

    static AttributeValue n(long v) {
        return AttributeValue.fromN(Long.toString(v));
    }
}
