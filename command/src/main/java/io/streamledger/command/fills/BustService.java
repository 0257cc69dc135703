package io.streamledger.command.fills;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.streamledger.aws.items.Av;
import io.streamledger.aws.ledger.LedgerItemCodec;
import io.streamledger.aws.retry.RetryPolicy;
import io.streamledger.aws.update.Condition;
import io.streamledger.aws.update.ConditionalUpdate;
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
import io.streamledger.command.idempotency.IdempotentExecutor;
import io.streamledger.command.idempotency.OwnershipLostException;
import io.streamledger.command.ledger.Asset;
import io.streamledger.command.ledger.LedgerService;
import io.streamledger.command.ledger.LedgerTxnPlan;
import io.streamledger.command.orders.FillReservation;
import io.streamledger.command.orders.OrderItems;
import io.streamledger.command.orders.OrderStatus;
import io.streamledger.command.outbox.OutboxItems;
import io.streamledger.command.outbox.Payloads;
import io.streamledger.model.change.OutboxEvent;
import io.streamledger.model.keys.AuthorityKey;
import io.streamledger.model.keys.ReservationKey;
import io.streamledger.model.ledger.LedgerIds;
import io.streamledger.model.ledger.LedgerSchema;
import io.streamledger.model.ledger.ReservationState;
import io.streamledger.model.money.Money;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.annotation.Nullable;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;
import software.amazon.awssdk.services.dynamodb.model.TransactionCanceledException;

/**
 * A trade bust (CS04 undone, CS11 "correct with a linked reversing transaction"; AP03, AP08, AP10,
 * AP12, AP16): the fill's posted transaction reversed line for line, the order's filled quantity
 * given back (conditional on its version; an open order rejoins the IDX03 status index), what the
 * fill consumed of the order's reservation put back on hold, the durable reversal record and a
 * TradeBusted outbox event, in one TransactWriteItems with the AP08 record keyed by the fill.
 * Authority writes are the ledger route's compare-and-set on their versions, so the projection and
 * the ledger check see ordinary versions.
 */
public final class BustService {

    public static final String OPERATION = "BustFill";
    public static final String EVENT_TRADE_BUSTED = "TradeBusted";
    public static final int SCHEMA_VERSION = 1;
    public static final int MAX_VERSION_ROUNDS = 64;

    private final Ddb ddb;
    private final TableNames tables;
    private final IdempotentExecutor executor;
    private final LedgerService ledger;
    private final TradeQueries trades;
    private final FillReservation reservations;
    private final RetryPolicy versionBackoff =
            RetryPolicy.fullJitter(MAX_VERSION_ROUNDS, Duration.ofMillis(4), Duration.ofMillis(50));

    public BustService(
            Ddb ddb,
            TableNames tables,
            IdempotentExecutor executor,
            LedgerService ledger,
            TradeQueries trades,
            FillReservation reservations) {
        this.ddb = ddb.ap("CS04");
        this.tables = tables;
        this.executor = executor;
        this.ledger = ledger;
        this.trades = trades;
        this.reservations = reservations;
    }

    /** AP08 request key of a fill's bust: its business identity. */
    public static String requestKey(String orderId, String fillId) {
        return "BUST:" + orderId + ":" + fillId;
    }

    /**
     * POST /v1/orders/{id}/fills/{fillId}/bust. An unknown order or fill (404) and a fill the
     * posting job has not posted yet (409 FILL_NOT_POSTED, Retry-After) leave no request record, so
     * the same call succeeds once the fill is posted.
     */
    public IdempotentExecutor.Outcome bust(
            String tenant, String orderId, String fillId, CapacityMeter meter) {
        Fields.checkId("order id", orderId);
        Fields.checkId("fill id", fillId);
        if (ddb.ap("AP01").getStrong(tables.orders(), OrderItems.key(tenant, orderId), meter)
                == null) {
            throw ApiException.notFound("order '" + orderId + "' not found");
        }
        Map<String, AttributeValue> trade = trade(tenant, orderId, fillId, meter);
        LedgerService.Original original = original(tenant, trade, meter);
        Map<String, Object> canonical = new LinkedHashMap<>();
        canonical.put("orderId", orderId);
        canonical.put("fillId", fillId);
        String tradeId = Av.reqStr(trade, TradeItems.A_TRADE_ID);
        return executor.execute(
                tenant,
                requestKey(orderId, fillId),
                OPERATION,
                SCHEMA_VERSION,
                canonical,
                LedgerIds.txnId(tenant, LedgerIds.bustSourceId(tradeId)),
                (claim, m) -> apply(claim, orderId, fillId, original, m),
                meter);
    }

