package io.streamledger.operators.ledgercheck;

import io.streamledger.model.change.Operation;
import io.streamledger.operators.recon.BreakRecord;
import io.streamledger.operators.recon.Evidence;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.MapState;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.streaming.api.functions.KeyedProcessFunction;
import org.apache.flink.util.Collector;

/**
 * AP12 authority checks, keyed by tenant/account/assetType/asset, over authority changes and the
 * balance check's totals of decided transactions on that account+asset (CS11):
 *
 * <ul>
 *   <li>versions are continuous: each change moves old → new by exactly +1, and across changes no
 *       version is missing (out-of-order arrivals park, bounded; a missing version whose successor
 *       arrived breaks once the watermark passed the successor's time plus the gap SLA);
 *   <li>control total: each version's posted delta (new − old image) equals the sum of the postings
 *       of the transaction it names ({@code lastTxnId}) on this account+asset; decided as soon as
 *       the version and the decided transaction's total both arrived (any order), and a side still
 *       alone once the watermark passed its time plus the control SLA ({@link EventDeadline}). With
 *       continuous versions and a first version from zero this is "posted == running sum of
 *       postings at every version";
 *   <li>available == posted − reserved, and not negative unless the account is overdraft-exempt.
 * </ul>
 *
 * <p>Guard clauses per authority change, in order: removed → available mismatch → negative
 * available → version skip → duplicate/stale (stop) → gap (park) → control claim.
 */
