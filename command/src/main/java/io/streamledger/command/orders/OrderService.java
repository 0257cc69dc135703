package io.streamledger.command.orders;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.streamledger.aws.items.Av;
import io.streamledger.aws.ledger.LedgerItemCodec;
import io.streamledger.command.api.ApiException;
import io.streamledger.command.api.Fields;
import io.streamledger.command.api.StrictJson;
import io.streamledger.command.config.DeterministicIds;
import io.streamledger.command.config.TableNames;
import io.streamledger.command.dynamo.CapacityMeter;
import io.streamledger.command.dynamo.Ddb;
import io.streamledger.command.dynamo.Tx;
import io.streamledger.command.idempotency.Claim;
import io.streamledger.command.idempotency.DurableResponse;
import io.streamledger.command.idempotency.Fingerprint;
import io.streamledger.command.idempotency.IdempotentExecutor;
import io.streamledger.command.idempotency.OwnershipLostException;
import io.streamledger.command.ledger.Asset;
import io.streamledger.command.outbox.OutboxItems;
import io.streamledger.command.outbox.Payloads;
import io.streamledger.model.change.OutboxEvent;
import io.streamledger.model.keys.AuthorityKey;
import io.streamledger.model.keys.ReservationKey;
import io.streamledger.model.ledger.BuyingPowerPolicy;
import io.streamledger.model.ledger.LedgerSchema;
import io.streamledger.model.order.OrderSide;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.CancellationReason;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;
import software.amazon.awssdk.services.dynamodb.model.TransactionCanceledException;

/**
 * accepted_order_v1 (CS01/CS02/CS11, AP01/AP08/AP12/AP16/AP17): the order, its client-order
 * sentinel, the OrderAccepted outbox event, the COMPLETED request record, the AP12 hold on the
 * authority and the order's reservation item in ONE TransactWriteItems, after an AP08 claim; a
 * sentinel loser returns the existing order (same fingerprint) or 409; an authority that cannot
 * cover the hold rejects with 422 and nothing written.
 */
public final class OrderService {

    public static final String EVENT_ORDER_ACCEPTED = "OrderAccepted";

    // positions of the actions in the accepted_order_v1 transaction
    private static final int TX_ORDER = 0;
    private static final int TX_SENTINEL = 1;
    private static final int TX_OUTBOX = 2;
    private static final int TX_REQUEST = 3;
    private static final int TX_AUTHORITY = 4;
    private static final int TX_RESERVATION = 5;

    private final Ddb ddb;
    private final TableNames tables;
    private final IdempotentExecutor executor;
    private final BuyingPowerPolicy buyingPower;
    private final Predicate<String> overdraftExempt;
    private final OrderExpiry expiry;

    /**
     * @param overdraftExempt accounts whose holds need not be covered (the AP12 overdraft policy)
     * @param expiry when a DAY/GTD order expires (CS04), stored with its due-time entry
     */
    public OrderService(
            Ddb ddb,
            TableNames tables,
            IdempotentExecutor executor,
            BuyingPowerPolicy buyingPower,
            Predicate<String> overdraftExempt,
            OrderExpiry expiry) {
        this.ddb = ddb;
        this.tables = tables;
        this.executor = executor;
        this.buyingPower = buyingPower;
        this.overdraftExempt = overdraftExempt;
        this.expiry = expiry;
    }

    /** POST /v1/orders. */
    public IdempotentExecutor.Outcome place(
            String tenant, String idempotencyKey, ObjectNode body, CapacityMeter meter) {
        PlaceOrderCommand cmd = PlaceOrderCommand.parse(Fields.of(body));
        String orderId = DeterministicIds.orderId(tenant, cmd.clientOrderId());
        return executor.execute(
                tenant,
                idempotencyKey,
                PlaceOrderCommand.OPERATION,
                PlaceOrderCommand.SCHEMA_VERSION,
                cmd.canonical(),
                orderId,
                (claim, m) -> accept(claim, cmd, m),
                meter);
    }