    /** The effect (also the repair worker's re-attempt, which passes no original). */
    public DurableResponse apply(
            Claim claim,
            String orderId,
            String fillId,
            @Nullable LedgerService.Original original,
            CapacityMeter meter) {
        String tenant = claim.tenant();
        Map<String, AttributeValue> trade = trade(tenant, orderId, fillId, meter);
        LedgerService.Original orig = original != null ? original : original(tenant, trade, meter);
        if (ledger.reader().reversal(tenant, orig.txnId(), meter) != null) {
            throw alreadyBusted(orig.sourceId());
        }
        for (int round = 0; round < MAX_VERSION_ROUNDS; round++) {
            if (round > 0) {
                versionBackoff.pause(round);
            }
            Map<String, AttributeValue> order =
                    ddb.ap("AP01")
                            .getStrong(tables.orders(), OrderItems.key(tenant, orderId), meter);
            if (order == null) {
                throw ApiException.notFound("order '" + orderId + "' not found");
            }
            String account = Av.reqStr(order, OrderItems.A_ACCOUNT);
            ReservationKey resKey = new ReservationKey(tenant, account, orderId);
            Map<String, AttributeValue> reservation =
                    ddb.ap("AP12").getStrong(tables.ledger(), LedgerItemCodec.key(resKey), meter);
            BustPlan bust = BustPlan.of(order, trade, reservation, this::cost);
            Instant now = ledger.now();
            String tradeId = Av.reqStr(trade, TradeItems.A_TRADE_ID);
            LedgerTxnPlan.Txn txn =
                    new LedgerTxnPlan.Txn(
                            tenant,
                            claim.effectId(),
                            LedgerIds.bustSourceId(tradeId),
                            "bust of fill " + tradeId,
                            orig.sourceId(),
                            orig.reversed(),
                            null,
                            now,
                            bust.rehold());
            LedgerTxnPlan plan = ledger.prepare(txn, meter);
            DurableResponse response = response(plan, bust, order, trade, orig);
            List<TransactWriteItem> tx = new ArrayList<>(plan.writes());
            int orderIndex = tx.size();
            tx.add(orderRevert(tenant, order, bust, now));
            int tradeIndex = tx.size();
            tx.add(
                    Tx.update(
                            tables.execution(),
                            TradeItems.key(trade),
                            TradeItems.bustMark(bust.orderVersion() + 1, now)));
            int reservationIndex = -1;
            if (bust.reopensReservation()) {
                reservationIndex = tx.size();
                tx.add(
                        LedgerItemCodec.reservationReopen(
                                tables.ledger(),
                                resKey,
                                bust.reservationVersion(),
                                bust.reheld(),
                                bust.releasedAtCompletion(),
                                now));
            }
            int outboxIndex = tx.size();
            tx.add(
                    OutboxItems.createPut(
                            tables.context(),
                            tenant,
                            event(claim, order, trade, bust, txn, orig, now)));
            int requestIndex = tx.size();
            tx.add(executor.store().completionPut(claim, response));
            try {
                ddb.transact(tx, claim.roundToken(round), meter);
                return response;
            } catch (TransactionCanceledException e) {
                var reasons = e.cancellationReasons();
                if (Tx.conditionFailed(reasons, requestIndex)) {
                    throw new OwnershipLostException();
                }
                if (Tx.conditionFailed(reasons, plan.markIndex())
                        || Tx.conditionFailed(reasons, tradeIndex)) {
                    throw alreadyBusted(orig.sourceId());
                }
                LedgerService.requireNoPostingClash(claim, plan, reasons);
                if (Tx.conditionFailed(reasons, outboxIndex)) {
                    throw new IllegalStateException(
                            EVENT_TRADE_BUSTED + " event of " + tradeId + " exists already");
                }
                boolean moved = Tx.conditionFailed(reasons, orderIndex);
                moved |= reservationIndex >= 0 && Tx.conditionFailed(reasons, reservationIndex);
                for (int i = 0; i < plan.writes().size(); i++) {
                    moved |= Tx.conditionFailed(reasons, i);
                }
                if (moved) {
                    continue;
                }
                throw e;
            }
        }
        throw ApiException.orderBusy(orderId);
    }

