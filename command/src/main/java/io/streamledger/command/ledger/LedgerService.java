package io.streamledger.command.ledger;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.streamledger.aws.items.Av;
import io.streamledger.aws.ledger.LedgerItemCodec;
import io.streamledger.aws.retry.RetryPolicy;
import io.streamledger.command.api.ApiException;
import io.streamledger.command.api.Fields;
import io.streamledger.command.api.StrictJson;
import io.streamledger.command.config.TableNames;
import io.streamledger.command.dynamo.CapacityMeter;
import io.streamledger.command.dynamo.Ddb;
import io.streamledger.command.dynamo.Tx;
import io.streamledger.command.fills.TradeItems;
import io.streamledger.command.fills.TradeQueries;
import io.streamledger.command.idempotency.Claim;
import io.streamledger.command.idempotency.DurableResponse;
import io.streamledger.command.idempotency.IdempotencyRecord;
import io.streamledger.command.idempotency.IdempotencyStore;
import io.streamledger.command.idempotency.IdempotentExecutor;
import io.streamledger.command.idempotency.OwnershipLostException;
import io.streamledger.command.idempotency.RequestState;
import io.streamledger.model.keys.AuthorityKey;
import io.streamledger.model.keys.MonthCounterKey;
import io.streamledger.model.ledger.HouseAccounts;
import io.streamledger.model.ledger.LedgerIds;
import io.streamledger.model.ledger.PostingSequence;
import io.streamledger.model.ledger.RoundingPolicy;
import io.streamledger.model.shard.SymbolSharding;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.time.YearMonth;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import javax.annotation.Nullable;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;
import software.amazon.awssdk.services.dynamodb.model.TransactionCanceledException;

/**
 * AP10/AP12 ledger admission (CS11): immutable balanced postings (IDX10) with a deterministic
 * txnId, the AP12 authority items (IDX11) compare-and-set on their version, the account-month
 * sequence counters and the AP08 record, all in one transaction; reversals link to (and mark) the
 * original; reservations block available balance so two commands cannot spend it twice.
 */
public final class LedgerService {

    public static final int MAX_VERSION_ROUNDS = 32;

    /** Reversal-record kind of a reversal posted by this route. */
    public static final String KIND_REVERSAL = "REVERSAL";

    private final Ddb ddb;
    private final TableNames tables;
    private final IdempotentExecutor executor;
    private final LedgerRules rules;
    private final LedgerTxnReader reader;
    private final TradeQueries trades;
    private final HouseAccounts house;
    private final RoundingPolicy rounding;
    private final RetryPolicy versionBackoff =
            RetryPolicy.fullJitter(MAX_VERSION_ROUNDS, Duration.ofMillis(4), Duration.ofMillis(50));

    public LedgerService(
            Ddb ddb, TableNames tables, IdempotentExecutor executor, LedgerRules rules) {
        this(
                ddb,
                tables,
                executor,
                rules,
                new TradeQueries(ddb, tables, SymbolSharding.UNSHARDED),
                new HouseAccounts(HouseAccounts.DEFAULT_SHARDS),
                RoundingPolicy.DEFAULT);
    }

    /**
     * @param trades where a fill's trade is read (AP04)
     * @param house the posting job's house accounts (where a fill's contra lines are)
     * @param rounding the posting job's fee lines
     */
    public LedgerService(
            Ddb ddb,
            TableNames tables,
            IdempotentExecutor executor,
            LedgerRules rules,
            TradeQueries trades,
            HouseAccounts house,
            RoundingPolicy rounding) {
        this.ddb = ddb;
        this.tables = tables;
        this.executor = executor;
        this.rules = rules;
        this.reader = new LedgerTxnReader(ddb, tables);
        this.trades = trades;
        this.house = house;
        this.rounding = rounding;
    }

    public LedgerRules rules() {
        return rules;
    }

    public LedgerTxnReader reader() {
        return reader;
    }

    // ------------------------------------------------------------------ transactions

