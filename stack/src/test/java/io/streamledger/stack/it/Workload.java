package io.streamledger.stack.it;

import io.streamledger.model.change.AttributeValue;
import io.streamledger.model.change.OutboxEvent;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * A seeded random brokerage workload: tenants, accounts, symbols, orders and their fills as
 * TradeExecuted outbox events shaped like the command service's (CS04), the same orders as a client
 * would place them (CS01, {@link Order}), plus an oracle of expected authority balances computed
 * independently of the posting code.
 */
public final class Workload {

    record Fill(
            OutboxEvent event,
            String tenant,
            String account,
            String symbol,
            boolean buy,
            BigDecimal qty,
            BigDecimal price,
            BigDecimal fee) {}

    /**
     * One order as a client places it through the command service (CS01): its quantity is the sum
     * of its fills, so the last fill leaves it FILLED and no fill is an OVERFILL (CS04).
     */
    record Order(
            String clientOrderId,
            String tenant,
            String account,
            String symbol,
            boolean buy,
            BigDecimal quantity,
            List<Fill> fills) {}

    final List<Fill> fills = new ArrayList<>();
    final List<OutboxEvent> orderAccepted = new ArrayList<>();

    /** The same orders and fills, grouped per order (fills in execution order). */
    final List<Order> orders = new ArrayList<>();

    /** tenant/account/CASH|SEC/asset → expected posted balance (client accounts). */
    final Map<String, BigDecimal> clientOracle = new HashMap<>();

    /** tenant/CASH|SEC/asset → expected sum over the house clearing sub-accounts. */
    final Map<String, BigDecimal> clearingOracle = new HashMap<>();

    /** tenant → expected total fee income (USD). */
    final Map<String, BigDecimal> feeOracle = new HashMap<>();

    Workload(
            long seed,
            int tenants,
            int accountsPerTenant,
            int symbols,
            int orders,
            int maxFillsPerOrder) {
        Random r = new Random(seed);
        Instant t0 = Instant.parse("2026-11-30T09:00:00Z");
        for (int o = 0; o < orders; o++) {
            String tenant = "t" + r.nextInt(tenants);
            String account = "acct-" + r.nextInt(accountsPerTenant);
            String symbol = "SYM" + r.nextInt(symbols);
            boolean buy = r.nextInt(3) != 0;
            String orderId = "o-" + seed + "-" + o;
            orderAccepted.add(
                    new OutboxEvent(
                            "e-acc-" + orderId,
                            "Order",
                            orderId,
                            1,
                            "OrderAccepted",
                            1,
                            t0,
                            "trace-" + o,
                            null,
                            Map.of("tenant", AttributeValue.s(tenant))));
            int n = 1 + r.nextInt(maxFillsPerOrder);
            List<Fill> orderFills = new ArrayList<>();
            BigDecimal orderQty = BigDecimal.ZERO;
            for (int i = 0; i < n; i++) {
                // quantities with up to 3 decimals, prices in cents, fees in cents: rounding
                // matters
                BigDecimal qty = BigDecimal.valueOf(1 + r.nextInt(5_000), r.nextInt(4));
                BigDecimal price = BigDecimal.valueOf(100 + r.nextInt(500_000), 2);
                BigDecimal fee = BigDecimal.valueOf(r.nextInt(300), 2);
                Instant at = t0.plusSeconds(o * 10L + i);
                OutboxEvent e =
                        tradeExecuted(
                                tenant, account, symbol, buy, qty, price, fee, orderId, i, at);
                Fill fill = new Fill(e, tenant, account, symbol, buy, qty, price, fee);
                fills.add(fill);
                orderFills.add(fill);
                orderQty = orderQty.add(qty);
                // the oracle: consideration rounded half-even to cents, fee on top
                BigDecimal consideration = price.multiply(qty).setScale(2, RoundingMode.HALF_EVEN);
                BigDecimal cash = buy ? consideration.negate() : consideration;
                add(clientOracle, tenant + "/" + account + "/CASH/USD", cash.subtract(fee));
                add(
                        clientOracle,
                        tenant + "/" + account + "/SEC/" + symbol,
                        buy ? qty : qty.negate());
                add(clearingOracle, tenant + "/CASH/USD", cash.negate());
                add(clearingOracle, tenant + "/SEC/" + symbol, buy ? qty.negate() : qty);
                add(feeOracle, tenant, fee);
            }
            this.orders.add(
                    new Order(
                            orderId,
                            tenant,
                            account,
                            symbol,
                            buy,
                            orderQty,
                            List.copyOf(orderFills)));
        }
    }

    /**
     * The TradeExecuted outbox event of fill {@code fillIndex} of an order, with the command
     * service's payload attributes (CS04, {@code FillService}); order version = fillIndex + 2
     * (version 1 is OrderAccepted).
     */
    public static OutboxEvent tradeExecuted(
            String tenant,
            String account,
            String symbol,
            boolean buy,
            BigDecimal qty,
            BigDecimal price,
            BigDecimal fee,
            String orderId,
            int fillIndex,
            Instant executedAt) {
        String tradeId = orderId + "-f" + fillIndex;
        long version = fillIndex + 2;
        Map<String, AttributeValue> p = new LinkedHashMap<>();
        p.put("tenant", AttributeValue.s(tenant));
        p.put("tradeId", AttributeValue.s(tradeId));
        p.put("fillId", AttributeValue.s("f" + fillIndex));
        p.put("orderId", AttributeValue.s(orderId));
        p.put("accountId", AttributeValue.s(account));
        p.put("symbol", AttributeValue.s(symbol));
        p.put("side", AttributeValue.s(buy ? "BUY" : "SELL"));
        p.put("quantity", AttributeValue.n(qty));
        p.put("price", AttributeValue.n(price));
        p.put("currency", AttributeValue.s("USD"));
        p.put("fee", AttributeValue.n(fee));
        p.put("feeCurrency", AttributeValue.s("USD"));
        p.put("executedAt", AttributeValue.s(executedAt.toString()));
        p.put("orderVersion", AttributeValue.n(version));
        p.put("orderStatus", AttributeValue.s("PARTIALLY_FILLED"));
        return new OutboxEvent(
                "e-" + tradeId,
                "Order",
                orderId,
                version,
                "TradeExecuted",
                1,
                executedAt,
                "trace-" + tradeId,
                null,
                p);
    }

    /** {@code e} stamped with its account's execution sequence {@code seq} (as CS04 does). */
    public static OutboxEvent withAccountExecSeq(OutboxEvent e, long seq) {
        Map<String, AttributeValue> p = new LinkedHashMap<>(e.payload());
        p.put(io.streamledger.model.table.Attr.ACCOUNT_EXEC_SEQ, AttributeValue.n(seq));
        return new OutboxEvent(
                e.eventId(),
                e.aggregateType(),
                e.aggregateId(),
                e.aggregateVersion(),
                e.eventType(),
                e.schemaVersion(),
                e.occurredAt(),
                e.traceId(),
                e.causationId(),
                p);
    }

    private static void add(Map<String, BigDecimal> m, String k, BigDecimal v) {
        m.merge(k, v, BigDecimal::add);
    }
}
