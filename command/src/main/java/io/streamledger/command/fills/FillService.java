package io.streamledger.command.fills;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.streamledger.aws.items.Av;
import io.streamledger.aws.retry.RetryPolicy;
import io.streamledger.aws.update.Condition;
import io.streamledger.aws.update.ConditionalUpdate;
import io.streamledger.command.api.Amounts;
import io.streamledger.command.api.ApiException;
import io.streamledger.command.api.Fields;
import io.streamledger.command.api.StrictJson;
import io.streamledger.command.config.Schema;
import io.streamledger.command.config.TableNames;
import io.streamledger.command.dynamo.CapacityMeter;
import io.streamledger.command.dynamo.Ddb;
import io.streamledger.command.dynamo.Tx;
import io.streamledger.command.idempotency.Claim;
import io.streamledger.command.idempotency.DurableResponse;
import io.streamledger.command.idempotency.IdempotentExecutor;
import io.streamledger.command.idempotency.OwnershipLostException;
import io.streamledger.command.orders.FillReservation;
import io.streamledger.command.orders.OrderItems;
import io.streamledger.command.orders.OrderStatus;
import io.streamledger.command.outbox.OutboxItems;
import io.streamledger.command.outbox.Payloads;
import io.streamledger.model.change.OutboxEvent;
import io.streamledger.model.keys.ExecutionSequenceKey;
import io.streamledger.model.money.Money;
import io.streamledger.model.money.Quantity;
import io.streamledger.model.shard.SymbolSharding;
import io.streamledger.model.table.Attr;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;
import software.amazon.awssdk.services.dynamodb.model.TransactionCanceledException;

/**
 * CS04/CS05 fill admission: the trade item (IDX04-06), the order's conditional advance (expected
 * version, remaining ≥ fill, status transition, IDX03 membership moved or removed) and the
 * TradeExecuted outbox event in one transaction with the fill's AP08 record, whose key is the
 * fill's business identity so a retried fillId returns the recorded effect.
 *
 * <p>The same transaction advances the client account's execution-sequence counter ({@link
 * ExecutionSequenceKey}) from the value read this round to the next, conditioned on that value
 * (CS07): each fill of an account gets the next gapless {@code accountExecSeq}, stamped on the
 * trade and its TradeExecuted event, and a concurrent fill of the same account re-reads and retries
 * like a moved order version. A replayed fillId returns the recorded response, so never a second
 * number.
 */
public final class FillService {

    public static final String EVENT_TRADE_EXECUTED = "TradeExecuted";

    /** Optimistic-concurrency rounds against a busy order before asking the client to retry. */
    public static final int MAX_VERSION_ROUNDS = 64;

    private static final int TX_TRADE = 0;
    private static final int TX_ORDER = 1;
    private static final int TX_REQUEST = 3;
    private static final int TX_EXEC_SEQ = 4;
    // the reservation's consumption follows the fixed actions (see withReservation)
    private static final int TX_RESERVATION = 5;

    private final Ddb ddb;
    private final TableNames tables;
    private final IdempotentExecutor executor;
    private final FillReservation reservations;
    private final SymbolSharding symbolSharding;
    private final RetryPolicy versionBackoff =
            RetryPolicy.fullJitter(MAX_VERSION_ROUNDS, Duration.ofMillis(4), Duration.ofMillis(50));

    public FillService(
            Ddb ddb,
            TableNames tables,
            IdempotentExecutor executor,
            FillReservation reservations,
            SymbolSharding symbolSharding) {
        this.ddb = ddb;
        this.tables = tables;
        this.executor = executor;
        this.reservations = reservations;
        this.symbolSharding = symbolSharding;
    }

    public IdempotentExecutor.Outcome fill(
            String tenant, String orderId, ObjectNode body, CapacityMeter meter) {
        FillCommand cmd = FillCommand.parse(orderId, Fields.of(body));
        // Validate amounts against the order's instrument and currency before anything is
        // written: bad input is a 400 that leaves no request record behind.
        Map<String, AttributeValue> order =
                ddb.ap("AP01")
                        .getStrong(tables.orders(), OrderItems.key(tenant, cmd.orderId()), meter);
        if (order == null) {
            throw ApiException.notFound("order '" + cmd.orderId() + "' not found");
        }
        validateAmounts(cmd, order);
        return executor.execute(
                tenant,
                cmd.requestKey(),
                FillCommand.OPERATION,
                FillCommand.SCHEMA_VERSION,
                cmd.canonical(),
                cmd.orderId() + ":" + cmd.fillId(),
                (claim, m) -> apply(claim, cmd, m),
                meter);
    }