    public IdempotentExecutor.Outcome post(String tenant, ObjectNode body, CapacityMeter meter) {
        LedgerTxnCommand cmd = LedgerTxnCommand.parse(Fields.of(body));
        List<PostingLine> postings = cmd.postings();
        if (cmd.reversalOf() != null) {
            // located and read before any request record: not found / not yet posted leave none
            postings = original(tenant, cmd.reversalOf(), cmd.original(), meter).reversed();
        }
        String txnId = LedgerIds.txnId(tenant, cmd.sourceId());
        List<PostingLine> finalPostings = postings;
        return executor.execute(
                tenant,
                cmd.requestKey(),
                LedgerTxnCommand.OPERATION,
                LedgerTxnCommand.SCHEMA_VERSION,
                cmd.canonical(),
                txnId,
                (claim, m) ->
                        apply(
                                claim,
                                cmd.sourceId(),
                                cmd.description(),
                                cmd.reversalOf(),
                                finalPostings,
                                null,
                                m),
                meter);
    }

    /**
     * The repair worker's re-attempt of a posted transaction from its stored canonical command
     * (AP18): same txnId, same postings, same reversal link.
     */
    public IdempotentExecutor.Effect reattempt(String tenant, String canonicalJson) {
        JsonNode c;
        try {
            c = StrictJson.MAPPER.readTree(canonicalJson);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("unreadable canonical ledger command", e);
        }
        String sourceId = c.get("sourceId").textValue();
        String description = c.hasNonNull("description") ? c.get("description").textValue() : null;
        String reversalOf = c.hasNonNull("reversalOf") ? c.get("reversalOf").textValue() : null;
        LedgerTxnReader.Location hint = LedgerTxnCommand.location(c);
        List<PostingLine> postings = new ArrayList<>();
        int line = 1;
        for (JsonNode p : c.path("postings")) {
            String[] asset = p.get("asset").textValue().split(":", 2);
            postings.add(
                    new PostingLine(
                            line++,
                            p.get("accountId").textValue(),
                            new Asset(AuthorityKey.Kind.valueOf(asset[0]), asset[1]),
                            new BigDecimal(p.get("amount").textValue())));
        }
        return (claim, meter) ->
                apply(
                        claim,
                        sourceId,
                        description,
                        reversalOf,
                        reversalOf == null
                                ? postings
                                : original(tenant, reversalOf, hint, meter).reversed(),
                        null,
                        meter);
    }

    /**
     * A transaction as the ledger holds it (AP10, strong reads), found by its txnId.
     *
     * @param lines its postings in line order
     */
    public record Original(String txnId, String sourceId, List<PostingLine> lines) {

        /** The reversing lines: same line numbers, accounts and assets, negated amounts. */
        public List<PostingLine> reversed() {
            List<PostingLine> out = new ArrayList<>();
            for (PostingLine p : lines) {
                out.add(new PostingLine(p.line(), p.accountId(), p.asset(), p.amount().negate()));
            }
            return out;
        }
    }

    /**
     * Finds the original's postings in the ledger: located from its trade (a fill's transaction,
     * {@code TRADE:<tradeId>}: the trade's account and execution time), from the caller's {@code
     * hint}, or from its AP08 result while that is retained; the postings themselves are always
     * read from IDX10 and must be complete.
     *
     * @throws ApiException 422 ORIGINAL_NOT_FOUND / ORIGINAL_INCOMPLETE, 409 ORIGINAL_NOT_POSTED (a
     *     fill the posting job has not posted yet; retryable)
     */
    public Original original(
            String tenant,
            String originalSource,
            @Nullable LedgerTxnReader.Location hint,
            CapacityMeter meter) {
        String txnId = LedgerIds.txnId(tenant, originalSource);
        boolean trade = LedgerIds.isTradeSource(originalSource);
        LedgerTxnReader.Location where =
                trade ? tradeLocation(tenant, originalSource, meter) : hint;
        if (where == null) {
            where = requestLocation(tenant, originalSource, meter);
        }
        if (where == null) {
            throw ApiException.unprocessable(
                    "ORIGINAL_NOT_FOUND",
                    "no posted ledger transaction with sourceId '"
                            + originalSource
                            + "' is known here; name its 'originalPostedAt' and"
                            + " 'originalAccounts'");
        }
        LedgerTxnReader.Found found = reader.read(tenant, txnId, where, meter);
        if (found.none() && trade) {
            throw notPosted(originalSource);
        }
        if (found.none()) {
            throw ApiException.unprocessable(
                    "ORIGINAL_NOT_FOUND",
                    "ledger transaction '"
                            + originalSource
                            + "' has no postings at "
                            + where.at()
                            + " on "
                            + where.accounts());
        }
        if (!found.complete()) {
            throw ApiException.unprocessable(
                    "ORIGINAL_INCOMPLETE",
                    "found "
                            + found.lines().size()
                            + " of the "
                            + found.lineCount()
                            + " lines of ledger transaction '"
                            + originalSource
                            + "' on "
                            + where.accounts());
        }
        return new Original(txnId, originalSource, found.lines());
    }

