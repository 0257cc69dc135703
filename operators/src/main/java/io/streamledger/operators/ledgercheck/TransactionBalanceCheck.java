package io.streamledger.operators.ledgercheck;

import io.streamledger.model.change.Operation;
import io.streamledger.operators.recon.BreakRecord;
import io.streamledger.operators.recon.Evidence;
import java.math.BigDecimal;
import java.util.Map;
import java.util.TreeMap;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.MapState;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.streaming.api.functions.KeyedProcessFunction;
import org.apache.flink.util.Collector;

/**
 * CS11/AP10 "balanced per currency": keyed by tenant/txnId, collects a transaction's posting lines
 * (any order, any shard) and, once all lines declared by {@code lineCount} arrived, checks that
 * every currency/asset sums to zero. A transaction still incomplete once the watermark passed its
 * time plus the txn SLA ({@link EventDeadline}) is a break; without a declared line count the lines
 * seen then are checked instead. Every decided transaction hands its per account+asset totals to
 * the authority check ({@link LedgerCheckState#TXN_TOTALS}), so control totals compare complete
 * transactions.
 *
 * <p>Guard clauses, in order: not an inserted posting (fail loudly: wiring bug) → already decided
 * (late duplicate) → duplicate line → conflicting line → conflicting line count → line limit →
 * complete? → balanced?
 */
