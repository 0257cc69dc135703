package io.streamledger.operators.posting;

import io.streamledger.model.keys.AuthorityKey;
import io.streamledger.model.ledger.HouseAccounts;
import io.streamledger.model.ledger.LedgerIds;
import io.streamledger.model.ledger.RoundingPolicy;
import io.streamledger.model.money.Allocation;
import io.streamledger.model.money.AmountException;
import io.streamledger.model.money.CurrencyPolicy;
import io.streamledger.model.money.Money;
import io.streamledger.model.money.Quantity;
import io.streamledger.model.order.OrderSide;
import io.streamledger.operators.posting.PostingRejectedException.Reason;
import java.io.Serializable;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Turns one fill into one balanced ledger transaction (AP10, CS10, CS11): guard clauses with named
 * reasons first, then the lines. Per fill, with {@code c} = the client account:
 *
 * <pre>
 *  BUY : c CASH −consideration, CLEARING CASH +consideration, c SEC +qty, CLEARING SEC −qty
 *  SELL: c CASH +consideration, CLEARING CASH −consideration, c SEC −qty, CLEARING SEC +qty
 *  fee : c CASH −fee, FEES-&lt;line&gt; CASH +share … (residual fee line takes the remainder)
 * </pre>
 *
 * consideration and fee shares are rounded by the {@link RoundingPolicy}; the exact gross and the
 * residual are recorded on the transaction. House accounts come from {@link HouseAccounts}.
 */
public final class FillPostingRules implements Serializable {

    private static final long serialVersionUID = 1L;

    private static final AuthorityKey.Kind CASH = AuthorityKey.Kind.CASH;
    private static final AuthorityKey.Kind SEC = AuthorityKey.Kind.SEC;

    private final RoundingPolicy rounding;
    private final HouseAccounts house;

    public FillPostingRules(RoundingPolicy rounding, HouseAccounts house) {
        this.rounding = rounding;
        this.house = house;
    }

    public HouseAccounts house() {
        return house;
    }

