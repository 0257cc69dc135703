package io.streamledger.command.ledger;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.streamledger.aws.ledger.LedgerItemCodec;
import io.streamledger.command.api.ApiException;
import io.streamledger.command.api.StrictJson;
import io.streamledger.command.idempotency.DurableResponse;
import io.streamledger.model.keys.MonthCounterKey;
import io.streamledger.model.keys.PostingKey;
import io.streamledger.model.keys.ReversalKey;
import io.streamledger.model.ledger.LedgerIds;
import io.streamledger.model.ledger.LedgerLimitExceeded;
import io.streamledger.model.ledger.LedgerSchema;
import io.streamledger.model.ledger.PostingRow;
import io.streamledger.model.ledger.PostingSequence;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.YearMonth;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import javax.annotation.Nullable;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;

/**
 * One attempt of an AP10/AP12 ledger transaction (CS11) decided from what was read, without I/O:
 * the guards (open reservation, AP12 available-balance policy), the account-month sequence
 * allocation, and the writes with the durable response, in the order the attempt's outcome is read
 * back by index.
 *
 * @param writes counters (one per account), postings (line order per account), authorities, the
 *     reversal record; a caller's own writes and the request's completion go after them
 * @param response the 201 body of the posted transaction
 * @param firstPosting index of the first posting write
 * @param postings number of posting writes
 * @param markIndex index of the reversal record, -1 without one
 */
