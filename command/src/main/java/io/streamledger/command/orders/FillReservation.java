package io.streamledger.command.orders;

import io.streamledger.aws.items.Av;
import io.streamledger.aws.ledger.LedgerItemCodec;
import io.streamledger.command.config.TableNames;
import io.streamledger.command.dynamo.CapacityMeter;
import io.streamledger.command.dynamo.Ddb;
import io.streamledger.model.keys.AuthorityKey;
import io.streamledger.model.keys.ReservationKey;
import io.streamledger.model.ledger.BuyingPowerPolicy;
import io.streamledger.model.ledger.LedgerSchema;
import io.streamledger.model.ledger.ReservationState;
import io.streamledger.model.money.Money;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;

/**
 * AP12 consumption of an order's reservation by a fill, written in the fill's admission transaction
 * (CS04/CS11): the fill's cost (SELL: its quantity; BUY: its rounded consideration + fee), capped
 * at what remains, leaves reserved and returns to available, and a completing fill releases the
 * rest; conditional on the reservation's version and OPEN state.
 */
public final class FillReservation {

    private final Ddb ddb;
    private final TableNames tables;
    private final BuyingPowerPolicy policy;

    public FillReservation(Ddb ddb, TableNames tables, BuyingPowerPolicy policy) {
        this.ddb = ddb;
        this.tables = tables;
        this.policy = policy;
    }

    /**
     * The writes (none when the order holds no open reservation): the reservation's advance, then
     * the authority's reserved decrement.
     */
    public List<TransactWriteItem> consume(
            String tenant,
            String accountId,
            String orderId,
            String side,
            BigDecimal quantity,
            Money price,
            Money fee,
            boolean completes,
            Instant now,
            CapacityMeter meter) {
        ReservationKey key = new ReservationKey(tenant, accountId, orderId);
        Map<String, AttributeValue> res =
                ddb.getStrong(tables.ledger(), LedgerItemCodec.key(key), meter);
        if (res == null
                || !ReservationState.OPEN
                        .name()
                        .equals(Av.str(res, LedgerSchema.RESERVATION_STATE))) {
            return List.of();
        }
        BigDecimal remaining =
                Av.dec(res, LedgerSchema.AMOUNT).subtract(Av.dec(res, LedgerSchema.CONSUMED));
        BigDecimal cost =
                "SELL".equals(side)
                        ? quantity
                        : policy.rounding()
                                .consideration(price.amount(), quantity, price.currency())
                                .rounded()
                                .amount()
                                .add(fee.amount());
        BigDecimal consumed = cost.min(remaining);
        BigDecimal released = completes ? remaining.subtract(consumed) : BigDecimal.ZERO;
        List<TransactWriteItem> out = new ArrayList<>(2);
        out.add(
                LedgerItemCodec.reservationConsume(
                        tables.ledger(),
                        key,
                        Av.lng(res, LedgerSchema.VERSION, 0),
                        consumed,
                        completes ? ReservationState.CONSUMED : ReservationState.OPEN,
                        released,
                        now));
        BigDecimal back = consumed.add(released);
        if (back.signum() > 0) {
            AuthorityKey authority =
                    new AuthorityKey(
                            tenant,
                            accountId,
                            AuthorityKey.Kind.valueOf(Av.reqStr(res, LedgerSchema.ASSET_TYPE)),
                            Av.reqStr(res, LedgerSchema.ASSET));
            out.add(
                    LedgerItemCodec.authorityRelease(
                            tables.ledger(), authority, back, orderId, now));
        }
        return out;
    }
}