    /**
     * @throws PostingRejectedException for input the ledger must not post
     * @throws IllegalStateException if the lines do not balance (a defect, not bad input)
     */
    public PostingPlan plan(TradeFill f) {
        // ---- guard clauses: each names its reason ----
        require(f.getTenant(), "tenant");
        require(f.getAccountId(), "accountId");
        require(f.getTradeId(), "tradeId");
        if (f.getOrderId() == null || f.getOrderId().isEmpty()) {
            // the command service writes a fill only in its order's transaction (AP09)
            throw new PostingRejectedException(Reason.UNKNOWN_ORDER, "the fill names no order");
        }
        require(f.getSymbol(), "symbol");
        if (f.getQuantity() == null || f.getPrice() == null) {
            throw new PostingRejectedException(Reason.MISSING_FIELD, "quantity and price required");
        }
        OrderSide side = OrderSide.parse(f.getSide());
        if (side == null) {
            throw new PostingRejectedException(
                    Reason.UNKNOWN_SIDE, "side '" + f.getSide() + "' is neither BUY nor SELL");
        }
        boolean buy = side == OrderSide.BUY;
        if (!CurrencyPolicy.isKnown(f.getCurrency())) {
            throw new PostingRejectedException(
                    Reason.UNKNOWN_CURRENCY,
                    "currency '" + f.getCurrency() + "' is not registered");
        }
        BigDecimal fee = f.getFee() == null ? BigDecimal.ZERO : f.getFee();
        String feeCurrency = f.getFeeCurrency() == null ? f.getCurrency() : f.getFeeCurrency();
        if (!feeCurrency.equals(f.getCurrency())) {
            // a cross-currency fee needs a rate identity (seed CS10); not part of this contract
            throw new PostingRejectedException(
                    Reason.FEE_CURRENCY_MISMATCH,
                    "fee currency "
                            + feeCurrency
                            + " differs from trade currency "
                            + f.getCurrency());
        }
        if (f.getQuantity().signum() <= 0) {
            throw new PostingRejectedException(
                    Reason.NON_POSITIVE_QUANTITY, "quantity " + f.getQuantity().toPlainString());
        }
        if (f.getPrice().signum() <= 0) {
            throw new PostingRejectedException(
                    Reason.NON_POSITIVE_PRICE, "price " + f.getPrice().toPlainString());
        }
        if (fee.signum() < 0) {
            throw new PostingRejectedException(Reason.NEGATIVE_FEE, "fee " + fee.toPlainString());
        }
        Money price = money(f.getPrice(), f.getCurrency(), Reason.PRICE_SCALE);
        Money feeMoney = money(fee, f.getCurrency(), Reason.FEE_SCALE);
        Quantity qty;
        try {
            qty = Quantity.of(f.getQuantity(), f.getSymbol());
        } catch (AmountException e) {
            throw new PostingRejectedException(Reason.QUANTITY_SCALE, e.getMessage());
        }

        // ---- the transaction ----
        String sourceId = LedgerIds.tradeSourceId(f.getTradeId());
        String txnId = LedgerIds.txnId(f.getTenant(), sourceId);
        RoundingPolicy.Consideration c =
                rounding.consideration(price.amount(), qty.value(), f.getCurrency());
        Money consideration = c.rounded();
        String client = f.getAccountId();
        String clearing = house.clearing(client);
        BigDecimal cashSign = buy ? BigDecimal.ONE.negate() : BigDecimal.ONE;
        List<LedgerLine> lines = new ArrayList<>();
        String ccy = f.getCurrency();
        add(lines, client, CASH, ccy, consideration.amount().multiply(cashSign), "CONSIDERATION");
        add(
                lines,
                clearing,
                CASH,
                ccy,
                consideration.amount().multiply(cashSign).negate(),
                "CONSIDERATION_CONTRA");
        add(
                lines,
                client,
                SEC,
                f.getSymbol(),
                qty.value().negate().multiply(cashSign),
                "SECURITIES");
        add(
                lines,
                clearing,
                SEC,
                f.getSymbol(),
                qty.value().multiply(cashSign),
                "SECURITIES_CONTRA");
        if (feeMoney.signum() > 0) {
            add(lines, client, CASH, ccy, feeMoney.amount().negate(), "FEE");
            Allocation split = rounding.splitFee(feeMoney);
            for (Map.Entry<String, Money> share : split.lines().entrySet()) {
                if (share.getValue().signum() != 0) {
                    add(
                            lines,
                            house.feeIncome(share.getKey(), client),
                            CASH,
                            ccy,
                            share.getValue().amount(),
                            "FEE_INCOME:" + share.getKey());
                }
            }
        }
        PostingPlan plan =
                new PostingPlan(
                        f.getTenant(),
                        txnId,
                        sourceId,
                        Instant.ofEpochMilli(f.getExecutedAtMillis()),
                        lines,
                        c.grossExact(),
                        consideration.amount(),
                        rounding.roundingMode());
        if (!plan.isBalanced()) {
            throw new IllegalStateException(
                    "unbalanced transaction " + plan.sumByAsset() + " for " + f);
        }
        return plan;
    }

    private static void add(
            List<LedgerLine> lines,
            String account,
            AuthorityKey.Kind type,
            String asset,
            BigDecimal amount,
            String role) {
        lines.add(new LedgerLine(lines.size() + 1, account, type, asset, amount, role));
    }

    private static Money money(BigDecimal v, String ccy, Reason reason) {
        try {
            return Money.of(v, ccy);
        } catch (AmountException e) {
            throw new PostingRejectedException(reason, e.getMessage());
        }
    }

    private static void require(String v, String name) {
        if (v == null || v.isEmpty()) {
            throw new PostingRejectedException(Reason.MISSING_FIELD, name + " is missing");
        }
    }
}
