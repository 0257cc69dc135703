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
 * at what remains, leaves reserved and a completing fill releases the rest; conditional on the
 * reservation's version and OPEN state. What the fill moves but the posting job has not posted yet
 * is recorded as the authority's {@code pending} (BUY: cash out and quantity in; SELL: quantity
 * out), so available = posted + pending - reserved is exact at admission and never depends on the
 * posting lag: bought shares can be sold before they are posted, sold shares and spent cash cannot
 * be used twice.
 */
public final class FillReservation {

    /**
     * The writes (none when the order holds no open reservation) and the pending amounts they
     * record on the client's cash and security authorities (zero when none).
     */
    public record Consumption(
            List<TransactWriteItem> writes, BigDecimal pendingCash, BigDecimal pendingQuantity) {

        static final Consumption NONE =
                new Consumption(List.of(), BigDecimal.ZERO, BigDecimal.ZERO);

        public boolean isEmpty() {
            return writes.isEmpty();
        }
    }

    private final Ddb ddb;
    private final TableNames tables;
    private final BuyingPowerPolicy policy;

    public FillReservation(Ddb ddb, TableNames tables, BuyingPowerPolicy policy) {
        this.ddb = ddb.ap("AP12");
        this.tables = tables;
        this.policy = policy;
    }

    /**
     * What a fill costs its order's reservation: SELL its quantity, BUY its rounded consideration +
     * fee (the posting job's rounding).
     */
    public BigDecimal cost(String side, BigDecimal quantity, Money price, Money fee) {
        if ("SELL".equals(side)) {
            return quantity;
        }
        return policy.rounding()
                .consideration(price.amount(), quantity, price.currency())
                .rounded()
                .amount()
                .add(fee.amount());
    }

    /**
     * The reservation's advance, then the reserved authority's update (release + pending), then for
     * a BUY the security authority's pending quantity.
     */
    public Consumption consume(
            String tenant,
            String accountId,
            String orderId,
            String side,
            String symbol,
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
            return Consumption.NONE;
        }
        boolean sell = "SELL".equals(side);
        BigDecimal remaining =
                Av.dec(res, LedgerSchema.AMOUNT).subtract(Av.dec(res, LedgerSchema.CONSUMED));
        BigDecimal cost = cost(side, quantity, price, fee);
        BigDecimal consumed = cost.min(remaining);
        BigDecimal released = completes ? remaining.subtract(consumed) : BigDecimal.ZERO;
        List<TransactWriteItem> out = new ArrayList<>(3);
        out.add(
                LedgerItemCodec.reservationConsume(
                        tables.ledger(),
                        key,
                        Av.lng(res, LedgerSchema.VERSION, 0),
                        consumed,
                        completes ? ReservationState.CONSUMED : ReservationState.OPEN,
                        released,
                        now));
        AuthorityKey reserved =
                new AuthorityKey(
                        tenant,
                        accountId,
                        AuthorityKey.Kind.valueOf(Av.reqStr(res, LedgerSchema.ASSET_TYPE)),
                        Av.reqStr(res, LedgerSchema.ASSET));
        // the whole cost leaves available (pending out), even the part the hold did not cover
        out.add(
                LedgerItemCodec.authorityConsume(
                        tables.ledger(),
                        reserved,
                        consumed.add(released),
                        cost.negate(),
                        orderId,
                        now));
        if (sell) {
            return new Consumption(out, BigDecimal.ZERO, quantity.negate());
        }
        out.add(
                LedgerItemCodec.authorityConsume(
                        tables.ledger(),
                        new AuthorityKey(tenant, accountId, AuthorityKey.Kind.SEC, symbol),
                        BigDecimal.ZERO,
                        quantity,
                        orderId,
                        now));
        return new Consumption(out, cost.negate(), quantity);
    }
}
