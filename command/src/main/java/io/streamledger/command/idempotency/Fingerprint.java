package io.streamledger.command.idempotency;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.streamledger.model.shard.Sha256;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * AP08 fingerprint: SHA-256 over the canonical command JSON (keys sorted, decimals normalized to
 * plain strings without trailing zeros) + tenant + operation + schema version.
 */
public final class Fingerprint {

    private static final ObjectMapper CANONICAL =
            JsonMapper.builder().enable(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS).build();

    private Fingerprint() {}

    /** Canonical JSON of a command given as nested maps/lists of strings, decimals, booleans. */
    public static String canonicalJson(Map<String, ?> command) {
        try {
            return CANONICAL.writeValueAsString(normalize(command));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot serialize canonical command", e);
        }
    }

    private static Object normalize(Object v) {
        if (v instanceof Map<?, ?> m) {
            TreeMap<String, Object> out = new TreeMap<>();
            m.forEach(
                    (k, val) -> {
                        if (val != null) {
                            out.put(String.valueOf(k), normalize(val));
                        }
                    });
            return out;
        }
        if (v instanceof List<?> l) {
            return l.stream().map(Fingerprint::normalize).toList();
        }
        if (v instanceof BigDecimal d) {
            // 10, 10.0 and 10.00 are the same amount and therefore the same command.
            return d.signum() == 0 ? "0" : d.stripTrailingZeros().toPlainString();
        }
        if (v instanceof Enum<?> e) {
            return e.name();
        }
        return v;
    }

    public static String of(
            Map<String, ?> command, String tenant, String operation, int schemaVersion) {
        return ofCanonicalJson(canonicalJson(command), tenant, operation, schemaVersion);
    }

    /** {@link #of} for a command already in its {@link #canonicalJson} form. */
    public static String ofCanonicalJson(
            String canonicalJson, String tenant, String operation, int schemaVersion) {
        return sha256Hex(canonicalJson + "\n" + tenant + "\n" + operation + "\n" + schemaVersion);
    }

    public static String sha256Hex(String s) {
        return Sha256.hex(s);
    }
}
