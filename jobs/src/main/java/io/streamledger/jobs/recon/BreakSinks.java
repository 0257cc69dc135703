package io.streamledger.jobs.recon;

import io.streamledger.jobs.config.JobOptions;
import io.streamledger.model.table.TableNaming;
import io.streamledger.model.table.Tables;
import io.streamledger.operators.gate.GapBreak;
import io.streamledger.operators.recon.BreakRecord;
import io.streamledger.sinks.versioned.VersionedDynamoDbSink;
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
        BreakRows rows = rows(conf);
        return VersionedDynamoDbSink.<GapBreak>builder()
                .elementConverter((g, ctx) -> rows.newBreak(GapBreaks.toBreak(g)))
                .clientConfig(JobOptions.dynamoDbClient(conf))
                .guard(BreakRows.GUARD)
                .maxTimeInBufferMS(conf.get(JobOptions.SINK_MAX_TIME_IN_BUFFER).toMillis())
                .maxRetries(conf.get(JobOptions.SINK_MAX_RETRIES))
                .build();
    }

    public static Sink<BreakRecord> dynamoDb(ReadableConfig conf) {
        BreakRows rows = rows(conf);
        return VersionedDynamoDbSink.<BreakRecord>builder()
                .elementConverter((b, ctx) -> rows.newBreak(b))
                .clientConfig(JobOptions.dynamoDbClient(conf))
                .guard(BreakRows.GUARD)
                .maxBatchSize(conf.get(JobOptions.SINK_MAX_BATCH))
                .maxInFlightRequests(conf.get(JobOptions.SINK_MAX_IN_FLIGHT))
                .maxTimeInBufferMS(conf.get(JobOptions.SINK_MAX_TIME_IN_BUFFER).toMillis())
                .maxRetries(conf.get(JobOptions.SINK_MAX_RETRIES))
                .build();
    }
}
