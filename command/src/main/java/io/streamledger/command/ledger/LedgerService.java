package io.streamledger.command.ledger;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.streamledger.aws.items.Av;
import io.streamledger.aws.retry.RetryPolicy;
import io.streamledger.command.api.ApiException;
import io.streamledger.command.api.Fields;
import io.streamledger.command.api.StrictJson;
import io.streamledger.command.config.DeterministicIds;
import io.streamledger.command.config.Schema;
import io.streamledger.command.config.TableNames;
import io.streamledger.command.dynamo.CapacityMeter;
import io.streamledger.command.dynamo.Ddb;
import io.streamledger.command.dynamo.Tx;
import io.streamledger.command.idempotency.Claim;
import io.streamledger.command.idempotency.DurableResponse;
import io.streamledger.command.idempotency.IdempotencyRecord;
import io.streamledger.command.idempotency.IdempotencyStore;
import io.streamledger.command.idempotency.IdempotentExecutor;
import io.streamledger.command.idempotency.OwnershipLostException;
import io.streamledger.command.idempotency.RequestState;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.time.YearMonth;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import javax.annotation.Nullable;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.Put;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;
import software.amazon.awssdk.services.dynamodb.model.TransactionCanceledException;
import software.amazon.awssdk.services.dynamodb.model.Update;

/**
 * AP10/AP12 ledger admission (CS11): immutable balanced postings (IDX10) with a deterministic
 * txnId, the AP12 authority items (IDX11) compare-and-set on their version, the account-month
 * sequence counters and the AP08 record, all in one transaction; reversals link to (and mark) the
 * original; reservations block available balance so two commands cannot spend it twice.
 */
public final class LedgerService {

    public static final int MAX_VERSION_ROUNDS = 32;

    // posting/counter attribute names
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
    public static final String P_REVERSAL_OF = "reversalOf";
    public static final String P_DESCRIPTION = "description";
    public static final String C_MONTH_COUNT = "monthCount";
    public static final String C_BUCKET = "bucket";
    public static final String C_BUCKET_COUNT = "bucketCount";
    public static final String C_BUCKET_BYTES = "bucketBytes";
    public static final String C_VERSION = "version";
    public static final String R_REVERSED_BY = "reversedBy";

    private final Ddb ddb;
    private final TableNames tables;
    private final IdempotentExecutor executor;
    private final LedgerRules rules;
    private final RetryPolicy versionBackoff =
            RetryPolicy.fullJitter(MAX_VERSION_ROUNDS, Duration.ofMillis(4), Duration.ofMillis(50));

    public LedgerService(
            Ddb ddb, TableNames tables, IdempotentExecutor executor, LedgerRules rules) {
        this.ddb = ddb;
        this.tables = tables;
        this.executor = executor;
        this.rules = rules;
    }

    // ------------------------------------------------------------------ transactions

    public IdempotentExecutor.Outcome post(String tenant, ObjectNode body, CapacityMeter meter) {
        LedgerTxnCommand cmd = LedgerTxnCommand.parse(Fields.of(body));
        List<PostingLine> postings = cmd.postings();
        if (cmd.reversalOf() != null) {
            postings = reversedPostings(tenant, cmd.reversalOf(), meter);
        }
        String txnId = DeterministicIds.txnId(tenant, cmd.sourceId());
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
        List<PostingLine> postings = new ArrayList<>();
        int line = 1;
        for (JsonNode p : c.path("postings")) {
            String[] asset = p.get("asset").textValue().split(":", 2);
            postings.add(
                    new PostingLine(
                            line++,
                            p.get("accountId").textValue(),
                            new Asset(Asset.Type.valueOf(asset[0]), asset[1]),
                            new BigDecimal(p.get("amount").textValue())));
        }
        return (claim, meter) ->
                apply(
                        claim,
                        sourceId,
                        description,
                        reversalOf,
                        reversalOf == null ? postings : reversedPostings(tenant, reversalOf, meter),
                        null,
                        meter);
    }

