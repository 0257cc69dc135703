package io.streamledger.savepoints.bootstrap;

import io.streamledger.jobs.config.JobOptions;
import io.streamledger.jobs.projection.PortfolioRows;
import io.streamledger.model.projection.ViewScope;
import io.streamledger.model.table.TableNaming;
import io.streamledger.model.table.Tables;
import java.io.Serializable;
import java.util.Objects;
import org.apache.flink.configuration.Configuration;

/**
 * One Portfolio projection namespace (CS09 "versioned rebuild"): the {@code Portfolio_v<n>} view
 * table and the IDX12 checkpoint rows of projection {@link #checkpointName()} in the Projection
 * table.
 *
 * <p>Why the version is in the projection name and not in the {@code V#v} key segment: in the IDX12
 * key {@code PROJ#name#V#v#SHARD#h}, {@code v} is the shard-map version (AP13 "projection + source
 * key + shardVersion"), and the projection job writes it from {@code
 * ShardMap.PROJECTION_CHECKPOINTS}. Bootstrap and catch-up must write the same keys, so both go
 * through the job's own {@link PortfolioRows} configured by {@link #applyTo}.
 *
 * <p>The view's {@link ViewScope} is a property of the namespace: its bootstrap, catch-up job and
 * proof all apply the same one, and the proof records it.
 *
 * @param prefix table prefix (a String: {@link TableNaming} is not serializable)
 * @param base projection base name, e.g. {@code portfolio} (also the alias name)
 * @param version namespace version {@code n}
 * @param scope which accounts the view holds
 */
public record Namespace(String prefix, String base, int version, ViewScope scope)
        implements Serializable {

    /** A namespace of every account ({@link ViewScope#DEFAULT}), as every one written before. */
    public Namespace(String prefix, String base, int version) {
        this(prefix, base, version, ViewScope.DEFAULT);
    }

    public Namespace(TableNaming naming, String base, int version) {
        this(naming.prefix(), base, version);
    }

    public Namespace(TableNaming naming, String base, int version, ViewScope scope) {
        this(naming.prefix(), base, version, scope);
    }

    public Namespace {
        new TableNaming(prefix); // validates the prefix
        if (version < 1) {
            throw new IllegalArgumentException("namespace version must be >= 1, got " + version);
        }
        Objects.requireNonNull(scope, "scope");
    }

    public TableNaming naming() {
        return new TableNaming(prefix);
    }

    public String portfolioTable() {
        return naming().physicalName(Tables.PORTFOLIO, version);
    }

    public String projectionTable() {
        return naming().physicalName(Tables.PROJECTION);
    }

    public String ledgerTable() {
        return naming().physicalName(Tables.LEDGER);
    }

    /**
     * Projection name in this namespace's IDX12 checkpoint keys: {@code <base>} for version 1 (the
     * projection job's default, so a first deployment needs no rename), {@code <base>_v<n>} after.
     */
    public String checkpointName() {
        return version == 1 ? base : base + "_v" + version;
    }

    public Namespace next() {
        return new Namespace(prefix, base, version + 1, scope);
    }

    /** The job's row builder for this namespace (the same one the projection job uses). */
    public PortfolioRows rows() {
        return new PortfolioRows(portfolioTable(), projectionTable(), checkpointName());
    }

    /** Points a projection job configuration at this namespace. */
    public Configuration applyTo(Configuration conf) {
        conf.set(JobOptions.TABLE_PREFIX, prefix);
        conf.set(JobOptions.PORTFOLIO_NAMESPACE_VERSION, version);
        conf.set(JobOptions.PROJECTION_NAME, checkpointName());
        conf.set(JobOptions.PROJECTION_SCOPE, scope);
        return conf;
    }

    @Override
    public String toString() {
        return portfolioTable()
                + " + checkpoints of "
                + checkpointName()
                + (scope == ViewScope.ALL ? "" : " (" + scope.label() + " only)");
    }
}
