package io.streamledger.command.orders;

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
import io.streamledger.command.config.TableNames;
import io.streamledger.command.dynamo.CapacityMeter;
import io.streamledger.command.dynamo.Ddb;
import io.streamledger.command.dynamo.Tx;
import io.streamledger.command.idempotency.Claim;
import io.streamledger.command.idempotency.DurableResponse;
import io.streamledger.command.idempotency.IdempotentExecutor;
import io.streamledger.command.idempotency.OwnershipLostException;
import io.streamledger.command.outbox.OutboxItems;
import io.streamledger.command.outbox.Payloads;
import io.streamledger.model.change.OutboxEvent;
import io.streamledger.model.keys.AuthorityKey;
import io.streamledger.model.keys.ReservationKey;
import io.streamledger.model.ledger.LedgerSchema;
import io.streamledger.model.ledger.ReservationState;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.annotation.Nullable;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;
import software.amazon.awssdk.services.dynamodb.model.TransactionCanceledException;

/**
 * Order cancellation and expiry (CS04/CS11, AP03/AP08/AP12/AP16): the order's move to CANCELLED or
 * EXPIRED (conditional on its version and a non-terminal status, and for an expiry on its {@code
 * expiresAtMs} having passed on the service clock; it leaves the sparse IDX03 status index), the
 * release of what remains of its reservation back to available, and the OrderCancelled /
 * OrderExpired outbox event, in one transaction with the AP08 record keyed by the order, so a
 * repeated request returns the first one's response.
 */
public final class CancelService {

    public static final String EVENT_ORDER_CANCELLED = "OrderCancelled";
    public static final String EVENT_ORDER_EXPIRED = "OrderExpired";
    public static final String OPERATION = "CancelOrder";
    public static final String OPERATION_EXPIRE = "ExpireOrder";

    /** How an open order is closed: by its owner, or by its time in force. */
    public enum Closing {
        CANCEL(OrderStatus.CANCELLED, EVENT_ORDER_CANCELLED),
        EXPIRE(OrderStatus.EXPIRED, EVENT_ORDER_EXPIRED);

        final OrderStatus status;
        final String event;

        Closing(OrderStatus status, String event) {
            this.status = status;
            this.event = event;
        }
    }

    public static final int SCHEMA_VERSION = 1;
    public static final int MAX_VERSION_ROUNDS = 64;

    // positions of the actions in the cancel transaction
    private static final int TX_ORDER = 0;
    private static final int TX_REQUEST = 1;
    private static final int TX_OUTBOX = 2;
    private static final int TX_RESERVATION = 3;

    private final Ddb ddb;
    private final TableNames tables;
    private final IdempotentExecutor executor;
    private final RetryPolicy versionBackoff =
            RetryPolicy.fullJitter(MAX_VERSION_ROUNDS, Duration.ofMillis(4), Duration.ofMillis(50));

    public CancelService(Ddb ddb, TableNames tables, IdempotentExecutor executor) {
        this.ddb = ddb.ap("AP01");
        this.tables = tables;
        this.executor = executor;
    }

    /** AP08 request key of an order's cancellation: its business identity, not a client key. */
    public static String requestKey(String orderId) {
        return "CANCEL:" + orderId;
    }

    /** AP08 request key of an order's expiry. */
    public static String expireRequestKey(String orderId) {
        return "EXPIRE:" + orderId;
    }

    /**
     * POST /v1/orders/{id}/expire: closes a DAY order whose session close has passed. An order not
     * yet due (or GTC) is a 409 that leaves no request record, so the same call succeeds once it is
     * due; a scheduler calls it at the close for the open DAY orders it lists (AP03).
     */
    public IdempotentExecutor.Outcome expire(String tenant, String orderId, CapacityMeter meter) {
        Fields.checkId("order id", orderId);
        Map<String, AttributeValue> order =
                ddb.getStrong(tables.orders(), OrderItems.key(tenant, orderId), meter);
        if (order == null) {
            throw ApiException.notFound("order '" + orderId + "' not found");
        }
        notYetDue(order, executor.store().clock().instant());
        // filled or cancelled: refused without a request record (a bust may reopen a filled
        // order); an expired one replays its expiry below
        OrderStatus status = OrderStatus.valueOf(Av.reqStr(order, OrderItems.A_STATUS));
        if (status.terminal() && status != OrderStatus.EXPIRED) {
            throw ApiException.conflict(
                    "ORDER_NOT_OPEN", "order '" + orderId + "' is closed and cannot be expired");
        }
        Map<String, Object> canonical = new LinkedHashMap<>();
        canonical.put("orderId", orderId);
        return executor.execute(
                tenant,
                expireRequestKey(orderId),
                OPERATION_EXPIRE,
                SCHEMA_VERSION,
                canonical,
                orderId,
                (claim, m) -> close(claim, orderId, Closing.EXPIRE, m),
                meter);
    }