public final class AuthorityControlCheck
        extends KeyedProcessFunction<String, LedgerFact, BreakRecord> {

    private static final long serialVersionUID = 1L;

    private final LedgerCheckConfig config;

    private transient ValueState<Long> lastVersion;
    private transient MapState<Long, Long> parked;
    private transient ValueState<Long> gapDeadline;
    private transient ValueState<Long> gapSince;
    private transient MapState<String, TxnControl> control;
    private transient CheckMetrics metrics;

    public AuthorityControlCheck(LedgerCheckConfig config) {
        this.config = config;
    }

    @Override
    public void open(OpenContext ctx) {
        lastVersion = getRuntimeContext().getState(LedgerCheckState.LAST_VERSION);
        parked = getRuntimeContext().getMapState(LedgerCheckState.PARKED);
        gapDeadline = getRuntimeContext().getState(LedgerCheckState.GAP_DEADLINE);
        gapSince = getRuntimeContext().getState(LedgerCheckState.GAP_SINCE);
        control = getRuntimeContext().getMapState(LedgerCheckState.CONTROL);
        metrics = new CheckMetrics(getRuntimeContext().getMetricGroup());
    }

    CheckMetrics metrics() {
        return metrics;
    }

    @Override
    public void processElement(LedgerFact f, Context ctx, Collector<BreakRecord> out)
            throws Exception {
        if (f.kind == FactKind.TXN_TOTAL) {
            total(f, ctx, out);
        } else if (f.kind == FactKind.AUTHORITY) {
            authority(f, ctx, out);
        } else {
            throw new IllegalStateException("AuthorityControlCheck was routed " + f);
        }
    }

    /** The postings side of the control total: the decided transaction's sum on this key. */
    private void total(LedgerFact f, Context ctx, Collector<BreakRecord> out) throws Exception {
        TxnControl c = controlFor(f.txnId, f.eventTimeMillis, ctx);
        if (c.totalSeen) {
            metrics.duplicate();
            return;
        }
        c.totalSeen = true;
        c.complete = f.complete;
        c.lines = f.lines;
        c.postingSum = f.amount;
        settle(f.txnId, c, ctx, out);
    }

    /** Decides at once when both sides are in, else keeps the pair until its deadline. */
    private void settle(String txn, TxnControl c, Context ctx, Collector<BreakRecord> out)
            throws Exception {
        if (c.totalSeen && c.authorityDelta != null) {
            decideControl(ctx.getCurrentKey(), txn, c, out);
            control.remove(txn);
        } else {
            control.put(txn, c);
        }
    }

    private void authority(LedgerFact f, Context ctx, Collector<BreakRecord> out) throws Exception {
        String key = f.authorityKey();
        if (f.operation == Operation.REMOVE) {
            emit(
                    out,
                    LedgerBreaks.of(
                            LedgerCheckReason.AUTHORITY_REMOVED,
                            f.tenant,
                            f.eventTimeMillis,
                            key,
                            Evidence.of()
                                    .put("pk", f.pk)
                                    .put("sk", f.sk)
                                    .put("lastVersion", f.version),
                            key,
                            f.version));
            return;
        }
        metrics.evaluated();
        BigDecimal posted = new BigDecimal(f.posted);
        BigDecimal reserved = new BigDecimal(f.reserved);
        BigDecimal pending = f.pending == null ? BigDecimal.ZERO : new BigDecimal(f.pending);
        BigDecimal expectedAvailable = posted.add(pending).subtract(reserved);
        BigDecimal available = f.available == null ? null : new BigDecimal(f.available);
        if (available == null || available.compareTo(expectedAvailable) != 0) {
            emit(
                    out,
                    LedgerBreaks.of(
                            LedgerCheckReason.AVAILABLE_MISMATCH,
                            f.tenant,
                            f.eventTimeMillis,
                            key,
                            authorityEvidence(f)
                                    .put("expectedAvailable", expectedAvailable)
                                    .put("actualAvailable", available),
                            key,
                            "V",
                            f.version));
        }
        BigDecimal effective = available == null ? expectedAvailable : available;
        if (effective.signum() < 0 && !config.overdraftExempt(f.account)) {
            emit(
                    out,
                    LedgerBreaks.of(
                            LedgerCheckReason.NEGATIVE_AVAILABLE,
                            f.tenant,
                            f.eventTimeMillis,
                            key,
                            authorityEvidence(f).put("policy", "no overdraft"),
                            key,
                            "V",
                            f.version));
        }
        long from = f.oldVersion >= 0 ? f.oldVersion : f.version - 1;
        if (f.version != from + 1) {
            emit(
                    out,
                    LedgerBreaks.of(
                            LedgerCheckReason.AUTHORITY_VERSION_SKIP,
                            f.tenant,
                            f.eventTimeMillis,
                            key,
                            authorityEvidence(f)
                                    .put("expectedVersion", from + 1)
                                    .put("oldVersion", from),
                            key,
                            "V",
                            from,
                            f.version));
        }
        Long last = lastVersion.value();
        if (last != null && (f.version <= last || parked.contains(from))) {
            metrics.duplicate();
            return;
        }
        if (last == null || from <= last) {
            lastVersion.update(f.version);
            drainParked();
            Long deadline = gapDeadline.value();
            if (deadline != null && parked.isEmpty()) {
                deleteTimer(ctx, deadline);
                gapDeadline.clear();
                gapSince.clear();
            }
        } else {
            parked.put(from, f.version);
            if (gapDeadline.value() == null) {
                long at =
                        EventDeadline.of(
                                ctx.timestamp(),
                                f.eventTimeMillis,
                                ctx.timerService(),
                                config.gapSlaMillis());
                gapDeadline.update(at);
                gapSince.update(f.eventTimeMillis);
                ctx.timerService().registerEventTimeTimer(at);
            }
            if (size(parked) > config.maxParkedVersions()) {
                closeGap(f.tenant, key, f.eventTimeMillis, "parked limit", ctx, out);
            }
        }
        claim(f, ctx, out);
    }

    /** The authority side of the control total: posted delta of this version for its txn. */
    private void claim(LedgerFact f, Context ctx, Collector<BreakRecord> out) throws Exception {
        if (f.oldPosted == null || f.lastTxnId == null) {
            return; // no old image or no txn named: nothing to compare (counted as evaluated only)
        }
        BigDecimal delta = new BigDecimal(f.posted).subtract(new BigDecimal(f.oldPosted));
        TxnControl c = controlFor(f.lastTxnId, f.eventTimeMillis, ctx);
        c.authorityDelta =
                (c.authorityDelta == null ? delta : new BigDecimal(c.authorityDelta).add(delta))
                        .toPlainString();
        c.versions = c.versions.isEmpty() ? "" + f.version : c.versions + "," + f.version;
        settle(f.lastTxnId, c, ctx, out);
    }

    private TxnControl controlFor(String txnId, long eventTime, Context ctx) throws Exception {
        TxnControl c = control.get(txnId);
        if (c == null) {
            c = new TxnControl();
            c.firstEventTimeMillis = eventTime;
            c.deadline =
                    EventDeadline.of(
                            ctx.timestamp(),
                            eventTime,
                            ctx.timerService(),
                            config.controlSlaMillis());
            ctx.timerService().registerEventTimeTimer(c.deadline);
        }
        return c;
    }

    @Override
    public void onTimer(long ts, OnTimerContext ctx, Collector<BreakRecord> out) throws Exception {
        String key = ctx.getCurrentKey();
        Long gap = gapDeadline.value();
        if (gap != null && gap <= ts) {
            Long since = gapSince.value();
            closeGap(tenantOf(key), key, since == null ? ts : since, "gap SLA", ctx, out);
        }
        List<String> due = new ArrayList<>();
        for (Map.Entry<String, TxnControl> e : control.entries()) {
            if (e.getValue().deadline <= ts) {
                due.add(e.getKey());
            }
        }
        for (String txn : due) {
            decideControl(key, txn, control.get(txn), out);
            control.remove(txn);
        }
    }

    private void decideControl(String key, String txn, TxnControl c, Collector<BreakRecord> out) {
        metrics.evaluated();
        BigDecimal sum = new BigDecimal(c.postingSum);
        String tenant = tenantOf(key);
        if (c.authorityDelta == null) {
            if (sum.signum() != 0) {
                emit(
                        out,
                        LedgerBreaks.of(
                                LedgerCheckReason.POSTING_WITHOUT_AUTHORITY,
                                tenant,
                                c.firstEventTimeMillis,
                                key,
                                Evidence.of()
                                        .put("authority", key)
                                        .put("txnId", txn)
                                        .put("postingSum", sum)
                                        .put("lines", c.lines)
                                        .put("txnComplete", c.complete)
                                        .put("slaMillis", config.controlSlaMillis()),
                                key,
                                txn));
            }
            return;
        }
        BigDecimal delta = new BigDecimal(c.authorityDelta);
        if (delta.compareTo(sum) != 0) {
            emit(
                    out,
                    LedgerBreaks.of(
                            LedgerCheckReason.CONTROL_TOTAL_MISMATCH,
                            tenant,
                            c.firstEventTimeMillis,
                            key,
                            Evidence.of()
                                    .put("authority", key)
                                    .put("txnId", txn)
                                    .put("versions", c.versions)
                                    .put("expectedPostedDelta", sum)
                                    .put("actualPostedDelta", delta)
                                    .put("lines", c.lines)
                                    .put("txnComplete", c.complete)
                                    .put("postingsSeen", c.totalSeen),
                            key,
                            txn));
        }
    }

    /** Declares the versions between the cursor and the lowest parked change missing. */
    private void closeGap(
            String tenant,
            String key,
            long eventTime,
            String basis,
            Context ctx,
            Collector<BreakRecord> out)
            throws Exception {
        Long last = lastVersion.value();
        long lowest = Long.MAX_VALUE;
        for (Long from : parked.keys()) {
            lowest = Math.min(lowest, from);
        }
        if (lowest != Long.MAX_VALUE) {
            long missingFrom = last == null ? 1 : last + 1;
            emit(
                    out,
                    LedgerBreaks.of(
                            LedgerCheckReason.AUTHORITY_VERSION_GAP,
                            tenant,
                            eventTime,
                            key,
                            Evidence.of()
                                    .put("authority", key)
                                    .put("missingFromVersion", missingFrom)
                                    .put("missingToVersion", lowest)
                                    .put("parked", size(parked))
                                    .put("basis", basis),
                            key,
                            "V",
                            missingFrom));
            lastVersion.update(parked.get(lowest));
            parked.remove(lowest);
            drainParked();
        }
        Long deadline = gapDeadline.value();
        if (deadline != null) {
            deleteTimer(ctx, deadline);
            gapDeadline.clear();
            gapSince.clear();
        }
        if (!parked.isEmpty()) {
            long at =
                    EventDeadline.of(
                            ctx.timestamp(), eventTime, ctx.timerService(), config.gapSlaMillis());
            gapDeadline.update(at);
            gapSince.update(eventTime);
            ctx.timerService().registerEventTimeTimer(at);
        }
    }

    /** Deadlines are event time; one restored from an older savepoint is processing time. */
    private static void deleteTimer(Context ctx, long at) {
        ctx.timerService().deleteEventTimeTimer(at);
        ctx.timerService().deleteProcessingTimeTimer(at);
    }

    private void drainParked() throws Exception {
        Long last = lastVersion.value();
        Long next;
        while (last != null && (next = parked.get(last)) != null) {
            parked.remove(last);
            last = next;
        }
        lastVersion.update(last);
    }

    private void emit(Collector<BreakRecord> out, BreakRecord b) {
        metrics.broke(LedgerCheckReason.valueOf(b.getReason()));
        out.collect(b);
    }

    private static Evidence authorityEvidence(LedgerFact f) {
        return Evidence.of()
                .put("authority", f.authorityKey())
                .put("version", f.version)
                .put("posted", f.posted)
                .put("reserved", f.reserved)
                .put("pending", f.pending)
                .put("available", f.available)
                .put("lastTxnId", f.lastTxnId);
    }

    private static String tenantOf(String key) {
        return key.substring(0, key.indexOf('/'));
    }

    private static int size(MapState<Long, Long> m) throws Exception {
        int n = 0;
        for (Long ignored : m.keys()) {
            n++;
        }
        return n;
    }
}