    /** The effect, also used by the repair worker to re-attempt a deterministic absent order. */
    public DurableResponse accept(Claim claim, PlaceOrderCommand cmd, CapacityMeter meter) {
        String tenant = claim.tenant();
        String orderId = claim.effectId();
        Instant now = executor.store().clock().instant().truncatedTo(ChronoUnit.MILLIS);
        Map<String, AttributeValue> order =
                OrderItems.newOrder(
                        tenant,
                        orderId,
                        cmd,
                        now,
                        expiry.at(cmd, now),
                        claim.fingerprint(),
                        claim.requestKey());
        Hold hold = hold(tenant, cmd);
        DurableResponse response = accepted(order);
        String eventId = DeterministicIds.eventId(orderId, EVENT_ORDER_ACCEPTED, 1);
        OutboxEvent event =
                new OutboxEvent(
                        eventId,
                        "Order",
                        orderId,
                        1,
                        EVENT_ORDER_ACCEPTED,
                        1,
                        now,
                        claim.owner(),
                        claim.requestKey(),
                        payload(tenant, orderId, cmd));
        List<TransactWriteItem> tx =
                List.of(
                        Tx.createPut(tables.orders(), order),
                        Tx.createPut(
                                tables.orders(),
                                OrderItems.sentinel(
                                        tenant, cmd.clientOrderId(), orderId, claim.fingerprint())),
                        OutboxItems.createPut(tables.context(), tenant, event),
                        executor.store().completionPut(claim, response),
                        LedgerItemCodec.authorityHold(
                                tables.ledger(),
                                hold.authority(),
                                hold.amount(),
                                !overdraftExempt.test(cmd.accountId()),
                                orderId,
                                now),
                        LedgerItemCodec.reservationCreate(
                                tables.ledger(),
                                LedgerItemCodec.reservation(
                                        new ReservationKey(tenant, cmd.accountId(), orderId),
                                        hold.authority(),
                                        hold.amount(),
                                        now)));
        try {
            ddb.ap("CS01").transact(tx, token(claim), meter);
            return response;
        } catch (TransactionCanceledException e) {
            List<CancellationReason> reasons = e.cancellationReasons();
            if (Tx.conditionFailed(reasons, TX_REQUEST)) {
                throw new OwnershipLostException();
            }
            if (Tx.conditionFailed(reasons, TX_SENTINEL)
                    || Tx.conditionFailed(reasons, TX_ORDER)
                    || Tx.conditionFailed(reasons, TX_OUTBOX)
                    || Tx.conditionFailed(reasons, TX_RESERVATION)) {
                return fromExistingOrder(claim, cmd, meter);
            }
            if (Tx.conditionFailed(reasons, TX_AUTHORITY)) {
                throw insufficient(cmd, hold, reasons.get(TX_AUTHORITY).item());
            }
            throw e;
        }
    }

    /** AP17 loser: read the sentinel; same fingerprint → the existing order, else 409. */
    private DurableResponse fromExistingOrder(
            Claim claim, PlaceOrderCommand cmd, CapacityMeter meter) {
        Map<String, AttributeValue> sentinel =
                ddb.ap("AP17")
                        .getStrong(
                                tables.orders(),
                                OrderItems.sentinelKey(claim.tenant(), cmd.clientOrderId()),
                                meter);
        if (sentinel == null) {
            throw new IllegalStateException(
                    "order " + claim.effectId() + " exists without its AP17 sentinel");
        }
        if (!claim.fingerprint().equals(Av.str(sentinel, OrderItems.S_FINGERPRINT))) {
            throw ApiException.conflict(
                    "CLIENT_ORDER_ID_CONFLICT",
                    "clientOrderId '"
                            + cmd.clientOrderId()
                            + "' already identifies a different order");
        }
        Map<String, AttributeValue> order =
                ddb.ap("AP01")
                        .getStrong(
                                tables.orders(),
                                OrderItems.key(
                                        claim.tenant(), Av.reqStr(sentinel, OrderItems.S_ORDER_ID)),
                                meter);
        if (order == null) {
            throw new IllegalStateException(
                    "AP17 sentinel " + cmd.clientOrderId() + " maps to a missing order");
        }
        DurableResponse response = accepted(order);
        if (!executor.store().completeAlone(claim, response, meter)) {
            throw new OwnershipLostException();
        }
        return response;
    }

