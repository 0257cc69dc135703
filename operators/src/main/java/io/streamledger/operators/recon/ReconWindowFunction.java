package io.streamledger.operators.recon;

import io.streamledger.model.keys.AuthorityKey;
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
import org.apache.flink.streaming.api.functions.windowing.ProcessWindowFunction;
import org.apache.flink.streaming.api.windowing.windows.TimeWindow;
import org.apache.flink.util.Collector;

/**
 * Closes one tenant's event-time window (AP14/AP15; seed: "Reconciliation compares source
 * order/fill IDs, ledger posting IDs, balances, and projection versions for a declared window"):
 * reads the window's records, runs the fill ↔ ledger guards and hands a {@link ReconWindowResult}
 * on — the positions check needs the Portfolio rows, read by {@link PositionReads} (async I/O) and
 * judged with the batch plan by {@link ReconFinish}. No I/O here.
 *
 * <ul>
 *   <li>every fill has exactly one ledger transaction (txnId = f(tenant, TRADE:tradeId)) whose
 *       client lines match: cash = ∓ round(qty × price, currency scale, HALF_EVEN) − fee,
 *       securities = ± qty, exact;
 *   <li>every trading ledger transaction (postings with a role) has a fill;
 *   <li>(in {@link ReconFinish}) every securities authority's last version in the window equals the
 *       Portfolio row's source version and quantity, or the row lags by less than the projection
 *       SLA — for the accounts within the view's scope ({@link ReconConfig#viewScope()}).
 * </ul>
 *
 * Batches are written at every firing ({@link BatchTrigger}); breaks only at the closing firing
 * (watermark past end + allowed lateness). Break ids are functions of the window and the subject,
 * so a restart repeats them (create-once storage makes that a no-op).
 */
