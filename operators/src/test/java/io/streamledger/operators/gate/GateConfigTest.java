package io.streamledger.operators.gate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The gate's limits are validated once, up front (AP09 horizon, CS07 SLA, AP13 parking bound). */
class GateConfigTest {

    @Test
    void rejectsMissingZeroNegativeOrSubMillisecondDurations() {
        assertThatThrownBy(() -> GateConfig.of(null, Duration.ofSeconds(1), 1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("dedupeHorizon");
        assertThatThrownBy(() -> GateConfig.of(Duration.ofHours(1), Duration.ZERO, 1))
                .hasMessageContaining("gapSla");
        assertThatThrownBy(() -> GateConfig.of(Duration.ofHours(1), Duration.ofSeconds(-1), 1))
                .hasMessageContaining("gapSla");
        assertThatThrownBy(() -> GateConfig.of(Duration.ofNanos(10), Duration.ofSeconds(1), 1))
                .hasMessageContaining("dedupeHorizon");
    }

    @Test
    void rejectsParkingBoundsOutsideTheLimit() {
        GateConfig d = GateConfig.defaults();
        assertThatThrownBy(() -> d.withMaxParkedPerKey(0)).hasMessageContaining("maxParkedPerKey");
        assertThatThrownBy(() -> d.withMaxParkedPerKey(GateConfig.MAX_PARKED_LIMIT + 1))
                .hasMessageContaining("maxParkedPerKey");
        assertThat(d.withMaxParkedPerKey(GateConfig.MAX_PARKED_LIMIT).maxParkedPerKey())
                .isEqualTo(GateConfig.MAX_PARKED_LIMIT);
    }

    @Test
    void survivesJavaSerializationAsShippedInsideAFunction() throws Exception {
        GateConfig c = GateConfig.of(Duration.ofHours(2), Duration.ofSeconds(30), 50);
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(c);
        }
        try (ObjectInputStream in =
                new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
            assertThat(in.readObject()).isEqualTo(c);
        }
        assertThat(c.gapSlaMillis()).isEqualTo(30_000L);
    }
}
