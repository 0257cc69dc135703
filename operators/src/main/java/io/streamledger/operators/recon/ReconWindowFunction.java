package io.streamledger.operators.recon;

import io.streamledger.model.ledger.LedgerIds;
import io.streamledger.model.order.OrderSide;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.metrics.Counter;
import org.apache.flink.streaming.api.functions.windowing.ProcessWindowFunction;
import org.apache.flink.streaming.api.windowing.windows.TimeWindow;
import org.apache.flink.util.Collector;

/**
 * Closes one tenant's event-time window into an AP14 batch (IDX13) and AP15 breaks (seed:
 * "Reconciliation compares source order/fill IDs, ledger posting IDs, balances, and projection
 * versions for a declared window"):
 *
 * <ul>
 *   <li>every fill has exactly one ledger transaction (txnId = f(tenant, TRADE:tradeId)) whose
 *       client lines match: cash = ∓ round(qty × price, currency scale, HALF_EVEN) − fee,
 *       securities = ± qty, exact;
 *   <li>every trading ledger transaction (postings with a role) has a fill;
 *   <li>every securities authority's last version in the window equals the Portfolio row's source
 *       version and quantity, or the row lags by less than the projection SLA.
 * </ul>
 *
 * Batches are written at every firing ({@link BatchTrigger}); breaks only at the closing firing
 * (watermark past end + allowed lateness). Break ids are functions of the window and the subject,
 * so a restart repeats them (create-once storage makes that a no-op).
 */
