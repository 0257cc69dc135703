package io.streamledger.operators.recon;

import io.streamledger.model.ledger.RoundingPolicy;
import io.streamledger.model.projection.ViewScope;
import java.io.Serializable;
import java.time.Duration;
import java.util.Objects;

/**
 * The declared reconciliation window (AP14): size and allowed lateness in event time, the
 * projection SLA for the positions check, the rounding policy the expected ledger movement is
 * recomputed with (the posting job's, {@link RoundingPolicy#DEFAULT}), and the view scope of the
 * Portfolio namespace the positions check reads (an authority outside it has no row to compare).
 */
public record ReconConfig(
        long windowMillis,
        long allowedLatenessMillis,
        long projectionSlaMillis,
        RoundingPolicy rounding,
        ViewScope viewScope)
        implements Serializable {

    public ReconConfig {
        if (windowMillis <= 0 || allowedLatenessMillis < 0 || projectionSlaMillis <= 0) {
            throw new IllegalArgumentException("window > 0, lateness >= 0, SLA > 0 required");
        }
        Objects.requireNonNull(rounding, "rounding must be explicit");
        Objects.requireNonNull(viewScope, "viewScope must be explicit");
    }

    public ReconConfig(
            long windowMillis,
            long allowedLatenessMillis,
            long projectionSlaMillis,
            RoundingPolicy rounding) {
        this(windowMillis, allowedLatenessMillis, projectionSlaMillis, rounding, ViewScope.DEFAULT);
    }

    public static ReconConfig of(Duration window, Duration lateness, Duration projectionSla) {
        return new ReconConfig(
                window.toMillis(),
                lateness.toMillis(),
                projectionSla.toMillis(),
                RoundingPolicy.DEFAULT);
    }

    /** The same window, checking positions against a view of {@code scope}. */
    public ReconConfig withViewScope(ViewScope scope) {
        return new ReconConfig(
                windowMillis, allowedLatenessMillis, projectionSlaMillis, rounding, scope);
    }
}