    /** The negation of the original's postings, read from its durable AP08 result. */
    private List<PostingLine> reversedPostings(
            String tenant, String originalSource, CapacityMeter meter) {
        Map<String, AttributeValue> raw =
                ddb.getStrong(
                        tables.idempotency(),
                        IdempotencyStore.key(tenant, "LEDGER:" + originalSource),
                        meter);
        IdempotencyRecord orig = raw == null ? null : IdempotencyStore.toRecord(raw);
        if (orig == null
                || orig.state() != RequestState.COMPLETED
                || orig.response() == null
                || orig.response().status() != 201) {
            throw ApiException.unprocessable(
                    "ORIGINAL_NOT_FOUND",
                    "no posted ledger transaction with sourceId '" + originalSource + "'");
        }
        if (raw.containsKey(R_REVERSED_BY)) {
            // checked again by the reversal transaction's condition; this read gives the
            // precise answer before the overdraft policy would
            throw ApiException.conflict(
                    "ALREADY_REVERSED",
                    "ledger transaction '" + originalSource + "' has already been reversed");
        }
        List<PostingLine> out = new ArrayList<>();
        try {
            JsonNode txn = StrictJson.MAPPER.readTree(orig.response().body()).get("transaction");
            for (JsonNode p : txn.get("postings")) {
                Asset asset =
                        p.has("currency")
                                ? new Asset(Asset.Type.CASH, p.get("currency").textValue())
                                : new Asset(Asset.Type.SEC, p.get("symbol").textValue());
                out.add(
                        new PostingLine(
                                p.get("line").intValue(),
                                p.get("accountId").textValue(),
                                asset,
                                new BigDecimal(p.get("amount").textValue()).negate()));
            }
        } catch (JsonProcessingException | RuntimeException e) {
            throw new IllegalStateException("stored ledger result is unreadable", e);
        }
        return out;
    }

    /** A reservation being consumed by this transaction's debit of {@code accountId/asset}. */
    record Consumption(String reservationId, String accountId, Asset asset, BigDecimal amount) {}

    private record AuthKey(String accountId, Asset asset) {}

    DurableResponse apply(
            Claim claim,
            String sourceId,
            @Nullable String description,
            @Nullable String reversalOf,
            List<PostingLine> postings,
            @Nullable Consumption consumption,
            CapacityMeter meter) {
        String tenant = claim.tenant();
        String txnId = claim.effectId();
        for (int round = 0; round < MAX_VERSION_ROUNDS; round++) {
            if (round > 0) {
                versionBackoff.pause(round);
            }
            Instant now =
                    executor.store()
                            .clock()
                            .instant()
                            .truncatedTo(java.time.temporal.ChronoUnit.MILLIS);
            YearMonth month = YearMonth.from(now.atZone(ZoneOffset.UTC));

            // 1. strongly read every authority and account-month counter the txn touches
            Map<AuthKey, BigDecimal> deltas = new LinkedHashMap<>();
            Map<String, List<PostingLine>> byAccount = new LinkedHashMap<>();
            for (PostingLine p : postings) {
                deltas.merge(new AuthKey(p.accountId(), p.asset()), p.amount(), BigDecimal::add);
                byAccount.computeIfAbsent(p.accountId(), k -> new ArrayList<>()).add(p);
            }
            Map<AuthKey, Authority> before = new LinkedHashMap<>();
            for (AuthKey k : deltas.keySet()) {
                before.put(k, readAuthority(tenant, k.accountId(), k.asset(), meter));
            }

            // 2. guard clauses: consumption must match an open reservation; AP12 policy
            Map<AuthKey, Authority> after = new LinkedHashMap<>();
            for (Map.Entry<AuthKey, BigDecimal> e : deltas.entrySet()) {
                Authority a = before.get(e.getKey());
                BigDecimal reservedDelta = BigDecimal.ZERO;
                Map<String, BigDecimal> res = new TreeMap<>(a.reservations());
                if (consumption != null
                        && consumption.accountId().equals(e.getKey().accountId())
                        && consumption.asset().equals(e.getKey().asset())) {
                    BigDecimal held = res.remove(consumption.reservationId());
                    if (held == null) {
                        throw reservationNotFound(consumption.reservationId());
                    }
                    reservedDelta = held.negate();
                }
                Authority next = a.next(e.getValue(), reservedDelta, res);
                rules.requireAvailable(a.accountId(), a.asset(), a.available(), next.available());
                after.put(e.getKey(), next);
            }

            // 3. allocate sequence numbers and buckets per account-month
            List<TransactWriteItem> tx = new ArrayList<>();
            List<Map<String, AttributeValue>> postingItems = new ArrayList<>();
            int lineCount = byAccount.values().stream().mapToInt(List::size).sum();
            ArrayNode postingViews = StrictJson.MAPPER.createArrayNode();
            for (Map.Entry<String, List<PostingLine>> e : byAccount.entrySet()) {
                String account = e.getKey();
                PostingBuckets.MonthCounter counter = readCounter(tenant, account, month, meter);
                List<Map<String, AttributeValue>> items = new ArrayList<>();
                long bytes = 0;
                for (PostingLine p : e.getValue()) {
                    Map<String, AttributeValue> item =
                            postingItem(
                                    tenant,
                                    txnId,
                                    sourceId,
                                    reversalOf,
                                    description,
                                    p,
                                    lineCount,
                                    now,
                                    0,
                                    0,
                                    month);
                    bytes += Av.itemSize(item);
                    items.add(item);
                }
                PostingBuckets.Allocation alloc =
                        PostingBuckets.allocate(account, counter, items.size(), bytes);
                long seq = alloc.firstSequence();
                for (PostingLine p : e.getValue()) {
                    Map<String, AttributeValue> item =
                            postingItem(
                                    tenant,
                                    txnId,
                                    sourceId,
                                    reversalOf,
                                    description,
                                    p,
                                    lineCount,
                                    now,
                                    alloc.bucket(),
                                    seq,
                                    month);
                    postingItems.add(item);
                    ObjectNode v = postingView(p);
                    v.put("bucket", alloc.bucket());
                    v.put("sequence", seq);
                    postingViews.add(v);
                    seq++;
                }
                tx.add(counterWrite(tenant, account, month, counter, alloc.next(), now));
            }
            for (Map<String, AttributeValue> item : postingItems) {
                tx.add(Tx.createPut(tables.ledger(), item));
            }
            for (Map.Entry<AuthKey, Authority> e : after.entrySet()) {
                tx.add(
                        e.getValue()
                                .writeFrom(
                                        before.get(e.getKey()).version(),
                                        tables.ledger(),
                                        txnId,
                                        now));
            }
            int markIndex = -1;
            if (reversalOf != null) {
                markIndex = tx.size();
                tx.add(markReversed(tenant, reversalOf, txnId));
            }

            ObjectNode body = StrictJson.MAPPER.createObjectNode();
            ObjectNode t = body.putObject("transaction");
            t.put("txnId", txnId);
            t.put("sourceId", sourceId);
            if (reversalOf != null) {
                t.put("reversalOf", reversalOf);
                t.put("reversalOfTxnId", DeterministicIds.txnId(tenant, reversalOf));
            }
            if (description != null) {
                t.put("description", description);
            }
            t.put("recordedAt", now.toString());
            t.set("postings", postingViews);
            if (consumption != null) {
                t.put("consumedReservation", consumption.reservationId());
            }
            ArrayNode bal = body.putArray("balances");
            after.values().forEach(a -> bal.add(a.view()));
            DurableResponse response = new DurableResponse(201, StrictJson.write(body));
            int requestIndex = tx.size();
            tx.add(executor.store().completionPut(claim, response));
            try {
                ddb.transact(tx, claim.roundToken(round), meter);
                return response;
            } catch (TransactionCanceledException ex) {
                var reasons = ex.cancellationReasons();
                if (Tx.conditionFailed(reasons, requestIndex)) {
                    throw new OwnershipLostException();
                }
                if (markIndex >= 0 && Tx.conditionFailed(reasons, markIndex)) {
                    throw ApiException.conflict(
                            "ALREADY_REVERSED",
                            "ledger transaction '" + reversalOf + "' has already been reversed");
                }
                boolean postingClash = false;
                for (int i = byAccount.size(); i < byAccount.size() + postingItems.size(); i++) {
                    postingClash |= Tx.conditionFailed(reasons, i);
                }
                if (postingClash) {
                    throw new IllegalStateException(
                            "posting of txn " + txnId + " exists but its request is not complete");
                }
                boolean versionMoved = false;
                for (int i = 0; i < requestIndex; i++) {
                    versionMoved |= Tx.conditionFailed(reasons, i);
                }
                if (versionMoved) {
                    continue; // an authority or counter moved: re-read and re-decide
                }
                throw ex;
            }
        }
        throw new ApiException(
                503,
                "ACCOUNT_BUSY",
                "accounts are being updated concurrently; retry",
                Map.of("Retry-After", "1"));
    }