    /**
     * The effect; also re-attempted by the repair worker. Each round reads the order, guards the
     * fill against it, plans the transaction and writes it; a moved order version re-reads.
     */
    public DurableResponse apply(Claim claim, FillCommand cmd, CapacityMeter meter) {
        for (int round = 0; round < MAX_VERSION_ROUNDS; round++) {
            if (round > 0) {
                versionBackoff.pause(round);
            }
            OrderSnapshot order = readOrder(claim.tenant(), cmd.orderId(), meter);
            FillAmounts amounts = guard(cmd, order);
            long execSeq = readExecSeq(claim.tenant(), order.accountId(), meter);
            FillReservation.Consumption consumption = consumption(claim, order, amounts, meter);
            FillPlan plan = plan(claim, cmd, order, amounts, execSeq, consumption);
            if (write(claim, plan, round, meter)) {
                return plan.response();
            }
        }
        throw ApiException.orderBusy(cmd.orderId());
    }

    /** The order as read this round (strongly consistent). */
    private record OrderSnapshot(
            Map<String, AttributeValue> item,
            String orderId,
            String accountId,
            String symbol,
            String side,
            String currency,
            OrderStatus status,
            long version,
            BigDecimal remaining,
            BigDecimal filled,
            long expiresAtMs) {}

    /** The fill's amounts, checked against the order's instrument and currency. */
    private record FillAmounts(Quantity quantity, Money price, Money fee) {}

    /** Everything the transaction writes and the response it records. */
    private record FillPlan(
            TradeItems.Trade trade, DurableResponse response, List<TransactWriteItem> tx) {}

    /** The account's last assigned execution sequence (0 before its first fill). */
    private long readExecSeq(String tenant, String accountId, CapacityMeter meter) {
        Map<String, AttributeValue> counter =
                ddb.ap("CS04").getStrong(tables.orders(), execSeqKey(tenant, accountId), meter);
        return counter == null ? 0L : Av.lng(counter, Attr.ACCOUNT_EXEC_SEQ, 0);
    }

    private static Map<String, AttributeValue> execSeqKey(String tenant, String accountId) {
        ExecutionSequenceKey key = new ExecutionSequenceKey(tenant, accountId);
        return Map.of(Schema.PK, Av.s(key.pk()), Schema.SK, Av.s(key.sk()));
    }

    /** {@code seq = previous + 1}, only if the counter still holds {@code previous}. */
    private TransactWriteItem execSeqAdvance(String tenant, String accountId, long previous) {
        ConditionalUpdate.Builder update =
                ConditionalUpdate.builder().set(Attr.ACCOUNT_EXEC_SEQ, Av.n(previous + 1));
        update.when(
                previous == 0
                        ? Condition.notExists(Schema.PK)
                        : Condition.eq(Attr.ACCOUNT_EXEC_SEQ, Av.n(previous)));
        return Tx.update(tables.orders(), execSeqKey(tenant, accountId), update.build());
    }

    private OrderSnapshot readOrder(String tenant, String orderId, CapacityMeter meter) {
        Map<String, AttributeValue> order =
                ddb.ap("AP01").getStrong(tables.orders(), OrderItems.key(tenant, orderId), meter);
        if (order == null) {
            throw ApiException.notFound("order '" + orderId + "' not found");
        }
        return new OrderSnapshot(
                order,
                Av.reqStr(order, OrderItems.A_ORDER_ID),
                Av.reqStr(order, OrderItems.A_ACCOUNT),
                Av.reqStr(order, OrderItems.A_SYMBOL),
                Av.reqStr(order, OrderItems.A_SIDE),
                Av.reqStr(order, OrderItems.A_CURRENCY),
                OrderStatus.valueOf(Av.reqStr(order, OrderItems.A_STATUS)),
                Av.lng(order, OrderItems.A_VERSION, 0),
                Av.dec(order, OrderItems.A_REMAINING),
                Av.dec(order, OrderItems.A_FILLED),
                Av.lng(order, OrderItems.A_EXPIRES_AT_MS, 0));
    }