public record LedgerTxnPlan(
        List<TransactWriteItem> writes,
        DurableResponse response,
        int firstPosting,
        int postings,
        int markIndex) {

    /** The authority a posting changes: account + asset (AP12). */
    public record AuthKey(String accountId, Asset asset) {}

    /**
     * An amount a busted fill puts back on hold on one of the authorities the transaction posts to
     * (its order's reservation re-opened): reserved rises by it in the same authority write.
     */
    public record Rehold(AuthKey key, BigDecimal amount) {}

    /**
     * What the transaction posts.
     *
     * @param txnId its deterministic id
     * @param reversalOf sourceId of the transaction it reverses
     * @param consumption the reservation its debit consumes
     * @param now the attempt's time (posting keys, month, recordedAt)
     * @param rehold what a bust puts back on hold
     */
    public record Txn(
            String tenant,
            String txnId,
            String sourceId,
            @Nullable String description,
            @Nullable String reversalOf,
            List<PostingLine> postings,
            @Nullable LedgerService.Consumption consumption,
            Instant now,
            @Nullable Rehold rehold) {

        public Txn(
                String tenant,
                String txnId,
                String sourceId,
                @Nullable String description,
                @Nullable String reversalOf,
                List<PostingLine> postings,
                @Nullable LedgerService.Consumption consumption,
                Instant now) {
            this(
                    tenant,
                    txnId,
                    sourceId,
                    description,
                    reversalOf,
                    postings,
                    consumption,
                    now,
                    null);
        }

        /** Kind of the reversal record this transaction writes. */
        String reversalKind() {
            return LedgerIds.isBustSource(sourceId) ? "BUST" : LedgerService.KIND_REVERSAL;
        }

        YearMonth month() {
            return LedgerSchema.month(now);
        }

        /** Net change per authority, in first-appearance order. */
        Map<AuthKey, BigDecimal> deltas() {
            Map<AuthKey, BigDecimal> out = new LinkedHashMap<>();
            for (PostingLine p : postings) {
                out.merge(new AuthKey(p.accountId(), p.asset()), p.amount(), BigDecimal::add);
            }
            return out;
        }

        /** Lines per account, in first-appearance order (one counter per account). */
        Map<String, List<PostingLine>> byAccount() {
            Map<String, List<PostingLine>> out = new LinkedHashMap<>();
            for (PostingLine p : postings) {
                out.computeIfAbsent(p.accountId(), k -> new ArrayList<>()).add(p);
            }
            return out;
        }
    }

    /**
     * Guards: a consumption must match an open reservation; a rehold must be on an authority the
     * transaction posts to; every authority must satisfy the AP12 available-balance policy after
     * the change.
     *
     * @param before every authority the transaction touches, as read
     * @return the authorities after the transaction, in {@link Txn#deltas()} order
     */
    public static Map<AuthKey, Authority> guard(
            Txn txn, Map<AuthKey, Authority> before, LedgerRules rules) {
        Map<AuthKey, Authority> after = new LinkedHashMap<>();
        LedgerService.Consumption consumption = txn.consumption();
        Rehold rehold = txn.rehold();
        if (rehold != null && !txn.deltas().containsKey(rehold.key())) {
            throw new IllegalStateException(
                    "rehold on an authority the txn does not post: " + rehold);
        }
        for (Map.Entry<AuthKey, BigDecimal> e : txn.deltas().entrySet()) {
            Authority a = before.get(e.getKey());
            BigDecimal reservedDelta = BigDecimal.ZERO;
            Map<String, BigDecimal> res = new TreeMap<>(a.reservations());
            if (consumption != null
                    && consumption.accountId().equals(e.getKey().accountId())
                    && consumption.asset().equals(e.getKey().asset())) {
                BigDecimal held = res.remove(consumption.reservationId());
                if (held == null) {
                    throw LedgerService.reservationNotFound(consumption.reservationId());
                }
                reservedDelta = held.negate();
            }
            if (rehold != null && rehold.key().equals(e.getKey())) {
                reservedDelta = reservedDelta.add(rehold.amount());
            }
            Authority next = a.next(e.getValue(), reservedDelta, res);
            rules.requireAvailable(a.accountId(), a.asset(), a.available(), next.available());
            after.put(e.getKey(), next);
        }
        return after;
    }

    /**
     * Allocates sequence numbers and buckets per account-month and builds the writes.
     *
     * @param before the authorities as read (their versions are the writes' conditions)
     * @param after the guarded authorities
     * @param counters account → its month counter as read
     * @throws ApiException 422 {@code LEDGER_MONTH_LIMIT} / {@code LEDGER_BUCKET_LIMIT}
     */
    static LedgerTxnPlan plan(
            Txn txn,
            Map<AuthKey, Authority> before,
            Map<AuthKey, Authority> after,
            Map<String, PostingSequence.Counter> counters,
            String ledgerTable) {
        return plan(
                txn, before, after, counters, ledgerTable, PostingSequence.MAX_POSTINGS_PER_BUCKET);
    }

    /**
     * @param bucketPostings postings per AP10 bucket before it rolls
     */
    static LedgerTxnPlan plan(
            Txn txn,
            Map<AuthKey, Authority> before,
            Map<AuthKey, Authority> after,
            Map<String, PostingSequence.Counter> counters,
            String ledgerTable,
            long bucketPostings) {
        Map<String, List<PostingLine>> byAccount = txn.byAccount();
        int lineCount = txn.postings().size();
        List<TransactWriteItem> writes = new ArrayList<>();
        List<TransactWriteItem> postingWrites = new ArrayList<>();
        ArrayNode postingViews = StrictJson.MAPPER.createArrayNode();
        for (Map.Entry<String, List<PostingLine>> e : byAccount.entrySet()) {
            String account = e.getKey();
            PostingSequence.Counter counter = counters.get(account);
            List<PostingRow> rows = new ArrayList<>();
            long bytes = 0;
            for (PostingLine p : e.getValue()) {
                PostingRow row = row(txn, p, lineCount);
                bytes += LedgerItemCodec.postingBytes(row);
                rows.add(row);
            }
            PostingSequence.Allocation alloc;
            try {
                alloc =
                        PostingSequence.allocate(
                                account,
                                counter,
                                rows.size(),
                                bytes,
                                PostingSequence.MAX_POSTINGS_PER_MONTH,
                                bucketPostings);
            } catch (LedgerLimitExceeded x) {
                throw ApiException.unprocessable(x.reason().name(), x.getMessage());
            }
            long seq = alloc.firstSequence();
            for (int i = 0; i < rows.size(); i++) {
                postingWrites.add(
                        LedgerItemCodec.postingPut(
                                ledgerTable, rows.get(i).placed(alloc.bucket(), seq)));
                ObjectNode v = postingView(e.getValue().get(i));
                v.put("bucket", alloc.bucket());
                v.put("sequence", seq);
                postingViews.add(v);
                seq++;
            }
            writes.add(
                    LedgerItemCodec.counterPut(
                            ledgerTable,
                            new MonthCounterKey(txn.tenant(), account, txn.month()),
                            counter,
                            alloc.next(),
                            txn.now()));
        }
        int firstPosting = writes.size();
        writes.addAll(postingWrites);
        for (Map.Entry<AuthKey, Authority> e : after.entrySet()) {
            writes.add(
                    e.getValue()
                            .writeFrom(
                                    before.get(e.getKey()).version(),
                                    ledgerTable,
                                    txn.txnId(),
                                    txn.now()));
        }
        int markIndex = -1;
        if (txn.reversalOf() != null) {
            markIndex = writes.size();
            writes.add(
                    LedgerItemCodec.reversalCreate(
                            ledgerTable,
                            new ReversalKey(
                                    txn.tenant(), LedgerIds.txnId(txn.tenant(), txn.reversalOf())),
                            txn.reversalOf(),
                            txn.txnId(),
                            txn.sourceId(),
                            txn.reversalKind(),
                            txn.now()));
        }
        return new LedgerTxnPlan(
                writes,
                response(txn, postingViews, after),
                firstPosting,
                postingWrites.size(),
                markIndex);
    }

    private static PostingRow row(Txn txn, PostingLine p, int lineCount) {
        return new PostingRow(
                new PostingKey(
                        txn.tenant(),
                        p.accountId(),
                        txn.month(),
                        0,
                        txn.now(),
                        txn.txnId(),
                        p.line()),
                txn.sourceId(),
                lineCount,
                p.asset().type(),
                p.asset().code(),
                p.amount(),
                0,
                txn.now(),
                txn.reversalOf() == null ? null : LedgerIds.txnId(txn.tenant(), txn.reversalOf()),
                txn.description(),
                null);
    }

    private static DurableResponse response(
            Txn txn, ArrayNode postingViews, Map<AuthKey, Authority> after) {
        ObjectNode body = StrictJson.MAPPER.createObjectNode();
        ObjectNode t = body.putObject("transaction");
        t.put("txnId", txn.txnId());
        t.put("sourceId", txn.sourceId());
        if (txn.reversalOf() != null) {
            t.put("reversalOf", txn.reversalOf());
            t.put("reversalOfTxnId", LedgerIds.txnId(txn.tenant(), txn.reversalOf()));
        }
        if (txn.description() != null) {
            t.put("description", txn.description());
        }
        t.put("recordedAt", txn.now().toString());
        t.set("postings", postingViews);
        if (txn.consumption() != null) {
            t.put("consumedReservation", txn.consumption().reservationId());
        }
        ArrayNode bal = body.putArray("balances");
        after.values().forEach(a -> bal.add(a.view()));
        return new DurableResponse(201, StrictJson.write(body));
    }

    private static ObjectNode postingView(PostingLine p) {
        ObjectNode v = StrictJson.MAPPER.createObjectNode();
        v.put("line", p.line());
        v.put("accountId", p.accountId());
        v.put(p.asset().viewField(), p.asset().code());
        v.put("amount", p.asset().format(p.amount()));
        return v;
    }
}