    private TransactWriteItem markReversed(String tenant, String reversalOf, String txnId) {
        return TransactWriteItem.builder()
                .update(
                        Update.builder()
                                .tableName(executor.store().table())
                                .key(IdempotencyStore.key(tenant, "LEDGER:" + reversalOf))
                                .updateExpression("SET #rb = :txn")
                                .conditionExpression(
                                        "attribute_not_exists(#rb) AND #state = :completed")
                                .expressionAttributeNames(
                                        Map.of(
                                                "#rb",
                                                R_REVERSED_BY,
                                                "#state",
                                                IdempotencyStore.A_STATE))
                                .expressionAttributeValues(
                                        Map.of(
                                                ":txn",
                                                Av.s(txnId),
                                                ":completed",
                                                Av.s(RequestState.COMPLETED.name())))
                                .build())
                .build();
    }

    private Map<String, AttributeValue> postingItem(
            String tenant,
            String txnId,
            String sourceId,
            @Nullable String reversalOf,
            @Nullable String description,
            PostingLine p,
            int lineCount,
            Instant at,
            int bucket,
            long seq,
            YearMonth month) {
        Map<String, AttributeValue> item = new HashMap<>();
        var key = Schema.posting(tenant, p.accountId(), month, bucket, at, txnId, p.line());
        item.put(Schema.PK, Av.s(key.pk()));
        item.put(Schema.SK, Av.s(key.sk()));
        item.put(P_TENANT, Av.s(tenant));
        item.put(P_TXN, Av.s(txnId));
        item.put(P_SOURCE, Av.s(sourceId));
        item.put(P_LINE, Av.n(p.line()));
        item.put(P_LINE_COUNT, Av.n(lineCount));
        item.put(P_ACCOUNT, Av.s(p.accountId()));
        item.put(P_ASSET_TYPE, Av.s(p.asset().type().name()));
        item.put(P_ASSET, Av.s(p.asset().code()));
        item.put(P_AMOUNT, Av.n(p.amount()));
        item.put(P_SEQ, Av.n(seq));
        item.put(P_RECORDED, Av.s(at.toString()));
        if (reversalOf != null) {
            item.put(P_REVERSAL_OF, Av.s(DeterministicIds.txnId(tenant, reversalOf)));
        }
        if (description != null) {
            item.put(P_DESCRIPTION, Av.s(description));
        }
        return item;
    }

