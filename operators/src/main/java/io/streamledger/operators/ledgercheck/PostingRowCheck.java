package io.streamledger.operators.ledgercheck;

import io.streamledger.model.change.Operation;
import io.streamledger.operators.recon.BreakRecord;
import io.streamledger.operators.recon.Evidence;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.streaming.api.functions.ProcessFunction;
import org.apache.flink.util.Collector;

/**
 * Per-row ledger checks that need no state (CS11 immutability, AP10/AP11 monthly admission limit):
 * any MODIFY or REMOVE of a POST# item is a break; a posting whose account-month sequence, or a
 * month counter whose count, exceeds the monthly limit is a break (one id per account-month).
 *
 * <p>Guard clauses, in order: posting modified → posting removed → posting sequence over limit →
 * counter over limit.
 */
public final class PostingRowCheck extends ProcessFunction<LedgerFact, BreakRecord> {

    private static final long serialVersionUID = 1L;

    private final LedgerCheckConfig config;
    private transient CheckMetrics metrics;

    public PostingRowCheck(LedgerCheckConfig config) {
        this.config = config;
    }

    @Override
    public void open(OpenContext ctx) {
        metrics = new CheckMetrics(getRuntimeContext().getMetricGroup());
    }

    @Override
    public void processElement(LedgerFact f, Context ctx, Collector<BreakRecord> out) {
        BreakRecord b = check(f, config);
        if (f.kind != FactKind.AUTHORITY) {
            metrics.evaluated();
        }
        if (b != null) {
            metrics.broke(LedgerCheckReason.valueOf(b.getReason()));
            out.collect(b);
        }
    }

    /** The ordered guard clauses; null when the row is fine. */
    static BreakRecord check(LedgerFact f, LedgerCheckConfig config) {
        if (f.kind == FactKind.POSTING && f.operation == Operation.MODIFY) {
            return LedgerBreaks.of(
                    LedgerCheckReason.POSTING_MODIFIED,
                    f.tenant,
                    f.eventTimeMillis,
                    f.pk + " / " + f.sk,
                    Evidence.of()
                            .put("pk", f.pk)
                            .put("sk", f.sk)
                            .put("txnId", f.txnId)
                            .put("line", f.line)
                            .put("amountBefore", f.oldAmount)
                            .put("amountAfter", f.amount)
                            .put("changeEventId", f.eventId),
                    f.tenant,
                    f.txnId,
                    f.line,
                    shortHash(f.eventId));
        }
        if (f.kind == FactKind.POSTING && f.operation == Operation.REMOVE) {
            return LedgerBreaks.of(
                    LedgerCheckReason.POSTING_REMOVED,
                    f.tenant,
                    f.eventTimeMillis,
                    f.pk + " / " + f.sk,
                    Evidence.of()
                            .put("pk", f.pk)
                            .put("sk", f.sk)
                            .put("txnId", f.txnId)
                            .put("line", f.line)
                            .put("amountBefore", f.amount)
                            .put("changeEventId", f.eventId),
                    f.tenant,
                    f.txnId,
                    f.line,
                    shortHash(f.eventId));
        }
        if (f.kind == FactKind.POSTING && f.sequence > config.monthlyPostingLimit()) {
            return monthLimit(f, "posting sequence", f.sequence, config);
        }
        if (f.kind == FactKind.MONTH_COUNTER
                && f.tenant != null
                && f.monthCount > config.monthlyPostingLimit()) {
            return monthLimit(f, "month counter", f.monthCount, config);
        }
        return null;
    }

    private static BreakRecord monthLimit(
            LedgerFact f, String basis, long count, LedgerCheckConfig config) {
        // the batch day is the month's first day: posting and counter agree on one row
        long monthStart =
                java.time.YearMonth.parse(f.month)
                        .atDay(1)
                        .atStartOfDay(java.time.ZoneOffset.UTC)
                        .toInstant()
                        .toEpochMilli();
        return LedgerBreaks.of(
                LedgerCheckReason.MONTH_LIMIT_EXCEEDED,
                f.tenant,
                monthStart,
                f.tenant + "/" + f.account + "/" + f.month,
                Evidence.of()
                        .put("account", f.account)
                        .put("month", f.month)
                        .put("basis", basis)
                        .put("count", count)
                        .put("limit", config.monthlyPostingLimit())
                        .put("pk", f.pk)
                        .put("sk", f.sk)
                        .put("changeEventTime", java.time.Instant.ofEpochMilli(f.eventTimeMillis)),
                f.tenant,
                f.account,
                f.month);
    }

    /** 12 hex chars of SHA-256: a '#'-free, bounded id part for an arbitrary change id. */
    static String shortHash(String s) {
        try {
            byte[] d =
                    MessageDigest.getInstance("SHA-256")
                            .digest(String.valueOf(s).getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(d, 0, 6);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required of every JVM", e);
        }
    }
}
