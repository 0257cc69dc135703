package io.streamledger.operators.posting;

import java.time.Duration;
import java.time.Instant;

/**
 * How long a set-aside fill can be replayed and still post at most once (AP09, CS08): the only
 * guard is its inbox receipt, which expires {@code retention} after it was written, and it is
 * written no earlier than the fill's admission. Past that, a replay could find the receipt gone and
 * post the fill a second time, so it is refused and the entry stays open for a manual correction.
 */
public final class ReplayHorizon {

    /** Clock skew allowed between the command service (admission) and the posting writer. */
    public static final Duration CLOCK_SKEW = Duration.ofHours(1);

    private ReplayHorizon() {}

    /**
     * @throws IllegalArgumentException when a receipt written for {@code fill} may have expired by
     *     {@code now} under {@code retention}, or its admission time is unknown
     */
    public static void requireReceiptLive(TradeFill fill, Duration retention, Instant now) {
        if (fill.getAdmittedAtMillis() <= 0) {
            throw new IllegalArgumentException(
                    "fill "
                            + fill.getEventId()
                            + " has no admission time: its receipt's expiry is unknown, so a"
                            + " replay could post it twice");
        }
        Instant admitted = Instant.ofEpochMilli(fill.getAdmittedAtMillis());
        Instant horizon = admitted.plus(retention).minus(CLOCK_SKEW);
        if (!now.isBefore(horizon)) {
            throw new IllegalArgumentException(
                    "fill "
                            + fill.getEventId()
                            + " was admitted "
                            + Duration.between(admitted, now).toHours()
                            + " h ago: its inbox receipt may have expired (retention "
                            + retention.toHours()
                            + " h), so a replay could post it twice; correct the ledger by hand");
        }
    }
}
