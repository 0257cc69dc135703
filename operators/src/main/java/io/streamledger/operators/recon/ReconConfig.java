package io.streamledger.operators.recon;

import java.io.Serializable;
import java.math.RoundingMode;
import java.time.Duration;

/**
 * The declared reconciliation window (AP14): size and allowed lateness in event time, the
 * projection SLA for the positions check, and the documented consideration rounding (price scale,
 * HALF_EVEN, as the posting job's FeeSplit default).
 */
public record ReconConfig(
        long windowMillis,
        long allowedLatenessMillis,
        long projectionSlaMillis,
        RoundingMode considerationRounding)
        implements Serializable {

    public ReconConfig {
        if (windowMillis <= 0 || allowedLatenessMillis < 0 || projectionSlaMillis <= 0) {
            throw new IllegalArgumentException("window > 0, lateness >= 0, SLA > 0 required");
        }
    }

    public static ReconConfig of(Duration window, Duration lateness, Duration projectionSla) {
        return new ReconConfig(
                window.toMillis(),
                lateness.toMillis(),
                projectionSla.toMillis(),
                RoundingMode.HALF_EVEN);
    }
}