public final class ReconWindowFunction
        extends ProcessWindowFunction<ReconEvent, ReconBatch, String, TimeWindow> {

    private static final long serialVersionUID = 1L;

    private static final DateTimeFormatter BATCH_TIME =
            DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'").withZone(ZoneOffset.UTC);

    private final ReconConfig config;
    private final PositionLookup positions;

    private transient Counter batches;
    private transient Counter breaks;

    public ReconWindowFunction(ReconConfig config, PositionLookup positions) {
        this.config = config;
        this.positions = positions;
    }

    @Override
    public void open(OpenContext ctx) {
        positions.open();
        var g = getRuntimeContext().getMetricGroup().addGroup("recon");
        batches = g.counter("batches");
        breaks = g.counter("breaksEmitted");
    }

    @Override
    public void close() {
        positions.close();
    }

    public static String batchId(long windowStart, long windowMillis) {
        return "RECON-"
                + BATCH_TIME.format(Instant.ofEpochMilli(windowStart))
                + "-"
                + (windowMillis / 1000)
                + "s";
    }

    @Override
    public void process(
            String tenant, Context ctx, Iterable<ReconEvent> events, Collector<ReconBatch> out) {
        TimeWindow w = ctx.window();
        String batchId = batchId(w.getStart(), config.windowMillis());
        Map<String, ReconEvent> fills = new TreeMap<>();
        Map<String, List<ReconEvent>> txns = new TreeMap<>();
        Map<String, ReconEvent> lastAuthority = new TreeMap<>();
        Map<String, long[]> sources = new TreeMap<>(); // kind -> count, first, last
        Totals totals = new Totals();
        long n = 0;
        for (ReconEvent e : events) {
            n++;
            long[] s =
                    sources.computeIfAbsent(
                            e.kind.name(), k -> new long[] {0, Long.MAX_VALUE, Long.MIN_VALUE});
            s[0]++;
            s[1] = Math.min(s[1], e.eventTimeMillis);
            s[2] = Math.max(s[2], e.eventTimeMillis);
            switch (e.kind) {
                case FILL -> {
                    if (fills.putIfAbsent(e.tradeId, e) == null) {
                        totals.fill(e);
                    }
                }
                case POSTING -> {
                    List<ReconEvent> lines = txns.computeIfAbsent(e.txnId, k -> new ArrayList<>());
                    if (lines.stream().noneMatch(l -> l.line == e.line)) {
                        lines.add(e);
                        totals.posting(e);
                    }
                }
                case AUTHORITY -> {
                    String k = e.account + "/" + e.asset;
                    ReconEvent prev = lastAuthority.get(k);
                    if (prev == null || prev.version < e.version) {
                        lastAuthority.put(k, e);
                    }
                }
            }
        }
        totals.txns = txns.size();

        List<BreakRecord> found = new ArrayList<>();
        Map<String, String> fillTxn = new HashMap<>();
        for (ReconEvent f : fills.values()) {
            String txnId = LedgerIds.tradeTxnId(f.tenant, f.tradeId);
            fillTxn.put(txnId, f.tradeId);
            List<ReconEvent> lines = txns.get(txnId);
            if (lines == null) {
                found.add(
                        recon(
                                ReconReason.MISSING_LEDGER_TXN,
                                tenant,
                                batchId,
                                w,
                                "fill " + f.tradeId,
                                fillEvidence(f).put("expectedTxnId", txnId),
                                f.tradeId));
                continue;
            }
            Expected x = expected(f);
            BigDecimal cash = BigDecimal.ZERO;
            BigDecimal sec = BigDecimal.ZERO;
            for (ReconEvent l : lines) {
                if (!f.account.equals(l.account)) {
                    continue;
                }
                if ("CASH".equals(l.assetType) && f.currency.equals(l.asset)) {
                    cash = cash.add(new BigDecimal(l.amount));
                } else if ("SEC".equals(l.assetType) && f.symbol.equals(l.asset)) {
                    sec = sec.add(new BigDecimal(l.amount));
                }
            }
            if (cash.compareTo(x.cash) != 0 || sec.compareTo(x.securities) != 0) {
                found.add(
                        recon(
                                ReconReason.AMOUNT_MISMATCH,
                                tenant,
                                batchId,
                                w,
                                "fill " + f.tradeId,
                                fillEvidence(f)
                                        .put("txnId", txnId)
                                        .put("expectedClientCash", x.cash)
                                        .put("actualClientCash", cash)
                                        .put("expectedClientSecurities", x.securities)
                                        .put("actualClientSecurities", sec),
                                f.tradeId));
            }
        }
        for (Map.Entry<String, List<ReconEvent>> t : txns.entrySet()) {
            if (!fillTxn.containsKey(t.getKey())) {
                ReconEvent any = t.getValue().get(0);
                found.add(
                        recon(
                                ReconReason.ORPHAN_LEDGER_TXN,
                                tenant,
                                batchId,
                                w,
                                "txn " + t.getKey(),
                                Evidence.of()
                                        .put("txnId", t.getKey())
                                        .put("sourceId", any.sourceId)
                                        .put("lines", t.getValue().size()),
                                t.getKey()));
            }
        }
        int lagging = 0;
        long now = ctx.currentProcessingTime();
        for (ReconEvent a : lastAuthority.values()) {
            PositionView v = positions.read(tenant, a.account, a.asset);
            BigDecimal qty = new BigDecimal(a.posted);
            if (v != null && v.sourceVersion() >= a.version) {
                if (v.sourceVersion() == a.version && v.quantity().compareTo(qty) != 0) {
                    found.add(
                            recon(
                                    ReconReason.POSITION_MISMATCH,
                                    tenant,
                                    batchId,
                                    w,
                                    a.account + "/" + a.asset,
                                    positionEvidence(a, v).put("expectedQuantity", qty),
                                    a.account,
                                    a.asset,
                                    "V",
                                    a.version));
                }
                continue;
            }
            long lag = now - a.eventTimeMillis;
            if (lag >= config.projectionSlaMillis()) {
                found.add(
                        recon(
                                ReconReason.PROJECTION_LAG,
                                tenant,
                                batchId,
                                w,
                                a.account + "/" + a.asset,
                                positionEvidence(a, v)
                                        .put("lagMillis", lag)
                                        .put("slaMillis", config.projectionSlaMillis()),
                                a.account,
                                a.asset,
                                "V",
                                a.version));
            } else {
                lagging++;
            }
        }

        boolean closing =
                BatchTrigger.closing(w, ctx.currentWatermark(), config.allowedLatenessMillis());
        if (closing) {
            for (BreakRecord b : found) {
                breaks.inc();
                ctx.output(ReconState.BREAKS, b);
            }
        }
        ReconBatch batch = new ReconBatch();
        batch.tenant = tenant;
        batch.batchId = batchId;
        batch.date =
                Instant.ofEpochMilli(w.getStart()).atZone(ZoneOffset.UTC).toLocalDate().toString();
        batch.windowStartMillis = w.getStart();
        batch.windowEndMillis = w.getEnd();
        batch.allowedLatenessMillis = config.allowedLatenessMillis();
        Evidence manifest = Evidence.of();
        sources.forEach(
                (k, s) ->
                        manifest.put("source." + k + ".count", s[0])
                                .put("source." + k + ".first", Instant.ofEpochMilli(s[1]))
                                .put("source." + k + ".last", Instant.ofEpochMilli(s[2])));
        manifest.put("positions.checked", lastAuthority.size());
        manifest.put("positions.laggingWithinSla", lagging);
        StringBuilder versions = new StringBuilder();
        lastAuthority
                .values()
                .forEach(
                        a ->
                                versions.append(versions.length() == 0 ? "" : ";")
                                        .append(a.account)
                                        .append('/')
                                        .append(a.asset)
                                        .append('@')
                                        .append(a.version));
        manifest.put("positions.versions", versions);
        batch.manifest = manifest.json();
        batch.controlTotals = totals.json();
        batch.breakCount = found.size();
        batch.outcome = found.isEmpty() ? "CLEAN" : "BREAKS";
        batch.closed = closing;
        // monotone: more records, or the same records at the closing firing
        batch.revision = 2 * n + (closing ? 1 : 0);
        batches.inc();
        out.collect(batch);
    }

    /** The client's expected cash and securities movement for a fill (documented rounding). */
    record Expected(BigDecimal cash, BigDecimal securities) {}

    Expected expected(ReconEvent f) {
        BigDecimal qty = new BigDecimal(f.quantity);
        BigDecimal consideration =
                config.rounding()
                        .consideration(new BigDecimal(f.price), qty, f.currency)
                        .rounded()
                        .amount();
        BigDecimal fee = f.fee == null ? BigDecimal.ZERO : new BigDecimal(f.fee);
        boolean buy = OrderSide.BUY.name().equalsIgnoreCase(f.side);
        BigDecimal cash = (buy ? consideration.negate() : consideration).subtract(fee);
        return new Expected(cash, buy ? qty : qty.negate());
    }

    private BreakRecord recon(
            ReconReason reason,
            String tenant,
            String batchId,
            TimeWindow w,
            String subject,
            Evidence e,
            Object... idParts) {
        Object[] parts = new Object[idParts.length + 1];
        parts[0] = reason.name();
        System.arraycopy(idParts, 0, parts, 1, idParts.length);
        e.put("reason", reason.name())
                .put("windowStart", Instant.ofEpochMilli(w.getStart()))
                .put("windowEnd", Instant.ofEpochMilli(w.getEnd()));
        return new BreakRecord(
                tenant,
                batchId,
                BreakRecord.id(parts),
                reason.name(),
                BreakRecord.Origin.RECONCILIATION,
                w.maxTimestamp(),
                subject,
                e.json());
    }

    private static Evidence fillEvidence(ReconEvent f) {
        return Evidence.of()
                .put("tradeId", f.tradeId)
                .put("account", f.account)
                .put("symbol", f.symbol)
                .put("side", f.side)
                .put("quantity", f.quantity)
                .put("price", f.price)
                .put("currency", f.currency)
                .put("fee", f.fee);
    }

    private static Evidence positionEvidence(ReconEvent a, PositionView v) {
        return Evidence.of()
                .put("account", a.account)
                .put("symbol", a.asset)
                .put("authorityVersion", a.version)
                .put("authorityQuantity", a.posted)
                .put("viewVersion", v == null ? "none" : Long.toString(v.sourceVersion()))
                .put("viewQuantity", v == null ? "none" : v.quantity().toPlainString());
    }

    /** Exact control totals: counts and sums per currency. */
    static final class Totals {
        long fills;
        long txns;
        long postings;
        final Map<String, BigDecimal> notional = new TreeMap<>();
        final Map<String, BigDecimal> fees = new TreeMap<>();
        final Map<String, BigDecimal> debits = new TreeMap<>();
        final Map<String, BigDecimal> credits = new TreeMap<>();

        void fill(ReconEvent f) {
            fills++;
            notional.merge(
                    f.currency,
                    new BigDecimal(f.price).multiply(new BigDecimal(f.quantity)),
                    BigDecimal::add);
            if (f.fee != null) {
                fees.merge(f.currency, new BigDecimal(f.fee), BigDecimal::add);
            }
        }

        void posting(ReconEvent p) {
            postings++;
            if (!"CASH".equals(p.assetType)) {
                return;
            }
            BigDecimal a = new BigDecimal(p.amount);
            (a.signum() < 0 ? debits : credits).merge(p.asset, a, BigDecimal::add);
        }

        String json() {
            Evidence e =
                    Evidence.of()
                            .put("fills.count", fills)
                            .put("ledger.txns.count", txns)
                            .put("ledger.postings.count", postings);
            notional.forEach((c, v) -> e.put("fills.notional." + c, v));
            fees.forEach((c, v) -> e.put("fills.fees." + c, v));
            debits.forEach((c, v) -> e.put("ledger.cashDebits." + c, v));
            credits.forEach((c, v) -> e.put("ledger.cashCredits." + c, v));
            return e.json();
        }
    }
}