    private static ObjectNode postingView(PostingLine p) {
        ObjectNode v = StrictJson.MAPPER.createObjectNode();
        v.put("line", p.line());
        v.put("accountId", p.accountId());
        v.put(p.asset().type() == Asset.Type.CASH ? "currency" : "symbol", p.asset().code());
        v.put("amount", p.asset().format(p.amount()));
        return v;
    }

    private Authority readAuthority(
            String tenant, String account, Asset asset, CapacityMeter meter) {
        Map<String, AttributeValue> item =
                ddb.getStrong(tables.ledger(), Authority.key(tenant, account, asset), meter);
        return item == null
                ? Authority.empty(tenant, account, asset)
                : Authority.from(tenant, item);
    }

    private Map<String, AttributeValue> counterKey(String tenant, String account, YearMonth month) {
        return Map.of(
                Schema.PK, Av.s(Schema.accountPk(tenant, account)),
                Schema.SK, Av.s(Schema.ledgerCounterSk(month)));
    }

    private PostingBuckets.MonthCounter readCounter(
            String tenant, String account, YearMonth month, CapacityMeter meter) {
        Map<String, AttributeValue> item =
                ddb.getStrong(tables.ledger(), counterKey(tenant, account, month), meter);
        if (item == null) {
            return PostingBuckets.MonthCounter.EMPTY;
        }
        return new PostingBuckets.MonthCounter(
                Av.lng(item, C_MONTH_COUNT, 0),
                (int) Av.lng(item, C_BUCKET, 0),
                Av.lng(item, C_BUCKET_COUNT, 0),
                Av.lng(item, C_BUCKET_BYTES, 0),
                Av.lng(item, C_VERSION, 0));
    }

    private TransactWriteItem counterWrite(
            String tenant,
            String account,
            YearMonth month,
            PostingBuckets.MonthCounter before,
            PostingBuckets.MonthCounter next,
            Instant at) {
        Map<String, AttributeValue> item = new HashMap<>(counterKey(tenant, account, month));
        item.put(P_TENANT, Av.s(tenant));
        item.put(P_ACCOUNT, Av.s(account));
        item.put(C_MONTH_COUNT, Av.n(next.monthCount()));
        item.put(C_BUCKET, Av.n(next.bucket()));
        item.put(C_BUCKET_COUNT, Av.n(next.bucketCount()));
        item.put(C_BUCKET_BYTES, Av.n(next.bucketBytes()));
        item.put(C_VERSION, Av.n(next.version()));
        item.put("updatedAt", Av.s(at.toString()));
        Put.Builder put = Put.builder().tableName(tables.ledger()).item(item);
        if (before.version() == 0) {
            put.conditionExpression("attribute_not_exists(#pk)")
                    .expressionAttributeNames(Map.of("#pk", Schema.PK));
        } else {
            put.conditionExpression("#v = :v")
                    .expressionAttributeNames(Map.of("#v", C_VERSION))
                    .expressionAttributeValues(Map.of(":v", Av.n(before.version())));
        }
        return TransactWriteItem.builder().put(put.build()).build();
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
                DeterministicIds.txnId(tenant, sourceId),
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
            Instant now =
                    executor.store()
                            .clock()
                            .instant()
                            .truncatedTo(java.time.temporal.ChronoUnit.MILLIS);
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
            r.put(asset.type() == Asset.Type.CASH ? "currency" : "symbol", asset.code());
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
                ddb.transact(tx, claim.roundToken(round), meter);
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
        throw new ApiException(
                503,
                "ACCOUNT_BUSY",
                "account is being updated concurrently; retry",
                Map.of("Retry-After", "1"));
    }

    private static ApiException reservationNotFound(String id) {
        return new ApiException(404, "RESERVATION_NOT_FOUND", "no open reservation '" + id + "'");
    }
}