    /** 409 ORDER_NOT_EXPIRED for a GTC order or one whose expiry has not come yet. */
    private static void notYetDue(Map<String, AttributeValue> order, Instant now) {
        long expiresAtMs = Av.lng(order, OrderItems.A_EXPIRES_AT_MS, 0);
        if (expiresAtMs == 0 || now.toEpochMilli() < expiresAtMs) {
            throw ApiException.conflict(
                    "ORDER_NOT_EXPIRED",
                    "order '"
                            + Av.reqStr(order, OrderItems.A_ORDER_ID)
                            + "' "
                            + (expiresAtMs == 0
                                    ? "is good till cancelled"
                                    : "expires at " + Instant.ofEpochMilli(expiresAtMs)));
        }
    }

    /** POST /v1/orders/{id}/cancel. */
    public IdempotentExecutor.Outcome cancel(String tenant, String orderId, CapacityMeter meter) {
        Fields.checkId("order id", orderId);
        // an unknown order is a 404 that leaves no request record (it may be placed later)
        if (ddb.getStrong(tables.orders(), OrderItems.key(tenant, orderId), meter) == null) {
            throw ApiException.notFound("order '" + orderId + "' not found");
        }
        Map<String, Object> canonical = new LinkedHashMap<>();
        canonical.put("orderId", orderId);
        return executor.execute(
                tenant,
                requestKey(orderId),
                OPERATION,
                SCHEMA_VERSION,
                canonical,
                orderId,
                (claim, m) -> close(claim, orderId, Closing.CANCEL, m),
                meter);
    }

    /** The cancel effect (also re-attempted by the repair worker). */
    public DurableResponse close(Claim claim, String orderId, CapacityMeter meter) {
        return close(claim, orderId, Closing.CANCEL, meter);
    }

    /** The effect; each round reads the order and its reservation and writes on their versions. */
    public DurableResponse close(
            Claim claim, String orderId, Closing closing, CapacityMeter meter) {
        String tenant = claim.tenant();
        for (int round = 0; round < MAX_VERSION_ROUNDS; round++) {
            if (round > 0) {
                versionBackoff.pause(round);
            }
            Map<String, AttributeValue> order =
                    ddb.getStrong(tables.orders(), OrderItems.key(tenant, orderId), meter);
            if (order == null) {
                throw ApiException.notFound("order '" + orderId + "' not found");
            }
            OrderStatus status = OrderStatus.valueOf(Av.reqStr(order, OrderItems.A_STATUS));
            if (status.terminal()) {
                throw ApiException.conflict(
                        closing == Closing.CANCEL ? "ORDER_NOT_CANCELLABLE" : "ORDER_NOT_OPEN",
                        "order '"
                                + orderId
                                + "' is "
                                + status
                                + " and cannot be "
                                + (closing == Closing.CANCEL ? "cancelled" : "expired"));
            }
            String account = Av.reqStr(order, OrderItems.A_ACCOUNT);
            ReservationKey resKey = new ReservationKey(tenant, account, orderId);
            Map<String, AttributeValue> reservation =
                    ddb.getStrong(tables.ledger(), LedgerItemCodec.key(resKey), meter);
            Instant now = executor.store().clock().instant().truncatedTo(ChronoUnit.MILLIS);
            long version = Av.lng(order, OrderItems.A_VERSION, 0);
            BigDecimal released = remaining(reservation);
            if (closing == Closing.EXPIRE) {
                notYetDue(order, now);
            }
            DurableResponse response = response(order, closing, version + 1, released);
            List<TransactWriteItem> tx = new ArrayList<>();
            tx.add(orderClose(tenant, orderId, closing, version, now));
            tx.add(executor.store().completionPut(claim, response));
            tx.add(
                    OutboxItems.createPut(
                            tables.context(),
                            tenant,
                            event(claim, order, closing, version + 1, released, now)));
            if (released != null) {
                tx.add(
                        LedgerItemCodec.reservationClose(
                                tables.ledger(),
                                resKey,
                                Av.lng(reservation, LedgerSchema.VERSION, 0),
                                ReservationState.RELEASED,
                                released,
                                now));
                if (released.signum() > 0) {
                    tx.add(
                            LedgerItemCodec.authorityRelease(
                                    tables.ledger(),
                                    authority(tenant, reservation),
                                    released,
                                    orderId,
                                    now));
                }
            }
            try {
                ddb.transact(tx, claim.roundToken(round), meter);
                return response;
            } catch (TransactionCanceledException e) {
                var reasons = e.cancellationReasons();
                if (Tx.conditionFailed(reasons, TX_REQUEST)) {
                    throw new OwnershipLostException();
                }
                if (Tx.conditionFailed(reasons, TX_ORDER)
                        || (released != null && Tx.conditionFailed(reasons, TX_RESERVATION))) {
                    continue;
                }
                if (Tx.conditionFailed(reasons, TX_OUTBOX)) {
                    throw new IllegalStateException(
                            closing.event + " event of " + orderId + " exists for another version");
                }
                throw e;
            }
        }
        throw ApiException.orderBusy(orderId);
    }

