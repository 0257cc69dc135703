package io.streamledger.savepoints.cli;

import io.streamledger.jobs.config.JobOptions;
import io.streamledger.jobs.recon.ReconOptions;
import io.streamledger.model.projection.ViewScope;
import io.streamledger.model.table.TableNaming;
import io.streamledger.savepoints.recon.ExportReconciliation;
import io.streamledger.savepoints.recon.ReconcileReport;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.apache.flink.configuration.Configuration;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code reconcile --from-export DIR --window FROM..TO --out OUT}: the reconciliation job's checks
 * over table exports (AP14/AP15, seed "bulk reconciliation uses a PITR export with an immutable
 * manifest"), written as the same batch and break records into a new report folder.
 */
@Command(
        name = "reconcile",
        mixinStandardHelpOptions = true,
        description =
                "Reconcile whole windows from the Orders, Execution, Ledger and Portfolio exports"
                        + " in DIR with the reconciliation job's own checks.")
final class ReconcileCommand implements Callable<Integer> {

    @Option(
            names = "--from-export",
            required = true,
            description = "folder holding one export per table (found by their manifests)")
    Path exports;

    @Option(
            names = "--window",
            required = true,
            description = "FROM..TO (ISO-8601): every whole reconciliation window inside it")
    String window;

    @Option(names = "--out", required = true, description = "new folder for the report")
    Path out;

    @Option(names = "--prefix", defaultValue = "", description = "table name prefix")
    String prefix;

    @Option(names = "--portfolio-version", defaultValue = "1")
    int portfolioVersion;

    @Option(
            names = "--recon-window",
            description =
                    "window size, as the job's streamledger.recon.window (default: the job's)")
    String windowSize;

    @Option(
            names = "--projection-sla",
            description = "as the job's streamledger.recon.projection-sla")
    String projectionSla;

    @Option(
            names = "--view-scope",
            defaultValue = "all",
            description =
                    "accounts the Portfolio namespace holds, as the projection's"
                            + " streamledger.projection.scope: all or clients (default:"
                            + " ${DEFAULT-VALUE})")
    String viewScope;

    @Override
    public Integer call() throws Exception {
        Configuration conf = new Configuration();
        conf.set(JobOptions.PROJECTION_SCOPE, ViewScope.parse(viewScope));
        if (windowSize != null) {
            conf.setString(ReconOptions.RECON_WINDOW.key(), windowSize);
        }
        if (projectionSla != null) {
            conf.setString(ReconOptions.PROJECTION_SLA.key(), projectionSla);
        }
        ExportReconciliation.Window w = ExportReconciliation.Window.parse(window);
        ExportReconciliation.Result r =
                ExportReconciliation.run(
                        exports,
                        new TableNaming(prefix),
                        portfolioVersion,
                        w,
                        ReconOptions.reconConfig(conf));
        ReconcileReport.write(out, w, r);
        System.out.println(
                "reconciled "
                        + r.batches().size()
                        + " batches, "
                        + r.breaks().size()
                        + " breaks from "
                        + r.exports().size()
                        + " exports -> "
                        + out);
        return 0;
    }
}
