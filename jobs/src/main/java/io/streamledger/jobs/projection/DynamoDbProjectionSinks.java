package io.streamledger.jobs.projection;

import io.streamledger.jobs.config.JobOptions;
import io.streamledger.jobs.deadletter.DeadLetters;
import io.streamledger.jobs.gaps.ParkedGaps;
import io.streamledger.jobs.recon.BreakSinks;
import io.streamledger.jobs.source.SourceDeadLetter;
import io.streamledger.model.table.TableNaming;
import io.streamledger.model.table.Tables;
import io.streamledger.operators.gate.DeadLetter;
import io.streamledger.operators.gate.GapBreak;
import io.streamledger.operators.gate.ParkedGap;
import io.streamledger.operators.projection.ProjectionUpdate;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.configuration.ReadableConfig;

/**
 * Production sinks of the projection job: the version-guarded DynamoDB sink for view and checkpoint
 * rows (AP07/AP13, CS06); gap breaks go to the AP15 break rows (create-once); gate and source dead
 * letters to the durable dead-letter table (CS08).
 */
public final class DynamoDbProjectionSinks implements ProjectionSinks {

    private static final long serialVersionUID = 1L;

    private final PortfolioRows rows;
    private final Sink<ProjectionUpdate> viewRowSink;
    private final Sink<ProjectionUpdate> checkpointRowSink;
    private final Sink<GapBreak> gapBreakSink;
    private final Sink<DeadLetter> deadLetterSink;
    private final Sink<SourceDeadLetter> sourceDeadLetterSink;
    private final Sink<ParkedGap> parkedGapSink;

    public DynamoDbProjectionSinks(ReadableConfig conf) {
        TableNaming naming = new TableNaming(conf.get(JobOptions.TABLE_PREFIX));
        PortfolioRows r =
                new PortfolioRows(
                        naming.physicalName(
                                Tables.PORTFOLIO, conf.get(JobOptions.PORTFOLIO_NAMESPACE_VERSION)),
                        naming.physicalName(Tables.PROJECTION),
                        conf.get(JobOptions.PROJECTION_NAME));
        this.rows = r;
        this.viewRowSink =
                JobOptions.withFlushLimits(
                                JobOptions.<ProjectionUpdate>versionedSink(
                                        conf, PortfolioRows.GUARD, (u, ctx) -> r.viewRow(u)),
                                conf)
                        .accessPattern("AP07")
                        .build();
        this.checkpointRowSink =
                JobOptions.withFlushLimits(
                                JobOptions.<ProjectionUpdate>versionedSink(
                                        conf, PortfolioRows.GUARD, (u, ctx) -> r.checkpointRow(u)),
                                conf)
                        .accessPattern("AP13")
                        .build();
        // AP15: overdue gaps become create-once break rows in the Reconciliation table
        this.gapBreakSink = BreakSinks.gapBreaks(conf);
        this.deadLetterSink =
                DeadLetters.sink(
                        conf,
                        DeadLetters.fromGate(ProjectionJob.ROLE, ProjectionJob.GATE_OPERATOR));
        this.sourceDeadLetterSink =
                DeadLetters.sink(
                        conf, DeadLetters.fromSource(ProjectionJob.ROLE, ProjectionJob.PARSE_UID));
        this.parkedGapSink = ParkedGaps.sink(conf, ProjectionJob.ROLE, ProjectionJob.GATE_OPERATOR);
    }

    public PortfolioRows rows() {
        return rows;
    }

    @Override
    public Sink<ProjectionUpdate> viewRows() {
        return viewRowSink;
    }

    @Override
    public Sink<ProjectionUpdate> checkpointRows() {
        return checkpointRowSink;
    }

    @Override
    public Sink<GapBreak> gapBreaks() {
        return gapBreakSink;
    }

    @Override
    public Sink<DeadLetter> deadLetters() {
        return deadLetterSink;
    }

    @Override
    public Sink<SourceDeadLetter> sourceDeadLetters() {
        return sourceDeadLetterSink;
    }

    @Override
    public Sink<ParkedGap> parkedGaps() {
        return parkedGapSink;
    }
}
