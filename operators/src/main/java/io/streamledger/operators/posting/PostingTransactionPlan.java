package io.streamledger.operators.posting;

import io.streamledger.model.keys.AuthorityKey;
import io.streamledger.model.keys.InboxKey;
import io.streamledger.model.ledger.LedgerLimitExceeded;
import io.streamledger.model.ledger.LedgerSchema;
import io.streamledger.model.ledger.PostingSequence;
import io.streamledger.model.shard.ShardAssignment;
import io.streamledger.model.shard.ShardMap;
import io.streamledger.model.shard.ShardMapState;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.time.YearMonth;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The one DynamoDB transaction that posts a fill (AP09 + AP10 + AP12), as plain data: what each
 * write is and which condition guards it, in transaction order — the inbox receipt first (created
 * once), the posting rows in line order (created once), the account-month counters (compare-and-set
 * on their version) and the AP12 authority deltas (ADD). Built without I/O from the fill, its
 * {@link PostingPlan} and the counters read before; the sink encodes and writes it.
 *
 * @param fill the fill
 * @param plan its balanced ledger transaction
 * @param month the account-month of the postings
 * @param recordedAt the recording time written on every item
 * @param items the writes, in transaction order
 * @param nextCounters the counters the transaction leaves behind when it commits
 */
public record PostingTransactionPlan(
        TradeFill fill,
        PostingPlan plan,
        YearMonth month,
        Instant recordedAt,
        List<Item> items,
        Map<String, PostingSequence.Counter> nextCounters) {

    /** Position of the receipt: its condition failing means "already posted" (AP09). */
    public static final int RECEIPT_INDEX = 0;

    /** DynamoDB's bound on the actions of one TransactWriteItems (AP09). */
    public static final int MAX_TRANSACTION_ITEMS = 100;

    /** DynamoDB's bound on the aggregate size of one transaction (AP09). */
    public static final long MAX_TRANSACTION_BYTES = 4L * 1024 * 1024;

    public PostingTransactionPlan {
        items = List.copyOf(items);
        nextCounters = Map.copyOf(nextCounters);
    }

    /** One write of the transaction. */
    public sealed interface Item
            permits Receipt, Posting, CounterWrite, AuthorityAdd, ReceiptAbsent {}

    /**
     * The AP09 inbox receipt (IDX09), created once, under the shard-map version the event's
     * recorded admission time routes to.
     */
    public record Receipt(
            InboxKey key,
            ShardAssignment shard,
            String orderId,
            long orderVersion,
            long expiresAtEpochSeconds,
            long admittedAtMillis)
            implements Item {}

    /**
     * While a reshard runs both versions (AP09 "check the bounded old/new versions"): the event's
     * receipt under the other version must not exist; last in the transaction, its condition
     * failing also means "already posted".
     */
    public record ReceiptAbsent(InboxKey key) implements Item {}

    /** One immutable IDX10 posting row, created once. */
    public record Posting(LedgerLine line, int bucket, long sequence) implements Item {}

    /** An AP10 account-month counter: created when {@code before} is empty, else CAS on version. */
    public record CounterWrite(
            String account, PostingSequence.Counter before, PostingSequence.Counter next)
            implements Item {

        public boolean creates() {
            return before.version() == 0;
        }
    }

    /**
     * An AP12 authority update: ADD {@code delta} to posted and 1 to the version, and move {@code
     * settledPending} (what the fill's admission recorded as pending here) out of pending, so
     * available moves by {@code delta - settledPending}; exactly once with the receipt.
     */
    public record AuthorityAdd(AuthorityKey key, BigDecimal delta, BigDecimal settledPending)
            implements Item {

        public AuthorityAdd(AuthorityKey key, BigDecimal delta) {
            this(key, delta, BigDecimal.ZERO);
        }
    }

    /** Encoded size of one posting row, for the bucket byte budget (AP10). */
    @FunctionalInterface
    public interface PostingSizer {
        long bytes(PostingPlan plan, LedgerLine line, String eventId, Instant recordedAt);
    }

    /** The receipt's consumer and retention (cleanup only). */
    public record ReceiptPolicy(String consumer, Duration retention) {}

    /** The account-month (UTC) of a business time. */
    public static YearMonth month(Instant at) {
        return LedgerSchema.month(at);
    }

    /** The distinct accounts of {@code plan}, in line order: the counters it needs. */
    public static List<String> accounts(PostingPlan plan) {
        List<String> out = new ArrayList<>();
        for (LedgerLine l : plan.lines()) {
            if (!out.contains(l.accountId())) {
                out.add(l.accountId());
            }
        }
        return out;
    }

    /** The AP12 authority item of a line. */
    public static AuthorityKey authorityKey(String tenant, LedgerLine l) {
        return new AuthorityKey(tenant, l.accountId(), l.assetType(), l.asset());
    }

    /**
     * Plans the transaction of {@code fill}.
     *
     * @param counters the current counter of every account of {@link #accounts}
     * @param monthLimit postings admitted per account-month (see PostingSequence)
     * @throws PostingRejectedException when an account-month is full or the transaction would
     *     exceed DynamoDB's transaction bounds: a business rejection, nothing may be written
     */
    public static PostingTransactionPlan build(
            TradeFill fill,
            PostingPlan plan,
            Map<String, PostingSequence.Counter> counters,
            ReceiptPolicy receipts,
            Instant recordedAt,
            PostingSizer sizer,
            long monthLimit) {
        return build(
                fill,
                plan,
                counters,
                receipts,
                recordedAt,
                sizer,
                monthLimit,
                ShardMapState.initial(ShardMap.INBOX));
    }

    /**
     * Plans the transaction of {@code fill} with its receipt routed by {@code inboxMaps}: the map
     * its recorded admission time selects, plus an absence check under the other version while both
     * are live.
     */
    public static PostingTransactionPlan build(
            TradeFill fill,
            PostingPlan plan,
            Map<String, PostingSequence.Counter> counters,
            ReceiptPolicy receipts,
            Instant recordedAt,
            PostingSizer sizer,
            long monthLimit,
            ShardMapState inboxMaps) {
        long totalBytes = 0;
        YearMonth month = month(plan.effectiveAt());
        List<Item> items = new ArrayList<>();
        ShardMap routed = inboxMaps.route(fill.getAdmittedAtMillis());
        items.add(
                new Receipt(
                        InboxKey.forEvent(receipts.consumer(), fill.getEventId(), routed),
                        routed.assign(fill.getEventId()),
                        fill.getOrderId(),
                        fill.getOrderVersion(),
                        recordedAt.plus(receipts.retention()).getEpochSecond(),
                        fill.getAdmittedAtMillis()));

        Map<String, List<LedgerLine>> byAccount = new LinkedHashMap<>();
        for (LedgerLine l : plan.lines()) {
            byAccount.computeIfAbsent(l.accountId(), k -> new ArrayList<>()).add(l);
        }
        List<Item> counterWrites = new ArrayList<>();
        Map<String, PostingSequence.Counter> next = new LinkedHashMap<>();
        Map<Integer, Item> postingByLine = new TreeMap<>();
        for (Map.Entry<String, List<LedgerLine>> e : byAccount.entrySet()) {
            PostingSequence.Counter before = counters.get(e.getKey());
            if (before == null) {
                throw new IllegalArgumentException("no counter for account " + e.getKey());
            }
            long bytes = 0;
            for (LedgerLine l : e.getValue()) {
                bytes += sizer.bytes(plan, l, fill.getEventId(), recordedAt);
            }
            totalBytes += bytes;
            PostingSequence.Allocation alloc;
            try {
                alloc =
                        PostingSequence.allocate(
                                e.getKey(), before, e.getValue().size(), bytes, monthLimit);
            } catch (LedgerLimitExceeded x) {
                throw new PostingRejectedException(
                        PostingRejectedException.Reason.of(x.reason()), x.getMessage());
            }
            long seq = alloc.firstSequence();
            for (LedgerLine l : e.getValue()) {
                postingByLine.put(l.line(), new Posting(l, alloc.bucket(), seq++));
            }
            next.put(e.getKey(), alloc.next());
            counterWrites.add(new CounterWrite(e.getKey(), before, alloc.next()));
        }
        items.addAll(postingByLine.values()); // indexes 1..lines, in line order
        items.addAll(counterWrites);
        for (Map.Entry<String, BigDecimal> d : plan.deltasByAuthority().entrySet()) {
            LedgerLine first = firstLine(plan, d.getKey());
            items.add(
                    new AuthorityAdd(
                            authorityKey(plan.tenant(), first),
                            d.getValue(),
                            settledPending(fill, first)));
        }
        ShardMap other = inboxMaps.alsoCheck(routed);
        if (other != null) {
            items.add(
                    new ReceiptAbsent(
                            InboxKey.forEvent(receipts.consumer(), fill.getEventId(), other)));
        }
        if (items.size() > MAX_TRANSACTION_ITEMS || totalBytes > MAX_TRANSACTION_BYTES) {
            throw new PostingRejectedException(
                    PostingRejectedException.Reason.TRANSACTION_TOO_LARGE,
                    items.size()
                            + " actions / "
                            + totalBytes
                            + " posting bytes; the bounds are "
                            + MAX_TRANSACTION_ITEMS
                            + " / "
                            + MAX_TRANSACTION_BYTES);
        }
        return new PostingTransactionPlan(fill, plan, month, recordedAt, items, next);
    }

    /** True when item {@code index} is the receipt or an absence check of another version. */
    public boolean isReceiptCheck(int index) {
        return index == RECEIPT_INDEX
                || (index < items.size() && items.get(index) instanceof ReceiptAbsent);
    }

    /** Index just past the last posting row: items 1 until this are postings. */
    public int postingsEnd() {
        return 1 + plan.lines().size();
    }

    /** The client's pending amount on the authority of {@code line}, as the admission recorded. */
    static BigDecimal settledPending(TradeFill fill, LedgerLine line) {
        if (!line.accountId().equals(fill.getAccountId())) {
            return BigDecimal.ZERO;
        }
        BigDecimal pending =
                switch (line.assetType()) {
                    case CASH ->
                            line.asset().equals(fill.getCurrency()) ? fill.getPendingCash() : null;
                    case SEC ->
                            line.asset().equals(fill.getSymbol())
                                    ? fill.getPendingQuantity()
                                    : null;
                };
        return pending == null ? BigDecimal.ZERO : pending;
    }

    private static LedgerLine firstLine(PostingPlan plan, String authorityId) {
        for (LedgerLine l : plan.lines()) {
            if (l.authorityId().equals(authorityId)) {
                return l;
            }
        }
        throw new IllegalStateException("no line for " + authorityId);
    }
}