public final class ReconWindowFunction
        extends ProcessWindowFunction<ReconEvent, ReconWindowResult, String, TimeWindow> {

    private static final long serialVersionUID = 1L;

    private static final DateTimeFormatter BATCH_TIME =
            DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'").withZone(ZoneOffset.UTC);

    private final ReconConfig config;

    public ReconWindowFunction(ReconConfig config) {
        this.config = config;
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
            String tenant,
            Context ctx,
            Iterable<ReconEvent> events,
            Collector<ReconWindowResult> out) {
        TimeWindow w = ctx.window();
        out.collect(
                fire(
                        tenant,
                        w,
                        events,
                        BatchTrigger.closing(
                                w, ctx.currentWatermark(), config.allowedLatenessMillis()),
                        ctx.currentProcessingTime(),
                        config));
    }

    /**
     * One firing of tenant's window {@code w} over {@code events}: the streaming window and the
     * export reconciliation both call this, so both apply the very same guards.
     */
    public static ReconWindowResult fire(
            String tenant,
            TimeWindow w,
            Iterable<ReconEvent> events,
            boolean closing,
            long firedAtMillis,
            ReconConfig config) {
        WindowInputs in = WindowInputs.read(events);
        ReconWindowResult r = new ReconWindowResult();
        r.tenant = tenant;
        r.batchId = batchId(w.getStart(), config.windowMillis());
        r.windowStartMillis = w.getStart();
        r.windowEndMillis = w.getEnd();
        r.maxTimestampMillis = w.maxTimestamp();
        r.records = in.records;
        r.closing = closing;
        r.firedAtMillis = firedAtMillis;
        int k = in.sources.size();
        r.sourceKinds = new String[k];
        r.sourceCounts = new long[k];
        r.sourceFirstMillis = new long[k];
        r.sourceLastMillis = new long[k];
        int i = 0;
        for (Map.Entry<String, long[]> e : in.sources.entrySet()) {
            r.sourceKinds[i] = e.getKey();
            r.sourceCounts[i] = e.getValue()[0];
            r.sourceFirstMillis[i] = e.getValue()[1];
            r.sourceLastMillis[i] = e.getValue()[2];
            i++;
        }
        r.controlTotals = in.totals.json();
        List<BreakRecord> found = new ArrayList<>(ledgerGuards(tenant, r.batchId, w, in, config));
        for (OrderFillFinding f : in.orderFindings.values()) {
            found.add(
                    recon(
                            f.reason(),
                            tenant,
                            r.batchId,
                            w.getStart(),
                            w.getEnd(),
                            f.subject,
                            f.evidence(),
                            (Object[]) f.idParts));
        }
        r.ledgerBreaks = found.toArray(BreakRecord[]::new);
        r.orderFillBreaks = in.orderFindings.size();
        r.lateRecords = in.late.toArray(String[]::new);
        // the positions check compares only what the view holds (its scope): an authority of an
        // account outside it has no row, which is not projection lag
        r.authorities =
                in.lastAuthority.values().stream()
                        .filter(e -> config.viewScope().includes(e.authority().account()))
                        .toArray(ReconEvent[]::new);
        return r;
    }

    /** The window's records, deduplicated: fills by trade, postings by txn line, last authority. */
    static final class WindowInputs {
        final Map<String, ReconEvent> fills = new TreeMap<>();
        final Map<String, List<PostingFact>> txns = new TreeMap<>();
        final Map<String, ReconEvent> lastAuthority = new TreeMap<>();
        final Map<String, OrderFillFinding> orderFindings = new TreeMap<>();
        final java.util.TreeSet<String> late = new java.util.TreeSet<>();
        final Map<String, long[]> sources = new TreeMap<>(); // kind -> count, first, last
        final Totals totals = new Totals();
        long records;

        static WindowInputs read(Iterable<ReconEvent> events) {
            WindowInputs in = new WindowInputs();
            for (ReconEvent e : events) {
                in.records++;
                if (e.kind == ReconEvent.Kind.ORDER_FILL) {
                    in.orderFindings.putIfAbsent(e.finding().breakId(), e.finding());
                    continue; // a check's verdict, not a source record
                }
                if (e.kind == ReconEvent.Kind.LATE) {
                    in.late.add(e.lateSubject + "@" + Instant.ofEpochMilli(e.lateEventTimeMillis));
                    continue; // dead-lettered; listed by this revision
                }
                long[] s =
                        in.sources.computeIfAbsent(
                                e.kind.name(), k -> new long[] {0, Long.MAX_VALUE, Long.MIN_VALUE});
                s[0]++;
                s[1] = Math.min(s[1], e.eventTimeMillis);
                s[2] = Math.max(s[2], e.eventTimeMillis);
                switch (e.kind) {
                    case FILL -> {
                        FillFact f = e.fill();
                        if (in.fills.putIfAbsent(f.tradeId(), e) == null) {
                            in.totals.fill(f);
                        }
                    }
                    case POSTING -> {
                        PostingFact p = e.posting();
                        List<PostingFact> lines =
                                in.txns.computeIfAbsent(p.txnId(), k -> new ArrayList<>());
                        if (lines.stream().noneMatch(l -> l.line() == p.line())) {
                            lines.add(p);
                            in.totals.posting(p);
                        }
                    }
                    case AUTHORITY -> {
                        AuthorityFact a = e.authority();
                        String k = a.account() + "/" + a.asset();
                        ReconEvent prev = in.lastAuthority.get(k);
                        if (prev == null || prev.authority().version() < a.version()) {
                            in.lastAuthority.put(k, e);
                        }
                    }
                    case ORDER,
                            ORDER_FILL,
                            LATE -> {} // order versions feed the order <-> fill check
                }
            }
            in.totals.txns = in.txns.size();
            return in;
        }
    }

    /** Fill ↔ ledger guards: MISSING_LEDGER_TXN, AMOUNT_MISMATCH, ORPHAN_LEDGER_TXN. */
    private static List<BreakRecord> ledgerGuards(
            String tenant, String batchId, TimeWindow w, WindowInputs in, ReconConfig config) {
        List<BreakRecord> found = new ArrayList<>();
        Map<String, String> fillTxn = new HashMap<>();
        for (ReconEvent fe : in.fills.values()) {
            FillFact f = fe.fill();
            String txnId = LedgerIds.tradeTxnId(fe.tenant, f.tradeId());
            fillTxn.put(txnId, f.tradeId());
            List<PostingFact> lines = in.txns.get(txnId);
            if (lines == null) {
                found.add(
                        recon(
                                ReconReason.MISSING_LEDGER_TXN,
                                tenant,
                                batchId,
                                w.getStart(),
                                w.getEnd(),
                                "fill " + f.tradeId(),
                                fillEvidence(f).put("expectedTxnId", txnId),
                                f.tradeId()));
                continue;
            }
            Expected x = expectedMovement(f, config);
            BigDecimal cash = BigDecimal.ZERO;
            BigDecimal sec = BigDecimal.ZERO;
            for (PostingFact l : lines) {
                if (!f.account().equals(l.account())) {
                    continue;
                }
                if (l.assetType() == AuthorityKey.Kind.CASH && f.currency().equals(l.asset())) {
                    cash = cash.add(l.amount());
                } else if (l.assetType() == AuthorityKey.Kind.SEC && f.symbol().equals(l.asset())) {
                    sec = sec.add(l.amount());
                }
            }
            if (cash.compareTo(x.cash) != 0 || sec.compareTo(x.securities) != 0) {
                found.add(
                        recon(
                                ReconReason.AMOUNT_MISMATCH,
                                tenant,
                                batchId,
                                w.getStart(),
                                w.getEnd(),
                                "fill " + f.tradeId(),
                                fillEvidence(f)
                                        .put("txnId", txnId)
                                        .put("expectedClientCash", x.cash)
                                        .put("actualClientCash", cash)
                                        .put("expectedClientSecurities", x.securities)
                                        .put("actualClientSecurities", sec),
                                f.tradeId()));
            }
        }
        for (Map.Entry<String, List<PostingFact>> t : in.txns.entrySet()) {
            if (!fillTxn.containsKey(t.getKey())) {
                PostingFact any = t.getValue().get(0);
                found.add(
                        recon(
                                ReconReason.ORPHAN_LEDGER_TXN,
                                tenant,
                                batchId,
                                w.getStart(),
                                w.getEnd(),
                                "txn " + t.getKey(),
                                Evidence.of()
                                        .put("txnId", t.getKey())
                                        .put("sourceId", any.sourceId())
                                        .put("lines", t.getValue().size()),
                                t.getKey()));
            }
        }
        return found;
    }

    /** The client's expected cash and securities movement for a fill (documented rounding). */
    record Expected(BigDecimal cash, BigDecimal securities) {}

    Expected expected(FillFact f) {
        return expectedMovement(f, config);
    }

    static Expected expectedMovement(FillFact f, ReconConfig config) {
        BigDecimal qty = f.quantity();
        BigDecimal consideration =
                config.rounding().consideration(f.price(), qty, f.currency()).rounded().amount();
        BigDecimal fee = f.fee() == null ? BigDecimal.ZERO : f.fee();
        boolean buy = f.side() == OrderSide.BUY;
        BigDecimal cash = (buy ? consideration.negate() : consideration).subtract(fee);
        return new Expected(cash, buy ? qty : qty.negate());
    }

    static BreakRecord recon(
            ReconReason reason,
            String tenant,
            String batchId,
            long windowStart,
            long windowEnd,
            String subject,
            Evidence e,
            Object... idParts) {
        Object[] parts = new Object[idParts.length + 1];
        parts[0] = reason.name();
        System.arraycopy(idParts, 0, parts, 1, idParts.length);
        e.put("reason", reason.name())
                .put("windowStart", Instant.ofEpochMilli(windowStart))
                .put("windowEnd", Instant.ofEpochMilli(windowEnd));
        return new BreakRecord(
                tenant,
                batchId,
                BreakRecord.id(parts),
                reason.name(),
                BreakRecord.Origin.RECONCILIATION,
                windowEnd - 1, // the window's max timestamp
                subject,
                e.json());
    }

    private static Evidence fillEvidence(FillFact f) {
        return Evidence.of()
                .put("tradeId", f.tradeId())
                .put("account", f.account())
                .put("symbol", f.symbol())
                .put("side", f.side().name())
                .put("quantity", f.quantity())
                .put("price", f.price())
                .put("currency", f.currency())
                .put("fee", f.fee());
    }

    static Evidence positionEvidence(AuthorityFact a, PositionView v) {
        return Evidence.of()
                .put("account", a.account())
                .put("symbol", a.asset())
                .put("authorityVersion", a.version())
                .put("authorityQuantity", a.posted())
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

        void fill(FillFact f) {
            fills++;
            notional.merge(f.currency(), f.price().multiply(f.quantity()), BigDecimal::add);
            if (f.fee() != null) {
                fees.merge(f.currency(), f.fee(), BigDecimal::add);
            }
        }

        void posting(PostingFact p) {
            postings++;
            if (p.assetType() != AuthorityKey.Kind.CASH) {
                return;
            }
            BigDecimal a = p.amount();
            (a.signum() < 0 ? debits : credits).merge(p.asset(), a, BigDecimal::add);
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
