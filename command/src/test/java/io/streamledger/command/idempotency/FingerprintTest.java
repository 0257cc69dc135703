package io.streamledger.command.idempotency;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * AP08 fingerprint: canonical (sorted keys, normalised decimals) + tenant + operation + version.
 */
class FingerprintTest {

    private static Map<String, Object> cmd(String qty, boolean reversed) {
        Map<String, Object> m = new LinkedHashMap<>();
        if (reversed) {
            m.put("b", List.of(Map.of("y", "2", "x", "1")));
            m.put("a", new BigDecimal(qty));
        } else {
            m.put("a", new BigDecimal(qty));
            m.put("b", List.of(Map.of("x", "1", "y", "2")));
        }
        return m;
    }

    @Test
    void keyOrderAndTrailingZerosDoNotChangeTheFingerprint() {
        assertThat(Fingerprint.canonicalJson(cmd("10.50", true)))
                .isEqualTo("{\"a\":\"10.5\",\"b\":[{\"x\":\"1\",\"y\":\"2\"}]}");
        assertThat(Fingerprint.of(cmd("10.50", false), "t", "Op", 1))
                .isEqualTo(Fingerprint.of(cmd("10.5", true), "t", "Op", 1));
        assertThat(Fingerprint.of(cmd("0.00", false), "t", "Op", 1))
                .isEqualTo(Fingerprint.of(cmd("0", false), "t", "Op", 1));
    }

    @Test
    void tenantOperationSchemaAndValuesAllCount() {
        String base = Fingerprint.of(cmd("1", false), "t", "Op", 1);
        assertThat(Fingerprint.of(cmd("1", false), "u", "Op", 1)).isNotEqualTo(base);
        assertThat(Fingerprint.of(cmd("1", false), "t", "Other", 1)).isNotEqualTo(base);
        assertThat(Fingerprint.of(cmd("1", false), "t", "Op", 2)).isNotEqualTo(base);
        assertThat(Fingerprint.of(cmd("1.01", false), "t", "Op", 1)).isNotEqualTo(base);
        assertThat(base).hasSize(64);
    }
}
