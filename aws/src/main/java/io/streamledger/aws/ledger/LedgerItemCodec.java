package io.streamledger.aws.ledger;

import io.streamledger.aws.items.Av;
import io.streamledger.model.keys.AuthorityKey;
import io.streamledger.model.keys.ItemKey;
import io.streamledger.model.keys.MonthCounterKey;
import io.streamledger.model.keys.ReservationKey;
import io.streamledger.model.keys.ReversalKey;
import io.streamledger.model.ledger.LedgerSchema;
import io.streamledger.model.ledger.PostingRow;
import io.streamledger.model.ledger.PostingSequence;
import io.streamledger.model.ledger.ReservationState;
import io.streamledger.model.table.Attr;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import javax.annotation.Nullable;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.Put;
import software.amazon.awssdk.services.dynamodb.model.ReturnValuesOnConditionCheckFailure;
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
        return createOnce(table, posting(r));
    }

    private static TransactWriteItem createOnce(String table, Map<String, AttributeValue> item) {
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
     * The durable reversal record of {@code key}'s transaction, created once in the reversal's own
     * transaction: its condition failing means the original is already reversed.
     *
     * @param originalSourceId source business id of the original
     * @param reversalTxnId the reversing transaction
     * @param kind REVERSAL or BUST
     */
    public static TransactWriteItem reversalCreate(
            String table,
            ReversalKey key,
            String originalSourceId,
            String reversalTxnId,
            String reversalSourceId,
            String kind,
            Instant at) {
        Map<String, AttributeValue> item = new HashMap<>(key(key));
        item.put(LedgerSchema.TENANT, Av.s(key.tenant()));
        item.put(LedgerSchema.TXN_ID, Av.s(key.txnId()));
        item.put(LedgerSchema.SOURCE_ID, Av.s(originalSourceId));
        item.put(LedgerSchema.REVERSED_BY, Av.s(reversalTxnId));
        item.put(LedgerSchema.REVERSAL_SOURCE_ID, Av.s(reversalSourceId));
        item.put(LedgerSchema.REVERSAL_KIND, Av.s(kind));
        item.put(LedgerSchema.RECORDED_AT, Av.s(at.toString()));
        return createOnce(table, item);
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
            BigDecimal pending,
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
        if (pending.signum() != 0) {
            item.put(LedgerSchema.PENDING, Av.n(pending));
        }
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
        return authorityAdd(table, key, delta, BigDecimal.ZERO, txnId, now);
    }

    /**
     * AP12 posting of {@code delta} that also settles {@code settledPending}, the amount the fill's
     * admission recorded as pending on this authority: ADD posted :delta, pending -:settled,
     * available :(delta - settled). It runs in the posting transaction beside the inbox receipt, so
     * the pending amount moves to posted exactly once.
     */
    public static TransactWriteItem authorityAdd(
            String table,
            AuthorityKey key,
            BigDecimal delta,
            BigDecimal settledPending,
            String txnId,
            Instant now) {
        Map<String, AttributeValue> amounts = new HashMap<>();
        amounts.put(":d", Av.n(delta));
        String add = " ADD #posted :d, #avail :d, #ver :one";
        if (settledPending.signum() != 0) {
            amounts.put(":d", Av.n(delta.subtract(settledPending)));
            amounts.put(":pd", Av.n(delta));
            amounts.put(":ps", Av.n(settledPending.negate()));
            add = " ADD #posted :pd, #pending :ps, #avail :d, #ver :one";
        }
        return authorityUpdate(
                table,
                key,
                "#reserved = if_not_exists(#reserved, :zero)" + add,
                "attribute_not_exists(#pk) OR #atype = :atype",
                amounts,
                txnId,
                now,
                false);
    }

    /** A new OPEN reservation of {@code amount} of {@code authority}'s asset for one order. */
    public static Map<String, AttributeValue> reservation(
            ReservationKey key, AuthorityKey authority, BigDecimal amount, Instant at) {
        Map<String, AttributeValue> item = new HashMap<>(key(key));
        item.put(LedgerSchema.TENANT, Av.s(key.tenant()));
        item.put(LedgerSchema.ACCOUNT, Av.s(key.account()));
        item.put(LedgerSchema.ORDER_ID, Av.s(key.orderId()));
        item.put(LedgerSchema.ASSET_TYPE, Av.s(authority.kind().name()));
        item.put(LedgerSchema.ASSET, Av.s(authority.asset()));
        item.put(LedgerSchema.AMOUNT, Av.n(amount));
        item.put(LedgerSchema.CONSUMED, Av.n(BigDecimal.ZERO));
        item.put(LedgerSchema.RESERVATION_STATE, Av.s(ReservationState.OPEN.name()));
        item.put(LedgerSchema.VERSION, Av.n(1));
        item.put(LedgerSchema.CREATED_AT, Av.s(at.toString()));
        item.put(LedgerSchema.UPDATED_AT, Av.s(at.toString()));
        return item;
    }

    /** Creates a reservation item; fails if the order already holds one. */
    public static TransactWriteItem reservationCreate(
            String table, Map<String, AttributeValue> item) {
        return createOnce(table, item);
    }

    /**
     * AP12 hold without a read: ADD {@code amount} to reserved, subtract it from available and bump
     * the version, on the condition that available already covers it. The condition, not a prior
     * read, is the guarantee: concurrent holds serialise on the item and each sees the previous
     * one's available. A missing authority has nothing available. An overdraft-exempt account
     * ({@code enforce} false) is held without that condition (its authority is created if absent).
     * The old item is returned on failure, so the caller can state what was available.
     */
    public static TransactWriteItem authorityHold(
            String table,
            AuthorityKey key,
            BigDecimal amount,
            boolean enforce,
            String ref,
            Instant now) {
        return authorityReservedDelta(
                table,
                key,
                amount,
                enforce ? "#avail >= :d" : "attribute_not_exists(#pk) OR #atype = :atype",
                ref,
                now);
    }

    /** AP12 release: returns {@code amount} from reserved to available on an existing authority. */
    public static TransactWriteItem authorityRelease(
            String table, AuthorityKey key, BigDecimal amount, String ref, Instant now) {
        return authorityReservedDelta(table, key, amount.negate(), "#reserved >= :neg", ref, now);
    }

    /**
     * AP12 effect of an admitted fill: {@code released} leaves reserved and {@code pending}
     * (signed: bought quantity in, sold quantity or spent cash out) is recorded until the fill is
     * posted, so available moves by {@code released + pending} at once and never waits for the
     * posting job. With nothing released the authority is created if absent (a first purchase of a
     * security).
     */
    public static TransactWriteItem authorityConsume(
            String table,
            AuthorityKey key,
            BigDecimal released,
            BigDecimal pending,
            String ref,
            Instant now) {
        return authorityReservedDelta(
                table,
                key,
                released.negate(),
                pending,
                released.signum() == 0
                        ? "attribute_not_exists(#pk) OR #atype = :atype"
                        : "#reserved >= :neg",
                ref,
                now);
    }

    private static TransactWriteItem authorityReservedDelta(
            String table,
            AuthorityKey key,
            BigDecimal delta,
            String condition,
            String ref,
            Instant now) {
        return authorityReservedDelta(table, key, delta, BigDecimal.ZERO, condition, ref, now);
    }

    private static TransactWriteItem authorityReservedDelta(
            String table,
            AuthorityKey key,
            BigDecimal delta,
            BigDecimal pending,
            String condition,
            String ref,
            Instant now) {
        Map<String, AttributeValue> amounts = new HashMap<>();
        amounts.put(":d", Av.n(delta));
        amounts.put(":neg", Av.n(delta.negate()));
        String add = " ADD #reserved :d, #avail :neg, #ver :one";
        if (pending.signum() != 0) {
            amounts.put(":pend", Av.n(pending));
            amounts.put(":avd", Av.n(pending.subtract(delta)));
            add = " ADD #reserved :d, #pending :pend, #avail :avd, #ver :one";
        }
        return authorityUpdate(
                table,
                key,
                "#posted = if_not_exists(#posted, :zero)" + add,
                condition,
                amounts,
                ref,
                now,
                true);
    }

    /** Placeholders of the authority updates; each request names only those it uses. */
    private static final Map<String, String> AUTHORITY_NAMES =
            Map.ofEntries(
                    Map.entry("#pk", Attr.PK),
                    Map.entry("#tenant", LedgerSchema.TENANT),
                    Map.entry("#acct", LedgerSchema.ACCOUNT),
                    Map.entry("#atype", LedgerSchema.ASSET_TYPE),
                    Map.entry("#asset", LedgerSchema.ASSET),
                    Map.entry("#txn", LedgerSchema.LAST_TXN_ID),
                    Map.entry("#upd", LedgerSchema.UPDATED_AT),
                    Map.entry("#reserved", LedgerSchema.RESERVED),
                    Map.entry("#posted", LedgerSchema.POSTED),
                    Map.entry("#pending", LedgerSchema.PENDING),
                    Map.entry("#avail", LedgerSchema.AVAILABLE),
                    Map.entry("#ver", LedgerSchema.VERSION));

    private static final Pattern PLACEHOLDER = Pattern.compile("[#:][A-Za-z0-9_]+");

    /**
     * One AP12 authority update: sets the identity, last txn and time, then {@code change}; names
     * and values are cut to those the expressions use (DynamoDB refuses unused ones).
     */
    private static TransactWriteItem authorityUpdate(
            String table,
            AuthorityKey key,
            String change,
            String condition,
            Map<String, AttributeValue> amounts,
            String txnId,
            Instant now,
            boolean returnOldOnFailure) {
        String update =
                "SET #tenant = :tenant, #acct = :acct, #atype = :atype, #asset = :asset,"
                        + " #txn = :txn, #upd = :upd, "
                        + change;
        Set<String> used = new HashSet<>();
        PLACEHOLDER.matcher(update + " " + condition).results().forEach(m -> used.add(m.group()));
        Map<String, AttributeValue> values = new HashMap<>(amounts);
        values.put(":tenant", Av.s(key.tenant()));
        values.put(":acct", Av.s(key.account()));
        values.put(":atype", Av.s(key.kind().name()));
        values.put(":asset", Av.s(key.asset()));
        values.put(":txn", Av.s(txnId));
        values.put(":upd", Av.s(now.toString()));
        values.put(":zero", Av.n(BigDecimal.ZERO));
        values.put(":one", Av.n(1));
        values.keySet().retainAll(used);
        Map<String, String> names = new HashMap<>(AUTHORITY_NAMES);
        names.keySet().retainAll(used);
        Update.Builder u =
                Update.builder()
                        .tableName(table)
                        .key(key(key))
                        .updateExpression(update)
                        .conditionExpression(condition)
                        .expressionAttributeNames(names)
                        .expressionAttributeValues(values);
        if (returnOldOnFailure) {
            u.returnValuesOnConditionCheckFailure(ReturnValuesOnConditionCheckFailure.ALL_OLD);
        }
        return TransactWriteItem.builder().update(u.build()).build();
    }

    /**
     * Closes an OPEN reservation: state → {@code to}, {@code released} records what went back to
     * available, version + 1, on the condition that it is still OPEN at {@code expectedVersion}.
     */
    public static TransactWriteItem reservationClose(
            String table,
            ReservationKey key,
            long expectedVersion,
            ReservationState to,
            BigDecimal released,
            Instant now) {
        return reservationConsume(table, key, expectedVersion, BigDecimal.ZERO, to, released, now);
    }

    /**
     * Consumes {@code consumed} of an OPEN reservation for one fill; a completing fill also
     * releases the rest ({@code to} = CONSUMED, {@code released} = what went back to available).
     * Conditional on the version it was read at and on still being OPEN.
     */
    public static TransactWriteItem reservationConsume(
            String table,
            ReservationKey key,
            long expectedVersion,
            BigDecimal consumed,
            ReservationState to,
            BigDecimal released,
            Instant now) {
        Map<String, AttributeValue> values = new HashMap<>();
        values.put(":to", Av.s(to.name()));
        values.put(":open", Av.s(ReservationState.OPEN.name()));
        values.put(":c", Av.n(consumed));
        values.put(":rel", Av.n(released));
        return reservationUpdate(
                table,
                key,
                expectedVersion,
                "SET #state = :to, #rel = :rel, #ver = :next, #upd = :upd ADD #cons :c",
                "#state = :open AND #ver = :v",
                values,
                now);
    }

    /**
     * Re-opens an order's reservation after one of its fills was busted: {@code consumedBack}
     * returns from consumed to the hold, what a completion released stays released (the amount
     * shrinks by it, released goes back to 0), state OPEN, version + 1, conditional on the version
     * it was read at.
     */
    public static TransactWriteItem reservationReopen(
            String table,
            ReservationKey key,
            long expectedVersion,
            BigDecimal consumedBack,
            BigDecimal released,
            Instant now) {
        Map<String, AttributeValue> values = new HashMap<>();
        values.put(":open", Av.s(ReservationState.OPEN.name()));
        values.put(":c", Av.n(consumedBack.negate()));
        values.put(":a", Av.n(released.negate()));
        values.put(":zero", Av.n(BigDecimal.ZERO));
        return reservationUpdate(
                table,
                key,
                expectedVersion,
                "SET #state = :open, #rel = :zero, #ver = :next, #upd = :upd ADD #cons :c, #amt :a",
                "#ver = :v",
                values,
                now);
    }

    private static final Map<String, String> RESERVATION_NAMES =
            Map.of(
                    "#state", LedgerSchema.RESERVATION_STATE,
                    "#amt", LedgerSchema.AMOUNT,
                    "#cons", LedgerSchema.CONSUMED,
                    "#rel", LedgerSchema.RELEASED,
                    "#ver", LedgerSchema.VERSION,
                    "#upd", LedgerSchema.UPDATED_AT);

    /** One reservation update at {@code expectedVersion} (→ +1); names cut to those used. */
    private static TransactWriteItem reservationUpdate(
            String table,
            ReservationKey key,
            long expectedVersion,
            String update,
            String condition,
            Map<String, AttributeValue> amounts,
            Instant now) {
        Set<String> used = new HashSet<>();
        PLACEHOLDER.matcher(update + " " + condition).results().forEach(m -> used.add(m.group()));
        Map<String, AttributeValue> values = new HashMap<>(amounts);
        values.put(":v", Av.n(expectedVersion));
        values.put(":next", Av.n(expectedVersion + 1));
        values.put(":upd", Av.s(now.toString()));
        values.keySet().retainAll(used);
        Map<String, String> names = new HashMap<>(RESERVATION_NAMES);
        names.keySet().retainAll(used);
        return TransactWriteItem.builder()
                .update(
                        Update.builder()
                                .tableName(table)
                                .key(key(key))
                                .updateExpression(update)
                                .conditionExpression(condition)
                                .expressionAttributeNames(names)
                                .expressionAttributeValues(values)
                                .build())
                .build();
    }
}