public final class TransactionBalanceCheck
        extends KeyedProcessFunction<String, LedgerFact, BreakRecord> {

    private static final long serialVersionUID = 1L;

    private final LedgerCheckConfig config;

    private transient MapState<Integer, TxnLine> lines;
    private transient MapState<Integer, String> legacyLines;
    private transient ValueState<TxnProgress> progress;
    private transient CheckMetrics metrics;

    public TransactionBalanceCheck(LedgerCheckConfig config) {
        this.config = config;
    }

    @Override
    public void open(OpenContext ctx) {
        lines = getRuntimeContext().getMapState(LedgerCheckState.TXN_LINES);
        legacyLines = getRuntimeContext().getMapState(LedgerCheckState.LEGACY_TXN_LINES);
        progress = getRuntimeContext().getState(LedgerCheckState.TXN_STATE);
        metrics = new CheckMetrics(getRuntimeContext().getMetricGroup());
    }

    CheckMetrics metrics() {
        return metrics;
    }

    @Override
    public void processElement(LedgerFact f, Context ctx, Collector<BreakRecord> out)
            throws Exception {
        if (f.kind != FactKind.POSTING || f.operation != Operation.INSERT) {
            throw new IllegalStateException("TransactionBalanceCheck was routed " + f);
        }
        migrateLegacyLines();
        TxnProgress p = progress.value();
        if (p != null && p.decided) {
            metrics.duplicate();
            return;
        }
        if (p == null) {
            p = new TxnProgress();
            p.tenant = f.tenant;
            p.txnId = f.txnId;
            p.firstEventTimeMillis = f.eventTimeMillis;
            p.timerAt =
                    EventDeadline.of(
                            ctx.timestamp(),
                            f.eventTimeMillis,
                            ctx.timerService(),
                            config.txnSlaMillis());
            ctx.timerService().registerEventTimeTimer(p.timerAt);
        }
        TxnLine value = TxnLine.of(f);
        TxnLine seen = lines.get(f.line);
        if (seen != null) {
            if (seen.sameAs(value)) {
                metrics.duplicate();
                progress.update(p);
                return;
            }
            decide(
                    p,
                    ctx,
                    out,
                    LedgerBreaks.of(
                            LedgerCheckReason.TXN_LINE_CONFLICT,
                            f.tenant,
                            p.firstEventTimeMillis,
                            f.txnId,
                            Evidence.of()
                                    .put("txnId", f.txnId)
                                    .put("line", f.line)
                                    .put("first", seen.toString())
                                    .put("second", value.toString()),
                            f.tenant,
                            f.txnId,
                            f.line));
            return;
        }
        if (f.lineCount > 0 && p.lineCount > 0 && f.lineCount != p.lineCount) {
            decide(
                    p,
                    ctx,
                    out,
                    LedgerBreaks.of(
                            LedgerCheckReason.TXN_LINE_CONFLICT,
                            f.tenant,
                            p.firstEventTimeMillis,
                            f.txnId,
                            Evidence.of()
                                    .put("txnId", f.txnId)
                                    .put("line", f.line)
                                    .put("lineCountFirst", p.lineCount)
                                    .put("lineCountSecond", f.lineCount),
                            f.tenant,
                            f.txnId,
                            "count"));
            return;
        }
        if (f.lineCount > 0) {
            p.lineCount = f.lineCount;
        }
        lines.put(f.line, value);
        int seenCount = count();
        if (seenCount > config.maxLinesPerTxn()) {
            decide(
                    p,
                    ctx,
                    out,
                    LedgerBreaks.of(
                            LedgerCheckReason.TXN_LINE_LIMIT,
                            f.tenant,
                            p.firstEventTimeMillis,
                            f.txnId,
                            Evidence.of()
                                    .put("txnId", f.txnId)
                                    .put("linesSeen", seenCount)
                                    .put("limit", config.maxLinesPerTxn()),
                            f.tenant,
                            f.txnId));
            return;
        }
        if (p.lineCount > 0 && seenCount >= p.lineCount) {
            decide(p, ctx, out, balance(p, "lineCount reached"));
            return;
        }
        progress.update(p);
    }

    @Override
    public void onTimer(long ts, OnTimerContext ctx, Collector<BreakRecord> out) throws Exception {
        migrateLegacyLines();
        TxnProgress p = progress.value();
        if (p == null || ts != p.timerAt) {
            return; // a timer of an earlier, already-cleared life of this key
        }
        if (p.decided) {
            lines.clear();
            progress.clear();
            return;
        }
        if (p.lineCount > 0) {
            decide(
                    p,
                    ctx,
                    out,
                    LedgerBreaks.of(
                            LedgerCheckReason.TXN_INCOMPLETE,
                            p.tenant,
                            p.firstEventTimeMillis,
                            p.txnId,
                            Evidence.of()
                                    .put("txnId", p.txnId)
                                    .put("lineCount", p.lineCount)
                                    .put("linesSeen", count())
                                    .put("lines", describe())
                                    .put("slaMillis", config.txnSlaMillis()),
                            p.tenant,
                            p.txnId));
        } else {
            decide(p, ctx, out, balance(p, "no lineCount; lines seen at SLA"));
        }
    }

    /** Null when balanced. */
    private BreakRecord balance(TxnProgress p, String basis) throws Exception {
        metrics.evaluated();
        Map<String, BigDecimal> sums = new TreeMap<>();
        for (TxnLine l : lines.values()) {
            sums.merge(l.assetKey(), l.amount(), BigDecimal::add);
        }
        boolean balanced = sums.values().stream().allMatch(s -> s.signum() == 0);
        if (balanced) {
            return null;
        }
        Evidence e =
                Evidence.of()
                        .put("txnId", p.txnId)
                        .put("basis", basis)
                        .put("lineCount", p.lineCount)
                        .put("lines", describe());
        sums.forEach((asset, sum) -> e.put("sum." + asset, sum));
        return LedgerBreaks.of(
                LedgerCheckReason.TXN_UNBALANCED,
                p.tenant,
                p.firstEventTimeMillis,
                p.txnId,
                e,
                p.tenant,
                p.txnId);
    }

    /**
     * Emits the break (if any) and the transaction's totals, forgets the lines and keeps a marker
     * to drop late duplicates.
     */
    private void decide(TxnProgress p, Context ctx, Collector<BreakRecord> out, BreakRecord b)
            throws Exception {
        if (b != null) {
            metrics.broke(LedgerCheckReason.valueOf(b.getReason()));
            out.collect(b);
        }
        emitTotals(p, ctx);
        lines.clear();
        ctx.timerService().deleteEventTimeTimer(p.timerAt);
        ctx.timerService().deleteProcessingTimeTimer(p.timerAt);
        p.decided = true;
        p.timerAt = ctx.timerService().currentProcessingTime() + config.doneRetentionMillis();
        ctx.timerService().registerProcessingTimeTimer(p.timerAt);
        progress.update(p);
    }

    /** One total per account+asset of the lines seen (lines restored without account: none). */
    private void emitTotals(TxnProgress p, Context ctx) throws Exception {
        Map<String, BigDecimal> sums = new TreeMap<>();
        Map<String, StringBuilder> numbers = new TreeMap<>();
        Map<String, TxnLine> firstLine = new TreeMap<>();
        int seen = 0;
        for (Map.Entry<Integer, TxnLine> e : toMap().entrySet()) {
            seen++;
            TxnLine l = e.getValue();
            if (l.account() == null) {
                continue;
            }
            String k = l.account() + "/" + l.assetType() + "/" + l.asset();
            sums.merge(k, l.amount(), BigDecimal::add);
            numbers.computeIfAbsent(k, x -> new StringBuilder()).append(e.getKey()).append(',');
            firstLine.putIfAbsent(k, l);
        }
        boolean complete = p.lineCount > 0 && seen >= p.lineCount;
        for (Map.Entry<String, BigDecimal> e : sums.entrySet()) {
            TxnLine l = firstLine.get(e.getKey());
            ctx.output(
                    LedgerCheckState.TXN_TOTALS,
                    LedgerFact.total(
                            p.tenant,
                            p.txnId,
                            l.account(),
                            l.assetType(),
                            l.asset(),
                            e.getValue().toPlainString(),
                            numbers.get(e.getKey()).toString(),
                            complete,
                            p.firstEventTimeMillis));
        }
    }

    private Map<Integer, TxnLine> toMap() throws Exception {
        Map<Integer, TxnLine> m = new TreeMap<>();
        for (Map.Entry<Integer, TxnLine> e : lines.entries()) {
            m.put(e.getKey(), e.getValue());
        }
        return m;
    }

    private int count() throws Exception {
        int n = 0;
        for (Integer ignored : lines.keys()) {
            n++;
        }
        return n;
    }

    private String describe() throws Exception {
        Map<Integer, TxnLine> sorted = toMap();
        StringBuilder b = new StringBuilder();
        sorted.forEach(
                (k, v) -> b.append(b.length() == 0 ? "" : ";").append(k).append('=').append(v));
        return b.toString();
    }

    /**
     * Moves lines restored from the string-typed state of older savepoints into the typed state.
     */
    private void migrateLegacyLines() throws Exception {
        if (legacyLines.isEmpty()) {
            return;
        }
        for (Map.Entry<Integer, String> e : legacyLines.entries()) {
            lines.put(e.getKey(), TxnLine.fromLegacy(e.getValue()));
        }
        legacyLines.clear();
    }
}
