package io.streamledger.operators.recon;

import io.streamledger.model.ledger.RoundingPolicy;
import java.io.Serializable;
import java.time.Duration;
import java.util.Objects;

/**
 * The declared reconciliation window (AP14): size and allowed lateness in event time, the
 * projection SLA for the positions check, and the rounding policy the expected ledger movement is
 * recomputed with (the posting job's, {@link RoundingPolicy#DEFAULT}).
 */
public record ReconConfig(
        long windowMillis,
        long allowedLatenessMillis,
        long projectionSlaMillis,
        RoundingPolicy rounding)
        implements Serializable {

    public ReconConfig {
        if (windowMillis <= 0 || allowedLatenessMillis < 0 || projectionSlaMillis <= 0) {
            throw new IllegalArgumentException("window > 0, lateness >= 0, SLA > 0 required");
        }
        Objects.requireNonNull(rounding, "rounding must be explicit");
    }

    public static ReconConfig of(Duration window, Duration lateness, Duration projectionSla) {
        return new ReconConfig(
                window.toMillis(),
                lateness.toMillis(),
                projectionSla.toMillis(),
                RoundingPolicy.DEFAULT);
    }
}