    /** Flat guards: amounts valid for the order, order fillable, no overfill (CS04). */
    private static FillAmounts guard(FillCommand cmd, OrderSnapshot order) {
        Quantity qty = Amounts.positiveQuantity("quantity", cmd.quantity(), order.symbol());
        Money price = Amounts.positiveMoney("price", cmd.price(), order.currency());
        Money fee = Amounts.money("fee", cmd.fee(), order.currency());
        if (!order.status().acceptsFills()) {
            throw ApiException.unprocessable(
                    "ORDER_NOT_FILLABLE",
                    "order '" + cmd.orderId() + "' is " + order.status() + " and accepts no fills");
        }
        if (order.expiresAtMs() > 0 && cmd.executedAt().toEpochMilli() >= order.expiresAtMs()) {
            // a DAY order ends at its session close: no later execution belongs to it
            throw ApiException.unprocessable(
                    "ORDER_EXPIRED",
                    "order '"
                            + cmd.orderId()
                            + "' expired at "
                            + java.time.Instant.ofEpochMilli(order.expiresAtMs())
                            + "; the fill executed at "
                            + cmd.executedAt());
        }
        if (qty.value().compareTo(order.remaining()) > 0) {
            throw ApiException.unprocessable(
                    "OVERFILL",
                    "fill of "
                            + qty.value().toPlainString()
                            + " exceeds the remaining quantity "
                            + order.remaining().toPlainString()
                            + " of order '"
                            + cmd.orderId()
                            + "'");
        }
        return new FillAmounts(qty, price, fee);
    }

    /** Pure: the trade, the order advance, the outbox event and the completion, as one plan. */
    private FillPlan plan(
            Claim claim,
            FillCommand cmd,
            OrderSnapshot order,
            FillAmounts amounts,
            long previousExecSeq,
            FillReservation.Consumption consumption) {
        String tenant = claim.tenant();
        Quantity qty = amounts.quantity();
        BigDecimal newRemaining = order.remaining().subtract(qty.value());
        BigDecimal newFilled = order.filled().add(qty.value());
        OrderStatus newStatus =
                newRemaining.signum() == 0 ? OrderStatus.FILLED : OrderStatus.PARTIALLY_FILLED;
        long newVersion = order.version() + 1;
        Instant now =
                executor.store()
                        .clock()
                        .instant()
                        .truncatedTo(java.time.temporal.ChronoUnit.MILLIS);
        TradeItems.Trade trade =
                new TradeItems.Trade(
                        tenant,
                        cmd.orderId(),
                        cmd.fillId(),
                        order.accountId(),
                        order.symbol(),
                        order.side(),
                        qty.value(),
                        amounts.price(),
                        amounts.fee(),
                        cmd.executedAt(),
                        newVersion,
                        previousExecSeq + 1);
        Map<String, AttributeValue> tradeItem = TradeItems.item(trade, symbolSharding);
        ObjectNode body = StrictJson.MAPPER.createObjectNode();
        body.set("trade", TradeItems.view(tradeItem));
        ObjectNode o = body.putObject("order");
        o.put("orderId", cmd.orderId());
        o.put("status", newStatus.name());
        o.put("filledQuantity", newFilled.toPlainString());
        o.put("remainingQuantity", newRemaining.toPlainString());
        o.put("version", newVersion);
        DurableResponse response = new DurableResponse(201, StrictJson.write(body));
        OutboxEvent event =
                tradeExecuted(claim, trade, amounts, newStatus, newVersion, now, consumption);
        List<TransactWriteItem> tx =
                new java.util.ArrayList<>(
                        List.of(
                                Tx.createPut(tables.execution(), tradeItem),
                                orderAdvance(
                                        tenant,
                                        order,
                                        qty.value(),
                                        newFilled,
                                        newRemaining,
                                        newStatus,
                                        newVersion,
                                        now),
                                OutboxItems.createPut(tables.context(), tenant, event),
                                executor.store().completionPut(claim, response),
                                execSeqAdvance(tenant, order.accountId(), previousExecSeq)));
        tx.addAll(consumption.writes()); // from TX_RESERVATION on
        return new FillPlan(trade, response, tx);
    }

    private static OutboxEvent tradeExecuted(
            Claim claim,
            TradeItems.Trade trade,
            FillAmounts amounts,
            OrderStatus newStatus,
            long newVersion,
            Instant now,
            FillReservation.Consumption consumption) {
        String eventId = trade.eventId();
        Payloads payload = new Payloads();
        return new OutboxEvent(
                eventId,
                "Order",
                trade.orderId(),
                newVersion,
                EVENT_TRADE_EXECUTED,
                1,
                now,
                claim.owner(),
                claim.requestKey(),
                payload.s("tenant", claim.tenant())
                        .s("tradeId", trade.tradeId())
                        .s("fillId", trade.fillId())
                        .s("orderId", trade.orderId())
                        .s("accountId", trade.accountId())
                        .s("symbol", trade.symbol())
                        .s("side", trade.side())
                        .n("quantity", trade.quantity())
                        .n("price", amounts.price().amount())
                        .s("currency", amounts.price().currency())
                        .n("fee", amounts.fee().amount())
                        .s("feeCurrency", amounts.fee().currency())
                        .s("executedAt", trade.executedAt().toString())
                        .n("orderVersion", newVersion)
                        .s("orderStatus", newStatus.name())
                        .n(Attr.ACCOUNT_EXEC_SEQ, trade.accountExecSeq())
                        .n(Attr.PENDING_CASH, consumption.pendingCash())
                        .n(Attr.PENDING_QUANTITY, consumption.pendingQuantity())
                        .build());
    }

