package io.streamledger.command.outbox;

import io.streamledger.model.change.AttributeValue;
import java.math.BigDecimal;
import java.util.LinkedHashMap;
import java.util.Map;

/** Builds an outbox payload (AP16 consumer contract) with exact numbers, in insertion order. */
public final class Payloads {

    private final Map<String, AttributeValue> values = new LinkedHashMap<>();

    public Payloads s(String name, String value) {
        if (value != null) {
            values.put(name, AttributeValue.s(value));
        }
        return this;
    }

    public Payloads n(String name, BigDecimal value) {
        if (value != null) {
            values.put(name, AttributeValue.n(value));
        }
        return this;
    }

    public Payloads n(String name, long value) {
        values.put(name, AttributeValue.n(value));
        return this;
    }

    public Map<String, AttributeValue> build() {
        return values;
    }
}