    /** ClientRequestToken (≤36 chars) scoped to this owner attempt. */
    public static String token(Claim claim) {
        return Fingerprint.sha256Hex(
                        claim.tenant()
                                + "\n"
                                + claim.requestKey()
                                + "\n"
                                + claim.owner()
                                + "\n"
                                + claim.attempt())
                .substring(0, 36);
    }

    private static DurableResponse accepted(Map<String, AttributeValue> order) {
        ObjectNode body = StrictJson.MAPPER.createObjectNode();
        body.set("order", OrderItems.view(order));
        return new DurableResponse(201, StrictJson.write(body));
    }

    private static Map<String, io.streamledger.model.change.AttributeValue> payload(
            String tenant, String orderId, PlaceOrderCommand c) {
        return new Payloads()
                .s("tenant", tenant)
                .s("orderId", orderId)
                .s("clientOrderId", c.clientOrderId())
                .s("accountId", c.accountId())
                .s("symbol", c.symbol())
                .s("side", c.side().name())
                .s("type", c.type().name())
                .n("quantity", c.quantity().value())
                .n("limitPrice", c.limitPrice() == null ? null : c.limitPrice().amount())
                .s("currency", c.currency())
                .s("status", OrderStatus.ACCEPTED.name())
                .n("version", 1)
                .build();
    }

    /** What the order blocks: the authority and the amount (AP12, {@link BuyingPowerPolicy}). */
    record Hold(AuthorityKey authority, BigDecimal amount) {}

    Hold hold(String tenant, PlaceOrderCommand cmd) {
        BigDecimal qty = cmd.quantity().value();
        if (cmd.side() == OrderSide.SELL) {
            return new Hold(AuthorityKey.security(tenant, cmd.accountId(), cmd.symbol()), qty);
        }
        BigDecimal price;
        if (cmd.limitPrice() != null) {
            price = cmd.limitPrice().amount();
        } else {
            price =
                    buyingPower
                            .collarPrice(cmd.symbol())
                            .orElseThrow(
                                    () ->
                                            ApiException.unprocessable(
                                                    "NO_REFERENCE_PRICE",
                                                    "a MARKET BUY of "
                                                            + cmd.symbol()
                                                            + " cannot be funded: no reference"
                                                            + " price is configured"));
        }
        return new Hold(
                AuthorityKey.cash(tenant, cmd.accountId(), cmd.currency()),
                buyingPower.buyReservation(price, qty, cmd.currency()));
    }

    private static ApiException insufficient(
            PlaceOrderCommand cmd, Hold hold, Map<String, AttributeValue> authority) {
        BigDecimal available =
                authority == null || !authority.containsKey(LedgerSchema.AVAILABLE)
                        ? BigDecimal.ZERO
                        : Av.dec(authority, LedgerSchema.AVAILABLE);
        boolean buy = cmd.side() == OrderSide.BUY;
        Asset a = new Asset(hold.authority().kind(), hold.authority().asset());
        String asset = a.code();
        return ApiException.unprocessable(
                buy ? "INSUFFICIENT_BUYING_POWER" : "INSUFFICIENT_POSITION",
                "account '"
                        + cmd.accountId()
                        + "' "
                        + asset
                        + " available "
                        + a.format(available)
                        + " cannot cover the required "
                        + a.format(hold.amount()),
                Map.of(
                        "asset", asset,
                        "available", a.format(available),
                        "required", a.format(hold.amount())));
    }
}