    private Map<String, AttributeValue> trade(
            String tenant, String orderId, String fillId, CapacityMeter meter) {
        Map<String, AttributeValue> trade =
                trades.find(tenant, orderId, orderId + ":" + fillId, meter);
        if (trade == null) {
            throw new ApiException(
                    404, "FILL_NOT_FOUND", "order '" + orderId + "' has no fill '" + fillId + "'");
        }
        return trade;
    }

    /** The fill's posted transaction; 409 FILL_NOT_POSTED (retryable) before the job posted it. */
    private LedgerService.Original original(
            String tenant, Map<String, AttributeValue> trade, CapacityMeter meter) {
        String tradeId = Av.reqStr(trade, TradeItems.A_TRADE_ID);
        try {
            return ledger.original(tenant, LedgerIds.tradeSourceId(tradeId), null, meter);
        } catch (ApiException e) {
            if ("ORIGINAL_NOT_POSTED".equals(e.code())) {
                throw new ApiException(
                        409,
                        "FILL_NOT_POSTED",
                        "fill '"
                                + tradeId
                                + "' is not posted to the ledger yet (the posting job is behind);"
                                + " retry",
                        Map.of("Retry-After", "1"));
            }
            throw e;
        }
    }

    private BigDecimal cost(Map<String, AttributeValue> trade) {
        String ccy = Av.reqStr(trade, TradeItems.A_CURRENCY);
        return reservations.cost(
                Av.reqStr(trade, TradeItems.A_SIDE),
                Av.dec(trade, TradeItems.A_QUANTITY),
                Money.of(Av.dec(trade, TradeItems.A_PRICE), ccy),
                Money.of(Av.dec(trade, TradeItems.A_FEE), ccy));
    }

    private static ApiException alreadyBusted(String originalSource) {
        return ApiException.conflict(
                "ALREADY_REVERSED", "'" + originalSource + "' has already been busted or reversed");
    }

    /** The order's filled quantity back by the fill's; an open order keeps its IDX03 membership. */
    private TransactWriteItem orderRevert(
            String tenant, Map<String, AttributeValue> order, BustPlan bust, Instant now) {
        String orderId = Av.reqStr(order, OrderItems.A_ORDER_ID);
        String account = Av.reqStr(order, OrderItems.A_ACCOUNT);
        ConditionalUpdate.Builder update =
                ConditionalUpdate.builder()
                        .set(OrderItems.A_VERSION, Av.n(bust.orderVersion() + 1))
                        .set(OrderItems.A_FILLED, Av.n(bust.filled()))
                        .set(OrderItems.A_REMAINING, Av.n(bust.remaining()))
                        .set(OrderItems.A_STATUS, Av.s(bust.status().name()))
                        .set(OrderItems.A_UPDATED, Av.s(now.toString()));
        if (!bust.status().terminal()) {
            // AP03: an open order is a member of its status partition (FILLED had left it)
            var byStatus =
                    Schema.orderByStatus(
                            tenant,
                            account,
                            bust.status().name(),
                            Instant.parse(Av.reqStr(order, OrderItems.A_CREATED)),
                            orderId);
            update.set(Schema.GSI2PK, Av.s(byStatus.pk())).set(Schema.GSI2SK, Av.s(byStatus.sk()));
            // a DAY/GTD order open again is due for expiry again (FILLED had left the queue)
            long expiresAtMs = Av.lng(order, OrderItems.A_EXPIRES_AT_MS, 0);
            if (expiresAtMs > 0) {
                OrderItems.expiryKeys(tenant, orderId, Instant.ofEpochMilli(expiresAtMs))
                        .forEach(update::set);
            }
        }
        update.when(Condition.eq(OrderItems.A_VERSION, Av.n(bust.orderVersion())));
        return Tx.update(tables.orders(), OrderItems.key(tenant, orderId), update.build());
    }

