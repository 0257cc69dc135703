package io.streamledger.jobs.recon;

import io.streamledger.jobs.config.JobOptions;
import io.streamledger.model.table.TableNaming;
import io.streamledger.model.table.Tables;
import io.streamledger.operators.gate.GapBreak;
import io.streamledger.operators.recon.BreakRecord;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.configuration.ReadableConfig;

/**
 * The AP15 break sink: the version-guarded sink in CREATE_ONCE mode writing {@link BreakRows}, so a
 * replayed break (same deterministic id) is a counted no-op instead of a duplicate.
 */
public final class BreakSinks {

    private BreakSinks() {}

    public static BreakRows rows(ReadableConfig conf) {
        return new BreakRows(
                new TableNaming(conf.get(JobOptions.TABLE_PREFIX))
                        .physicalName(Tables.RECONCILIATION),
                conf.get(ReconOptions.BREAK_OWNER),
                conf.get(ReconOptions.BREAK_DUE_AFTER));
    }

    /** The gate's overdue-gap breaks (CS07) into the same table and due queue. */
    public static Sink<GapBreak> gapBreaks(ReadableConfig conf) {
        return gapBreaks(conf, GapBreaks.REASON);
    }

    /** The same sink for a gate whose breaks carry {@code reason}. */
    public static Sink<GapBreak> gapBreaks(ReadableConfig conf, String reason) {
        BreakRows rows = rows(conf);
        return JobOptions.<GapBreak>versionedSink(
                        conf,
                        BreakRows.GUARD,
                        (g, ctx) -> rows.newBreak(GapBreaks.toBreak(g, reason)))
                .accessPattern("AP15")
                .build();
    }

    public static Sink<BreakRecord> dynamoDb(ReadableConfig conf) {
        BreakRows rows = rows(conf);
        return JobOptions.withFlushLimits(
                        JobOptions.<BreakRecord>versionedSink(
                                conf, BreakRows.GUARD, (b, ctx) -> rows.newBreak(b)),
                        conf)
                .accessPattern("AP15")
                .build();
    }
}
