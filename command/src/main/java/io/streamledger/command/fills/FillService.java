package io.streamledger.command.fills;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.streamledger.command.api.Amounts;
import io.streamledger.command.api.ApiException;
import io.streamledger.command.api.Fields;
import io.streamledger.command.api.StrictJson;
import io.streamledger.command.config.DeterministicIds;
import io.streamledger.command.config.Schema;
import io.streamledger.command.config.TableNames;
import io.streamledger.aws.items.Av;
import io.streamledger.command.dynamo.CapacityMeter;
import io.streamledger.command.dynamo.Ddb;
import io.streamledger.aws.retry.RetryPolicy;
import io.streamledger.command.dynamo.Tx;
import io.streamledger.command.idempotency.Claim;
import io.streamledger.command.idempotency.DurableResponse;
import io.streamledger.command.idempotency.IdempotentExecutor;
import io.streamledger.command.idempotency.OwnershipLostException;
import io.streamledger.command.orders.OrderItems;
import io.streamledger.command.orders.OrderStatus;
import io.streamledger.command.outbox.OutboxItems;
import io.streamledger.command.outbox.Payloads;
import io.streamledger.model.change.OutboxEvent;
import io.streamledger.model.money.Money;
import io.streamledger.model.money.Quantity;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;
import software.amazon.awssdk.services.dynamodb.model.TransactionCanceledException;
import software.amazon.awssdk.services.dynamodb.model.Update;

/**
 * CS04/CS05 fill admission: the trade item (IDX04-06), the order's conditional advance (expected
 * version, remaining ≥ fill, status transition, IDX03 membership moved or removed) and the
 * TradeExecuted outbox event in one transaction with the fill's AP08 record, whose key is the
 * fill's business identity so a retried fillId returns the recorded effect.
 */
public final class FillService {

    public static final String EVENT_TRADE_EXECUTED = "TradeExecuted";

    /** Optimistic-concurrency rounds against a busy order before asking the client to retry. */
    public static final int MAX_VERSION_ROUNDS = 64;

    private static final int TX_TRADE = 0;
    private static final int TX_ORDER = 1;
    private static final int TX_REQUEST = 3;

    private final Ddb ddb;
    private final TableNames tables;
    private final IdempotentExecutor executor;
    private final RetryPolicy versionBackoff =
            RetryPolicy.fullJitter(MAX_VERSION_ROUNDS, Duration.ofMillis(4), Duration.ofMillis(50));

    public FillService(Ddb ddb, TableNames tables, IdempotentExecutor executor) {
        this.ddb = ddb;
        this.tables = tables;
        this.executor = executor;
    }