    private static DurableResponse response(
            LedgerTxnPlan plan,
            BustPlan bust,
            Map<String, AttributeValue> order,
            Map<String, AttributeValue> trade,
            LedgerService.Original orig) {
        ObjectNode body =
                StrictJson.parseObject(
                        plan.response().body().getBytes(java.nio.charset.StandardCharsets.UTF_8));
        ObjectNode b = StrictJson.MAPPER.createObjectNode();
        b.put("tradeId", Av.reqStr(trade, TradeItems.A_TRADE_ID));
        b.put("fillId", Av.reqStr(trade, TradeItems.A_FILL_ID));
        b.put("originalTxnId", orig.txnId());
        b.put("reversalTxnId", body.path("transaction").path("txnId").textValue());
        body.set("bust", b);
        ObjectNode o = body.putObject("order");
        o.put("orderId", Av.reqStr(order, OrderItems.A_ORDER_ID));
        o.put("status", bust.status().name());
        o.put("filledQuantity", bust.filled().toPlainString());
        o.put("remainingQuantity", bust.remaining().toPlainString());
        o.put("version", bust.orderVersion() + 1);
        ObjectNode r = body.putObject("reservation");
        r.put("state", bust.reservationStateAfter());
        r.put("reheld", bust.reheld().toPlainString());
        return new DurableResponse(201, StrictJson.write(body));
    }

    private static OutboxEvent event(
            Claim claim,
            Map<String, AttributeValue> order,
            Map<String, AttributeValue> trade,
            BustPlan bust,
            LedgerTxnPlan.Txn txn,
            LedgerService.Original orig,
            Instant now) {
        String orderId = Av.reqStr(order, OrderItems.A_ORDER_ID);
        String tradeId = Av.reqStr(trade, TradeItems.A_TRADE_ID);
        long newVersion = bust.orderVersion() + 1;
        return new OutboxEvent(
                DeterministicIds.eventId(tradeId, EVENT_TRADE_BUSTED, 1),
                "Order",
                orderId,
                newVersion,
                EVENT_TRADE_BUSTED,
                1,
                now,
                claim.owner(),
                claim.requestKey(),
                new Payloads()
                        .s("tenant", claim.tenant())
                        .s("tradeId", tradeId)
                        .s("fillId", Av.reqStr(trade, TradeItems.A_FILL_ID))
                        .s("orderId", orderId)
                        .s("accountId", Av.reqStr(order, OrderItems.A_ACCOUNT))
                        .s("symbol", Av.reqStr(trade, TradeItems.A_SYMBOL))
                        .s("side", Av.reqStr(trade, TradeItems.A_SIDE))
                        .n("quantity", Av.dec(trade, TradeItems.A_QUANTITY))
                        .s("originalTxnId", orig.txnId())
                        .s("reversalTxnId", txn.txnId())
                        .n("orderVersion", newVersion)
                        .s("orderStatus", bust.status().name())
                        .n("filledQuantity", bust.filled())
                        .n("reheld", bust.reheld())
                        .build());
    }

