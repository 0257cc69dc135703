package io.streamledger.operators.posting;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** AP09/CS08: a replay is admitted only while a receipt written for its fill must still exist. */
class ReplayHorizonTest {

    private static final Instant ADMITTED = Instant.parse("2026-11-01T09:30:00Z");
    private static final Duration RETENTION = Duration.ofDays(30);

    private static TradeFill admitted(long millis) {
        TradeFill f = new TradeFill();
        f.setEventId("ev-1");
        f.setAdmittedAtMillis(millis);
        return f;
    }

    @Test
    void theHorizonIsRetentionLessTheClockSkewFromAdmission() {
        TradeFill f = admitted(ADMITTED.toEpochMilli());
        Instant horizon = ADMITTED.plus(RETENTION).minus(ReplayHorizon.CLOCK_SKEW);
        assertThatCode(() -> ReplayHorizon.requireReceiptLive(f, RETENTION, horizon.minusMillis(1)))
                .doesNotThrowAnyException();
        assertThatThrownBy(() -> ReplayHorizon.requireReceiptLive(f, RETENTION, horizon))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("retention 720 h");
    }

    @Test
    void aFillWithoutAdmissionTimeIsRefused() {
        assertThatThrownBy(() -> ReplayHorizon.requireReceiptLive(admitted(0), RETENTION, ADMITTED))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("no admission time");
    }
}
