package io.streamledger.model.json;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;

/**
 * The project's one JSON configuration (CS10): numbers are read as BigDecimal, never double;
 * duplicate keys, trailing tokens and unknown properties are rejected. Every module reads and
 * writes JSON with {@link #MAPPER} or a mapper from {@link #builder(JsonFactory)} (same features,
 * its own read limits).
 */
public final class StrictMapper {

    /** Shared, immutable after construction. */
    public static final ObjectMapper MAPPER = builder(new JsonFactory()).build();

    private StrictMapper() {}

    /** The strict features on a factory that carries the caller's stream-read constraints. */
    public static JsonMapper.Builder builder(JsonFactory factory) {
        return JsonMapper.builder(factory)
                .enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION)
                .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
                .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
                .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);
    }
}
