package io.streamledger.operators.recon;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.LongPredicate;

/**
 * The order ↔ fill rules (CS04, AP14/AP15; seed: "Reconciliation compares source order/fill IDs
 * ..."), flat guards with one named {@link ReconReason} each, shared by the streaming {@link
 * OrderFillCheck} and the export reconciliation. Pure: the caller decides when the evidence is
 * complete.
 *
 * <ul>
 *   <li>a fill: its order must have been seen at the fill's order version or later ({@code
 *       FILL_WITHOUT_ORDER});
 *   <li>an order version: its own filled quantity and the sum of its trades up to that version stay
 *       within the accepted quantity ({@code FILLS_EXCEED_ACCEPTED}), and are equal ({@code
 *       FILLED_QUANTITY_MISMATCH}).
 * </ul>
 *
 * Trades are identified by tradeId (duplicates count once); the filled quantity is the order item's
 * own value at the version, so any version that changes it is judged like a fill.
 */
public final class OrderFillRules {

    private OrderFillRules() {}

    /**
     * @param maxOrderVersion the highest version of the fill's order seen, or 0 when none
     */
    public static Optional<OrderFillFinding> judgeFill(ReconEvent fill, long maxOrderVersion) {
        FillFact f = fill.fill();
        if (maxOrderVersion >= Math.max(1, fill.orderVersion)) {
            return Optional.empty();
        }
        Map<String, String> ev = new LinkedHashMap<>();
        ev.put("tradeId", f.tradeId());
        ev.put("orderId", fill.orderId);
        ev.put("fillOrderVersion", Long.toString(fill.orderVersion));
        ev.put("orderVersionSeen", maxOrderVersion == 0 ? "none" : Long.toString(maxOrderVersion));
        ev.put("account", f.account());
        ev.put("quantity", f.quantity().toPlainString());
        return Optional.of(
                OrderFillFinding.of(
                        ReconReason.FILL_WITHOUT_ORDER, "fill " + f.tradeId(), ev, f.tradeId()));
    }

    /**
     * @param trades the order's distinct trades (tradeId → FILL event) seen so far
     */
    public static Optional<OrderFillFinding> judgeVersion(
            ReconEvent version, Iterable<ReconEvent> trades) {
        OrderFact o = version.order();
        BigDecimal traded = BigDecimal.ZERO;
        int counted = 0;
        for (ReconEvent t : trades) {
            if (t.orderVersion >= 1 && t.orderVersion <= o.version()) {
                traded = traded.add(t.fill().quantity());
                counted++;
            }
        }
        ReconReason reason = null;
        if (o.filledQuantity().compareTo(o.quantity()) > 0 || traded.compareTo(o.quantity()) > 0) {
            reason = ReconReason.FILLS_EXCEED_ACCEPTED;
        } else if (o.filledQuantity().compareTo(traded) != 0) {
            reason = ReconReason.FILLED_QUANTITY_MISMATCH;
        }
        if (reason == null) {
            return Optional.empty();
        }
        Map<String, String> ev = new LinkedHashMap<>();
        ev.put("orderId", o.orderId());
        ev.put("account", o.account());
        ev.put("symbol", o.symbol());
        ev.put("orderVersion", Long.toString(o.version()));
        ev.put("status", o.status());
        ev.put("acceptedQuantity", o.quantity().toPlainString());
        ev.put("filledQuantity", o.filledQuantity().toPlainString());
        ev.put("tradedQuantity", traded.toPlainString());
        ev.put("trades", Integer.toString(counted));
        return Optional.of(
                OrderFillFinding.of(
                        reason,
                        "order " + o.orderId(),
                        ev,
                        o.orderId(),
                        "V",
                        Long.toString(o.version())));
    }

    /**
     * Judges one order's evidence: every version and every fill whose deadline {@code due} accepts,
     * against all of the order's versions and trades; findings as {@link
     * ReconEvent.Kind#ORDER_FILL} events at their subject's business time. The streaming check
     * calls it at each deadline, the export reconciliation once with every subject due.
     */
    public static List<ReconEvent> judge(
            Collection<ReconEvent> versions, Collection<ReconEvent> trades, LongPredicate due) {
        long maxVersion = 0;
        for (ReconEvent v : versions) {
            maxVersion = Math.max(maxVersion, v.order().version());
        }
        List<ReconEvent> out = new ArrayList<>();
        for (ReconEvent v : versions) {
            if (due.test(v.eventTimeMillis)) {
                judgeVersion(v, trades).ifPresent(f -> out.add(finding(v, f)));
            }
        }
        for (ReconEvent t : trades) {
            if (due.test(t.eventTimeMillis)) {
                judgeFill(t, maxVersion).ifPresent(f -> out.add(finding(t, f)));
            }
        }
        return out;
    }

    private static ReconEvent finding(ReconEvent subject, OrderFillFinding f) {
        return ReconEvent.of(subject.tenant, subject.eventTimeMillis, f);
    }

    /**
     * When the check decides a subject of business time {@code t}: the closing of t's window
     * (window end + allowed lateness, {@link BatchTrigger#closing}), the moment its batch raises
     * breaks, so a finding always lands in its window before that closes.
     */
    public static long deadline(long t, ReconConfig config) {
        long start = BusinessTimeWindows.start(t, config.windowMillis());
        return start + config.windowMillis() - 1 + config.allowedLatenessMillis();
    }
}