    /** The AP12 consumption of the order's reservation (none without an open reservation). */
    private FillReservation.Consumption consumption(
            Claim claim, OrderSnapshot order, FillAmounts amounts, CapacityMeter meter) {
        return reservations.consume(
                claim.tenant(),
                order.accountId(),
                order.orderId(),
                order.side(),
                order.symbol(),
                amounts.quantity().value(),
                amounts.price(),
                amounts.fee(),
                order.remaining().compareTo(amounts.quantity().value()) == 0,
                executor.store()
                        .clock()
                        .instant()
                        .truncatedTo(java.time.temporal.ChronoUnit.MILLIS),
                meter);
    }

    /** One transaction; false when another fill advanced the order first (re-read and retry). */
    private boolean write(Claim claim, FillPlan plan, int round, CapacityMeter meter) {
        try {
            ddb.ap("CS04").transact(plan.tx(), claim.roundToken(round), meter);
            return true;
        } catch (TransactionCanceledException e) {
            if (Tx.conditionFailed(e.cancellationReasons(), TX_REQUEST)) {
                throw new OwnershipLostException();
            }
            if (Tx.conditionFailed(e.cancellationReasons(), TX_TRADE)) {
                throw new IllegalStateException(
                        "trade "
                                + plan.trade().tradeId()
                                + " exists but its request is not complete");
            }
            if (Tx.conditionFailed(e.cancellationReasons(), TX_ORDER)
                    || Tx.conditionFailed(e.cancellationReasons(), TX_EXEC_SEQ)
                    || Tx.conditionFailed(e.cancellationReasons(), TX_RESERVATION)) {
                return false;
            }
            throw e;
        }
    }

    private static void validateAmounts(FillCommand cmd, Map<String, AttributeValue> order) {
        String symbol = Av.reqStr(order, OrderItems.A_SYMBOL);
        String currency = Av.reqStr(order, OrderItems.A_CURRENCY);
        Amounts.positiveQuantity("quantity", cmd.quantity(), symbol);
        Amounts.positiveMoney("price", cmd.price(), currency);
        Money fee = Amounts.money("fee", cmd.fee(), currency);
        if (fee.amount().signum() < 0) {
            throw ApiException.badRequest("NOT_POSITIVE", "field 'fee' must not be negative");
        }
    }

    private TransactWriteItem orderAdvance(
            String tenant,
            OrderSnapshot order,
            BigDecimal fillQty,
            BigDecimal newFilled,
            BigDecimal newRemaining,
            OrderStatus newStatus,
            long newVersion,
            Instant now) {
        ConditionalUpdate.Builder update =
                ConditionalUpdate.builder()
                        .set(OrderItems.A_VERSION, Av.n(newVersion))
                        .set(OrderItems.A_REMAINING, Av.n(newRemaining))
                        .set(OrderItems.A_FILLED, Av.n(newFilled))
                        .set(OrderItems.A_STATUS, Av.s(newStatus.name()))
                        .set(OrderItems.A_UPDATED, Av.s(now.toString()));
        if (newStatus.terminal()) {
            // terminal orders leave the sparse IDX03 status and due-time indexes
            update.remove(OrderItems.OPEN_ONLY_KEYS);
        } else if (newStatus != order.status()) {
            // AP03 membership moves to the new status partition (delete + put in GSI2); the SK
            // (ORD#at#id) is unchanged: only the partition of the membership moves
            update.set(
                    Schema.GSI2PK,
                    Av.s(Schema.accountStatusPk(tenant, order.accountId(), newStatus.name())));
        }
        update.when(Condition.eq(OrderItems.A_VERSION, Av.n(order.version())))
                .when(Condition.ge(OrderItems.A_REMAINING, Av.n(fillQty)));
        return Tx.update(tables.orders(), OrderItems.key(tenant, order.orderId()), update.build());
    }
}
