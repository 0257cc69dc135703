package io.streamledger.jobs.projection;

import io.streamledger.jobs.config.JobOptions;
import io.streamledger.model.table.TableNaming;
import io.streamledger.model.table.Tables;
import io.streamledger.operators.gate.DeadLetter;
import io.streamledger.operators.gate.GapBreak;
import io.streamledger.operators.projection.ProjectionUpdate;
import io.streamledger.sinks.client.DynamoDbClientConfig;
import io.streamledger.sinks.versioned.VersionedDynamoDbSink;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.streaming.api.functions.sink.v2.DiscardingSink;

/**
 * Production sinks of the projection job: the version-guarded DynamoDB sink for view and checkpoint
 * rows (AP07/AP13, CS06); gap breaks go to the AP15 break rows (create-once); dead letters are
 * logged by {@link ProjectionJob#main} until the reconciliation table (AP15) exists.
 */
public final class DynamoDbProjectionSinks implements ProjectionSinks {

    private static final long serialVersionUID = 1L;

    private final DynamoDbClientConfig client;
    private final PortfolioRows rows;
    private final int maxBatch;
    private final int maxInFlight;
    private final long maxTimeInBufferMs;
    private final int maxRetries;
    private final Sink<GapBreak> gapBreakSink;

    public DynamoDbProjectionSinks(ReadableConfig conf) {
        this.client = JobOptions.dynamoDbClient(conf);
        TableNaming naming = new TableNaming(conf.get(JobOptions.TABLE_PREFIX));
        this.rows =
                new PortfolioRows(
                        naming.physicalName(
                                Tables.PORTFOLIO, conf.get(JobOptions.PORTFOLIO_NAMESPACE_VERSION)),
                        naming.physicalName(Tables.PROJECTION),
                        conf.get(JobOptions.PROJECTION_NAME));
        this.maxBatch = conf.get(JobOptions.SINK_MAX_BATCH);
        this.maxInFlight = conf.get(JobOptions.SINK_MAX_IN_FLIGHT);
        this.maxTimeInBufferMs = conf.get(JobOptions.SINK_MAX_TIME_IN_BUFFER).toMillis();
        this.maxRetries = conf.get(JobOptions.SINK_MAX_RETRIES);
        // AP15: overdue gaps become create-once break rows in the Reconciliation table
        this.gapBreakSink = io.streamledger.jobs.recon.BreakSinks.gapBreaks(conf);
    }

    public PortfolioRows rows() {
        return rows;
    }

    @Override
    public Sink<ProjectionUpdate> viewRows() {
        PortfolioRows r = rows;
        return VersionedDynamoDbSink.<ProjectionUpdate>builder()
                .elementConverter((u, ctx) -> r.viewRow(u))
                .clientConfig(client)
                .guard(PortfolioRows.GUARD)
                .maxBatchSize(maxBatch)
                .maxInFlightRequests(maxInFlight)
                .maxTimeInBufferMS(maxTimeInBufferMs)
                .maxRetries(maxRetries)
                .build();
    }

    @Override
    public Sink<ProjectionUpdate> checkpointRows() {
        PortfolioRows r = rows;
        return VersionedDynamoDbSink.<ProjectionUpdate>builder()
                .elementConverter((u, ctx) -> r.checkpointRow(u))
                .clientConfig(client)
                .guard(PortfolioRows.GUARD)
                .maxBatchSize(maxBatch)
                .maxInFlightRequests(maxInFlight)
                .maxTimeInBufferMS(maxTimeInBufferMs)
                .maxRetries(maxRetries)
                .build();
    }

    @Override
    public Sink<GapBreak> gapBreaks() {
        return gapBreakSink;
    }

    @Override
    public Sink<DeadLetter> deadLetters() {
        return new DiscardingSink<>();
    }
}