    /**
     * What a bust does to the order and its reservation, decided from what was read (no I/O).
     *
     * @param orderVersion the version it was read at (the write's condition)
     * @param status the order's status after: an open or FILLED order is open again (ACCEPTED when
     *     nothing remains filled), CANCELLED/EXPIRED stay
     * @param rehold what goes back on hold on the reserved authority, null for nothing
     * @param reopensReservation whether the reservation item is re-opened
     * @param reheld the amount re-held (0 without)
     * @param releasedAtCompletion what the order's completion had released (stays available)
     */
    record BustPlan(
            long orderVersion,
            BigDecimal filled,
            BigDecimal remaining,
            OrderStatus status,
            @Nullable LedgerTxnPlan.Rehold rehold,
            boolean reopensReservation,
            long reservationVersion,
            BigDecimal reheld,
            BigDecimal releasedAtCompletion,
            String reservationStateAfter) {

        /**
         * The rule: an order that is open after the bust gets back on hold what this fill consumed
         * of its reservation, {@code min(cost, consumed)} (the authority's posted rises by the
         * reversed cost and its reserved by at most that, so available never falls); what a
         * completion released stays released (it may have been spent). A closed (cancelled or
         * expired) order holds nothing again.
         */
        static BustPlan of(
                Map<String, AttributeValue> order,
                Map<String, AttributeValue> trade,
                @Nullable Map<String, AttributeValue> reservation,
                java.util.function.Function<Map<String, AttributeValue>, BigDecimal> cost) {
            BigDecimal qty = Av.dec(trade, TradeItems.A_QUANTITY);
            BigDecimal filled = Av.dec(order, OrderItems.A_FILLED).subtract(qty);
            if (filled.signum() < 0) {
                throw new IllegalStateException(
                        "order "
                                + Av.reqStr(order, OrderItems.A_ORDER_ID)
                                + " has filled less than its fill "
                                + Av.reqStr(trade, TradeItems.A_TRADE_ID));
            }
            OrderStatus before = OrderStatus.valueOf(Av.reqStr(order, OrderItems.A_STATUS));
            boolean closed = before == OrderStatus.CANCELLED || before == OrderStatus.EXPIRED;
            OrderStatus after =
                    closed
                            ? before
                            : filled.signum() == 0
                                    ? OrderStatus.ACCEPTED
                                    : OrderStatus.PARTIALLY_FILLED;
            BigDecimal remaining =
                    closed
                            ? Av.dec(order, OrderItems.A_REMAINING)
                            : Av.dec(order, OrderItems.A_QUANTITY).subtract(filled);
            String state =
                    reservation == null
                            ? null
                            : Av.str(reservation, LedgerSchema.RESERVATION_STATE);
            boolean reopen =
                    !closed && state != null && !ReservationState.RELEASED.name().equals(state);
            BigDecimal reheld = BigDecimal.ZERO;
            BigDecimal released = BigDecimal.ZERO;
            LedgerTxnPlan.Rehold rehold = null;
            long resVersion = 0;
            if (reopen) {
                BigDecimal consumed = Av.dec(reservation, LedgerSchema.CONSUMED);
                reheld = cost.apply(trade).min(consumed).max(BigDecimal.ZERO);
                BigDecimal rel = Av.dec(reservation, LedgerSchema.RELEASED);
                released = rel == null ? BigDecimal.ZERO : rel;
                resVersion = Av.lng(reservation, LedgerSchema.VERSION, 0);
                if (reheld.signum() > 0) {
                    rehold =
                            new LedgerTxnPlan.Rehold(
                                    new LedgerTxnPlan.AuthKey(
                                            Av.reqStr(reservation, LedgerSchema.ACCOUNT),
                                            new Asset(
                                                    AuthorityKey.Kind.valueOf(
                                                            Av.reqStr(
                                                                    reservation,
                                                                    LedgerSchema.ASSET_TYPE)),
                                                    Av.reqStr(reservation, LedgerSchema.ASSET))),
                                    reheld);
                }
            }
            return new BustPlan(
                    Av.lng(order, OrderItems.A_VERSION, 0),
                    filled,
                    remaining,
                    after,
                    rehold,
                    reopen,
                    resVersion,
                    reheld,
                    released,
                    reopen ? ReservationState.OPEN.name() : state == null ? "NONE" : state);
        }
    }
}