    /** What an OPEN reservation still blocks; null when there is none to close. */
    private static @Nullable BigDecimal remaining(@Nullable Map<String, AttributeValue> res) {
        if (res == null
                || !ReservationState.OPEN
                        .name()
                        .equals(Av.str(res, LedgerSchema.RESERVATION_STATE))) {
            return null;
        }
        return Av.dec(res, LedgerSchema.AMOUNT).subtract(Av.dec(res, LedgerSchema.CONSUMED));
    }

    private static AuthorityKey authority(String tenant, Map<String, AttributeValue> res) {
        return new AuthorityKey(
                tenant,
                Av.reqStr(res, LedgerSchema.ACCOUNT),
                AuthorityKey.Kind.valueOf(Av.reqStr(res, LedgerSchema.ASSET_TYPE)),
                Av.reqStr(res, LedgerSchema.ASSET));
    }

    private TransactWriteItem orderClose(
            String tenant, String orderId, Closing closing, long version, Instant now) {
        ConditionalUpdate.Builder update =
                ConditionalUpdate.builder()
                        .set(OrderItems.A_VERSION, Av.n(version + 1))
                        .set(OrderItems.A_STATUS, Av.s(closing.status.name()))
                        .set(OrderItems.A_REMAINING, Av.n(BigDecimal.ZERO))
                        .set(OrderItems.A_UPDATED, Av.s(now.toString()))
                        // a terminal order leaves the sparse IDX03 and due-time indexes
                        .remove(OrderItems.OPEN_ONLY_KEYS)
                        .when(Condition.eq(OrderItems.A_VERSION, Av.n(version)))
                        .when(
                                Condition.or(
                                        Condition.eq(
                                                OrderItems.A_STATUS,
                                                Av.s(OrderStatus.ACCEPTED.name())),
                                        Condition.eq(
                                                OrderItems.A_STATUS,
                                                Av.s(OrderStatus.PARTIALLY_FILLED.name()))));
        if (closing == Closing.EXPIRE) {
            // the decision: the service clock has passed the order's immutable expiry (no TTL)
            update.when(Condition.le(OrderItems.A_EXPIRES_AT_MS, Av.n(now.toEpochMilli())));
        }
        return Tx.update(tables.orders(), OrderItems.key(tenant, orderId), update.build());
    }

    private static DurableResponse response(
            Map<String, AttributeValue> order,
            Closing closing,
            long newVersion,
            @Nullable BigDecimal released) {
        ObjectNode body = StrictJson.MAPPER.createObjectNode();
        ObjectNode o = body.putObject("order");
        o.put("orderId", Av.reqStr(order, OrderItems.A_ORDER_ID));
        o.put("status", closing.status.name());
        o.put("filledQuantity", Av.dec(order, OrderItems.A_FILLED).toPlainString());
        o.put("version", newVersion);
        ObjectNode r = body.putObject("reservation");
        r.put("state", released == null ? "NONE" : ReservationState.RELEASED.name());
        r.put("released", released == null ? "0" : released.toPlainString());
        return new DurableResponse(200, StrictJson.write(body));
    }

    private static OutboxEvent event(
            Claim claim,
            Map<String, AttributeValue> order,
            Closing closing,
            long newVersion,
            @Nullable BigDecimal released,
            Instant now) {
        String orderId = Av.reqStr(order, OrderItems.A_ORDER_ID);
        return new OutboxEvent(
                DeterministicIds.eventId(orderId, closing.event, newVersion),
                "Order",
                orderId,
                newVersion,
                closing.event,
                1,
                now,
                claim.owner(),
                claim.requestKey(),
                new Payloads()
                        .s("tenant", claim.tenant())
                        .s("orderId", orderId)
                        .s("accountId", Av.reqStr(order, OrderItems.A_ACCOUNT))
                        .s("status", closing.status.name())
                        .n("filledQuantity", Av.dec(order, OrderItems.A_FILLED))
                        .n("released", released == null ? BigDecimal.ZERO : released)
                        .n("version", newVersion)
                        .build());
    }
}