    /** 409 ORIGINAL_NOT_POSTED: the fill exists but the posting job has not posted it yet. */
    public static ApiException notPosted(String originalSource) {
        return new ApiException(
                409,
                "ORIGINAL_NOT_POSTED",
                "'" + originalSource + "' is admitted but not posted to the ledger yet; retry",
                Map.of("Retry-After", "1"));
    }

    /** A fill's transaction: at its execution time on the accounts the posting job uses. */
    private @Nullable LedgerTxnReader.Location tradeLocation(
            String tenant, String originalSource, CapacityMeter meter) {
        String tradeId = LedgerIds.tradeIdOf(originalSource);
        int colon = tradeId.indexOf(':');
        Map<String, AttributeValue> t =
                colon <= 0
                        ? null
                        : trades.find(tenant, tradeId.substring(0, colon), tradeId, meter);
        if (t == null) {
            throw ApiException.unprocessable(
                    "ORIGINAL_NOT_FOUND",
                    "no trade '" + tradeId + "' for '" + originalSource + "'");
        }
        return new LedgerTxnReader.Location(
                Instant.parse(Av.reqStr(t, TradeItems.A_EXECUTED)),
                house.fillAccounts(Av.reqStr(t, TradeItems.A_ACCOUNT), rounding));
    }

    /** Location from the original's AP08 result, while it is retained (TTL is cleanup only). */
    private @Nullable LedgerTxnReader.Location requestLocation(
            String tenant, String originalSource, CapacityMeter meter) {
        Map<String, AttributeValue> raw =
                ddb.ap("AP08")
                        .getStrong(
                                tables.idempotency(),
                                IdempotencyStore.key(tenant, "LEDGER:" + originalSource),
                                meter);
        IdempotencyRecord orig = raw == null ? null : IdempotencyStore.toRecord(raw);
        if (orig == null
                || orig.state() != RequestState.COMPLETED
                || orig.response() == null
                || orig.response().status() != 201) {
            return null;
        }
        try {
            JsonNode txn = StrictJson.MAPPER.readTree(orig.response().body()).get("transaction");
            List<String> accounts = new ArrayList<>();
            for (JsonNode p : txn.get("postings")) {
                accounts.add(p.get("accountId").textValue());
            }
            return new LedgerTxnReader.Location(
                    Instant.parse(txn.get("recordedAt").textValue()), accounts);
        } catch (JsonProcessingException | RuntimeException e) {
            throw new IllegalStateException("stored ledger result is unreadable", e);
        }
    }

    /** A reservation being consumed by this transaction's debit of {@code accountId/asset}. */
    record Consumption(String reservationId, String accountId, Asset asset, BigDecimal amount) {}