    public IdempotentExecutor.Outcome fill(
            String tenant, String orderId, ObjectNode body, CapacityMeter meter) {
        FillCommand cmd = FillCommand.parse(orderId, Fields.of(body));
        // Validate amounts against the order's instrument and currency before anything is
        // written: bad input is a 400 that leaves no request record behind.
        Map<String, AttributeValue> order =
                ddb.getStrong(tables.orders(), OrderItems.key(tenant, cmd.orderId()), meter);
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

    /** The effect; also re-attempted by the repair worker. */
    public DurableResponse apply(Claim claim, FillCommand cmd, CapacityMeter meter) {
        String tenant = claim.tenant();
        for (int round = 0; round < MAX_VERSION_ROUNDS; round++) {
            if (round > 0) {
                versionBackoff.pause(round);
            }
            Map<String, AttributeValue> order =
                    ddb.getStrong(tables.orders(), OrderItems.key(tenant, cmd.orderId()), meter);
            if (order == null) {
                throw ApiException.notFound("order '" + cmd.orderId() + "' not found");
            }
            String symbol = Av.reqStr(order, OrderItems.A_SYMBOL);
            String currency = Av.reqStr(order, OrderItems.A_CURRENCY);
            OrderStatus status = OrderStatus.valueOf(Av.reqStr(order, OrderItems.A_STATUS));
            long version = Av.lng(order, OrderItems.A_VERSION, 0);
            Quantity qty = Amounts.positiveQuantity("quantity", cmd.quantity(), symbol);
            Money price = Amounts.positiveMoney("price", cmd.price(), currency);
            Money fee = Amounts.money("fee", cmd.fee(), currency);
            if (!status.acceptsFills()) {
                throw ApiException.unprocessable(
                        "ORDER_NOT_FILLABLE",
                        "order '" + cmd.orderId() + "' is " + status + " and accepts no fills");
            }
            BigDecimal remaining = Av.dec(order, OrderItems.A_REMAINING);
            BigDecimal filled = Av.dec(order, OrderItems.A_FILLED);
            if (qty.value().compareTo(remaining) > 0) {
                throw ApiException.unprocessable(
                        "OVERFILL",
                        "fill of "
                                + qty.value().toPlainString()
                                + " exceeds the remaining quantity "
                                + remaining.toPlainString()
                                + " of order '"
                                + cmd.orderId()
                                + "'");
            }
            BigDecimal newRemaining = remaining.subtract(qty.value());
            BigDecimal newFilled = filled.add(qty.value());
            OrderStatus newStatus =
                    newRemaining.signum() == 0 ? OrderStatus.FILLED : OrderStatus.PARTIALLY_FILLED;
            long newVersion = version + 1;
            Instant now =
                    executor.store()
                            .clock()
                            .instant()
                            .truncatedTo(java.time.temporal.ChronoUnit.MILLIS);
            String accountId = Av.reqStr(order, OrderItems.A_ACCOUNT);
            TradeItems.Trade trade =
                    new TradeItems.Trade(
                            tenant,
                            cmd.orderId(),
                            cmd.fillId(),
                            accountId,
                            symbol,
                            Av.reqStr(order, OrderItems.A_SIDE),
                            qty.value(),
                            price,
                            fee,
                            cmd.executedAt(),
                            newVersion);
            Map<String, AttributeValue> tradeItem = TradeItems.item(trade);
            ObjectNode body = StrictJson.MAPPER.createObjectNode();
            body.set("trade", TradeItems.view(tradeItem));
            ObjectNode o = body.putObject("order");
            o.put("orderId", cmd.orderId());
            o.put("status", newStatus.name());
            o.put("filledQuantity", newFilled.toPlainString());
            o.put("remainingQuantity", newRemaining.toPlainString());
            o.put("version", newVersion);
            DurableResponse response = new DurableResponse(201, StrictJson.write(body));

            String eventId = DeterministicIds.eventId(trade.tradeId(), EVENT_TRADE_EXECUTED, 1);
            OutboxEvent event =
                    new OutboxEvent(
                            eventId,
                            "Order",
                            cmd.orderId(),
                            newVersion,
                            EVENT_TRADE_EXECUTED,
                            1,
                            now,
                            claim.owner(),
                            claim.requestKey(),
                            new Payloads()
                                    .s("tenant", tenant)
                                    .s("tradeId", trade.tradeId())
                                    .s("fillId", trade.fillId())
                                    .s("orderId", trade.orderId())
                                    .s("accountId", trade.accountId())
                                    .s("symbol", trade.symbol())
                                    .s("side", trade.side())
                                    .n("quantity", trade.quantity())
                                    .n("price", price.amount())
                                    .s("currency", price.currency())
                                    .n("fee", fee.amount())
                                    .s("feeCurrency", fee.currency())
                                    .s("executedAt", trade.executedAt().toString())
                                    .n("orderVersion", newVersion)
                                    .s("orderStatus", newStatus.name())
                                    .build());
            List<TransactWriteItem> tx =
                    List.of(
                            Tx.createPut(tables.execution(), tradeItem),
                            orderAdvance(
                                    tenant,
                                    order,
                                    version,
                                    qty.value(),
                                    newFilled,
                                    newRemaining,
                                    status,
                                    newStatus,
                                    newVersion,
                                    now),
                            OutboxItems.createPut(tables.context(), tenant, event),
                            executor.store().completionPut(claim, response));
            try {
                ddb.transact(tx, claim.roundToken(round), meter);
                return response;
            } catch (TransactionCanceledException e) {
                if (Tx.conditionFailed(e.cancellationReasons(), TX_REQUEST)) {
                    throw new OwnershipLostException();
                }
                if (Tx.conditionFailed(e.cancellationReasons(), TX_TRADE)) {
                    throw new IllegalStateException(
                            "trade " + trade.tradeId() + " exists but its request is not complete");
                }
                if (Tx.conditionFailed(e.cancellationReasons(), TX_ORDER)) {
                    continue; // another fill advanced the order: re-read and re-decide
                }
                throw e;
            }
        }
        throw new ApiException(
                503,
                "ORDER_BUSY",
                "order '" + cmd.orderId() + "' is being updated concurrently; retry",
                Map.of("Retry-After", "1"));
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
            Map<String, AttributeValue> order,
            long expectedVersion,
            BigDecimal fillQty,
            BigDecimal newFilled,
            BigDecimal newRemaining,
            OrderStatus oldStatus,
            OrderStatus newStatus,
            long newVersion,
            Instant now) {
        Map<String, String> names = new HashMap<>();
        names.put("#v", OrderItems.A_VERSION);
        names.put("#rem", OrderItems.A_REMAINING);
        names.put("#filled", OrderItems.A_FILLED);
        names.put("#status", OrderItems.A_STATUS);
        names.put("#updated", OrderItems.A_UPDATED);
        Map<String, AttributeValue> values = new HashMap<>();
        values.put(":expected", Av.n(expectedVersion));
        values.put(":fill", Av.n(fillQty));
        values.put(":nv", Av.n(newVersion));
        values.put(":rem", Av.n(newRemaining));
        values.put(":filled", Av.n(newFilled));
        values.put(":status", Av.s(newStatus.name()));
        values.put(":updated", Av.s(now.toString()));
        StringBuilder set =
                new StringBuilder(
                        "SET #v = :nv, #rem = :rem, #filled = :filled, #status = :status,"
                                + " #updated = :updated");
        String remove = "";
        names.put("#g2pk", Schema.GSI2PK);
        if (newStatus.terminal()) {
            // AP03: terminal orders leave the sparse status index
            names.put("#g2sk", Schema.GSI2SK);
            remove = " REMOVE #g2pk, #g2sk";
        } else if (newStatus != oldStatus) {
            // AP03 membership moves to the new status partition (delete + put in GSI2)
            values.put(
                    ":g2pk",
                    Av.s(
                            Schema.accountStatusPk(
                                    tenant,
                                    Av.reqStr(order, OrderItems.A_ACCOUNT),
                                    newStatus.name())));
            // the SK (ORD#at#id) is unchanged: only the partition of the membership moves
            set.append(", #g2pk = :g2pk");
        } else {
            names.remove("#g2pk");
        }
        return TransactWriteItem.builder()
                .update(
                        Update.builder()
                                .tableName(tables.orders())
                                .key(
                                        OrderItems.key(
                                                tenant, Av.reqStr(order, OrderItems.A_ORDER_ID)))
                                .updateExpression(set + remove)
                                .conditionExpression("#v = :expected AND #rem >= :fill")
                                .expressionAttributeNames(names)
                                .expressionAttributeValues(values)
                                .build())
                .build();
    }
}