    /**
     * One admission of a ledger transaction, re-decided while authorities or counters move: read
     * the authorities → guard → read the account-month counters → plan → write in one transaction.
     */
    DurableResponse apply(
            Claim claim,
            String sourceId,
            @Nullable String description,
            @Nullable String reversalOf,
            List<PostingLine> postings,
            @Nullable Consumption consumption,
            CapacityMeter meter) {
        String tenant = claim.tenant();
        if (reversalOf != null
                && reader.reversal(tenant, LedgerIds.txnId(tenant, reversalOf), meter) != null) {
            // the reversal record's condition decides; this read answers before the overdraft
            // policy would
            throw alreadyReversed(reversalOf);
        }
        for (int round = 0; round < MAX_VERSION_ROUNDS; round++) {
            if (round > 0) {
                versionBackoff.pause(round);
            }
            LedgerTxnPlan.Txn txn =
                    new LedgerTxnPlan.Txn(
                            tenant,
                            claim.effectId(),
                            sourceId,
                            description,
                            reversalOf,
                            postings,
                            consumption,
                            now());
            LedgerTxnPlan plan = prepare(txn, meter);
            if (write(claim, round, txn, plan, meter)) {
                return plan.response();
            }
        }
        throw accountBusy();
    }

    /** The service clock, at the millisecond precision of keys. */
    public Instant now() {
        return executor.store().clock().instant().truncatedTo(ChronoUnit.MILLIS);
    }

    /** 503 ACCOUNT_BUSY: the authorities kept moving for every round. */
    public static ApiException accountBusy() {
        return ApiException.busy("ACCOUNT_BUSY", "accounts are being updated concurrently; retry");
    }

    /**
     * One round's read → guard → plan of {@code txn} (no write): the authorities it touches and the
     * account-month counters, strongly read. A caller that adds writes of its own (a bust) appends
     * them after {@link LedgerTxnPlan#writes()}.
     */
    public LedgerTxnPlan prepare(LedgerTxnPlan.Txn txn, CapacityMeter meter) {
        String tenant = txn.tenant();
        Map<LedgerTxnPlan.AuthKey, Authority> before = new LinkedHashMap<>();
        for (LedgerTxnPlan.AuthKey k : txn.deltas().keySet()) {
            before.put(k, readAuthority(tenant, k.accountId(), k.asset(), meter));
        }
        Map<LedgerTxnPlan.AuthKey, Authority> after = LedgerTxnPlan.guard(txn, before, rules);
        Map<String, PostingSequence.Counter> counters = new LinkedHashMap<>();
        for (String account : txn.byAccount().keySet()) {
            counters.put(account, readCounter(tenant, account, txn.month(), meter));
        }
        return LedgerTxnPlan.plan(
                txn, before, after, counters, tables.ledger(), rules.bucketPostings());
    }

    /**
     * Writes the plan and the request's completion in one transaction.
     *
     * @return false when an authority or counter moved since it was read (re-read and re-decide)
     */
    private boolean write(
            Claim claim,
            int round,
            LedgerTxnPlan.Txn txn,
            LedgerTxnPlan plan,
            CapacityMeter meter) {
        List<TransactWriteItem> tx = new ArrayList<>(plan.writes());
        int requestIndex = tx.size();
        tx.add(executor.store().completionPut(claim, plan.response()));
        try {
            ddb.ap("CS11").transact(tx, claim.roundToken(round), meter);
            return true;
        } catch (TransactionCanceledException ex) {
            var reasons = ex.cancellationReasons();
            if (Tx.conditionFailed(reasons, requestIndex)) {
                throw new OwnershipLostException();
            }
            if (plan.markIndex() >= 0 && Tx.conditionFailed(reasons, plan.markIndex())) {
                throw alreadyReversed(txn.reversalOf());
            }
            requireNoPostingClash(claim, plan, reasons);
            for (int i = 0; i < requestIndex; i++) {
                if (Tx.conditionFailed(reasons, i)) {
                    return false;
                }
            }
            throw ex;
        }
    }

    /** A posting of this txn already there while its request is open: not a retryable race. */
    public static void requireNoPostingClash(
            Claim claim,
            LedgerTxnPlan plan,
            List<software.amazon.awssdk.services.dynamodb.model.CancellationReason> reasons) {
        for (int i = plan.firstPosting(); i < plan.firstPosting() + plan.postings(); i++) {
            if (Tx.conditionFailed(reasons, i)) {
                throw new IllegalStateException(
                        "posting of txn "
                                + claim.effectId()
                                + " exists but its request is not complete");
            }
        }
    }

    private Authority readAuthority(
            String tenant, String account, Asset asset, CapacityMeter meter) {
        Map<String, AttributeValue> item =
                ddb.ap("AP12")
                        .getStrong(tables.ledger(), Authority.key(tenant, account, asset), meter);
        return item == null
                ? Authority.empty(tenant, account, asset)
                : Authority.from(tenant, item);
    }

    private PostingSequence.Counter readCounter(
            String tenant, String account, YearMonth month, CapacityMeter meter) {
        return LedgerItemCodec.counterFrom(
                ddb.ap("AP10")
                        .getStrong(
                                tables.ledger(),
                                LedgerItemCodec.key(new MonthCounterKey(tenant, account, month)),
                                meter));
    }

    // ------------------------------------------------------------------ reservations

    /** Schema version of the reservation commands' canonical form (part of their fingerprint). */
    private static final int RESERVATION_SCHEMA_VERSION = 1;

    /** POST /v1/ledger/reservations: blocks available balance under a reservation id (AP12). */
    public IdempotentExecutor.Outcome reserve(String tenant, ObjectNode body, CapacityMeter meter) {
        Fields f = Fields.of(body);
        String reservationId = f.id("reservationId");
        String account = f.id("accountId");
        Asset asset = Asset.parse(f);
        BigDecimal amount = asset.exact("amount", f.decimal("amount"));
        f.rejectUnknown();
        if (amount.signum() < 0) {
            throw ApiException.badRequest("NOT_POSITIVE", "field 'amount' must be positive");
        }
        Map<String, Object> canonical = new LinkedHashMap<>();
        canonical.put("reservationId", reservationId);
        canonical.put("accountId", account);
        canonical.put("asset", asset.toString());
        canonical.put("amount", amount);
        return executor.execute(
                tenant,
                "RESERVE:" + reservationId,
                "Reserve",
                RESERVATION_SCHEMA_VERSION,
                canonical,
                reservationId,
                (claim, m) ->
                        changeReservation(claim, account, asset, reservationId, amount, true, m),
                meter);
    }

    /** POST /v1/ledger/reservations/{id}/release: returns the blocked amount to available. */
    public IdempotentExecutor.Outcome release(
            String tenant, String reservationId, ObjectNode body, CapacityMeter meter) {
        Fields.checkId("reservation id", reservationId);
        Fields f = Fields.of(body);
        String account = f.id("accountId");
        Asset asset = Asset.parse(f);
        f.rejectUnknown();
        Map<String, Object> canonical = new LinkedHashMap<>();
        canonical.put("reservationId", reservationId);
        canonical.put("accountId", account);
        canonical.put("asset", asset.toString());
        return executor.execute(
                tenant,
                "RELEASE:" + reservationId,
                "Release",
                RESERVATION_SCHEMA_VERSION,
                canonical,
                reservationId,
                (claim, m) ->
                        changeReservation(claim, account, asset, reservationId, null, false, m),
                meter);
    }

    /**
     * POST /v1/ledger/reservations/{id}/consume: a ledger transaction that debits the reserved
     * amount from the account (posted and reserved both fall, available is unchanged) and credits
     * the counter-account, closing the reservation in the same transaction.
     */
    public IdempotentExecutor.Outcome consume(
            String tenant, String reservationId, ObjectNode body, CapacityMeter meter) {
        Fields.checkId("reservation id", reservationId);
        Fields f = Fields.of(body);
        String account = f.id("accountId");
        Asset asset = Asset.parse(f);
        String sourceId = f.id("sourceId");
        String counterAccount = f.id("counterAccountId");
        f.rejectUnknown();
        Authority a = readAuthority(tenant, account, asset, meter);
        BigDecimal held = a.reservations().get(reservationId);
        if (held == null) {
            throw reservationNotFound(reservationId);
        }
        List<PostingLine> postings =
                List.of(
                        new PostingLine(1, account, asset, held.negate()),
                        new PostingLine(2, counterAccount, asset, held));
        Map<String, Object> canonical = new LinkedHashMap<>();
        canonical.put("reservationId", reservationId);
        canonical.put("accountId", account);
        canonical.put("asset", asset.toString());
        canonical.put("sourceId", sourceId);
        canonical.put("counterAccountId", counterAccount);
        Consumption consumption = new Consumption(reservationId, account, asset, held);
        return executor.execute(
                tenant,
                "LEDGER:" + sourceId,
                "ConsumeReservation",
                RESERVATION_SCHEMA_VERSION,
                canonical,
                LedgerIds.txnId(tenant, sourceId),
                (claim, m) ->
                        apply(
                                claim,
                                sourceId,
                                "consume reservation " + reservationId,
                                null,
                                postings,
                                consumption,
                                m),
                meter);
    }

    private DurableResponse changeReservation(
            Claim claim,
            String account,
            Asset asset,
            String reservationId,
            @Nullable BigDecimal amount,
            boolean hold,
            CapacityMeter meter) {
        for (int round = 0; round < MAX_VERSION_ROUNDS; round++) {
            if (round > 0) {
                versionBackoff.pause(round);
            }
            Instant now = executor.store().clock().instant().truncatedTo(ChronoUnit.MILLIS);
            Authority a = readAuthority(claim.tenant(), account, asset, meter);
            Map<String, BigDecimal> res = new TreeMap<>(a.reservations());
            Authority next;
            BigDecimal changed;
            if (hold) {
                if (res.containsKey(reservationId)) {
                    throw ApiException.conflict(
                            "RESERVATION_EXISTS",
                            "reservation '" + reservationId + "' is already held");
                }
                if (res.size() >= 100) {
                    throw ApiException.unprocessable(
                            "TOO_MANY_RESERVATIONS",
                            "account '" + account + "' " + asset + " holds 100 open reservations");
                }
                res.put(reservationId, amount);
                changed = amount;
                next = a.next(BigDecimal.ZERO, amount, res);
                rules.requireAvailable(account, asset, a.available(), next.available());
            } else {
                BigDecimal held = res.remove(reservationId);
                if (held == null) {
                    throw reservationNotFound(reservationId);
                }
                changed = held;
                next = a.next(BigDecimal.ZERO, held.negate(), res);
            }
            ObjectNode body = StrictJson.MAPPER.createObjectNode();
            ObjectNode r = body.putObject("reservation");
            r.put("reservationId", reservationId);
            r.put("accountId", account);
            r.put(asset.viewField(), asset.code());
            r.put("amount", asset.format(changed));
            r.put("state", hold ? "HELD" : "RELEASED");
            body.set("balance", next.view());
            DurableResponse response =
                    new DurableResponse(hold ? 201 : 200, StrictJson.write(body));
            List<TransactWriteItem> tx =
                    List.of(
                            next.writeFrom(a.version(), tables.ledger(), claim.effectId(), now),
                            executor.store().completionPut(claim, response));
            try {
                ddb.ap("AP12").transact(tx, claim.roundToken(round), meter);
                return response;
            } catch (TransactionCanceledException ex) {
                if (Tx.conditionFailed(ex.cancellationReasons(), 1)) {
                    throw new OwnershipLostException();
                }
                if (Tx.conditionFailed(ex.cancellationReasons(), 0)) {
                    continue;
                }
                throw ex;
            }
        }
        throw ApiException.busy("ACCOUNT_BUSY", "account is being updated concurrently; retry");
    }

    public static ApiException alreadyReversed(@Nullable String originalSource) {
        return ApiException.conflict(
                "ALREADY_REVERSED",
                "ledger transaction '" + originalSource + "' has already been reversed");
    }

    static ApiException reservationNotFound(String id) {
        return new ApiException(404, "RESERVATION_NOT_FOUND", "no open reservation '" + id + "'");
    }
}
