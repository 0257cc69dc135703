package io.streamledger.sinks.versioned;

import java.io.Serializable;
import java.util.Collections;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * A caller's extra DynamoDB condition, ANDed with the sink's guard (seed CS06: conditional
 * projection update). Placeholders must not start with {@code #sl_} / {@code :sl_}, which the sink
 * reserves for its own guard and attribute names.
 */
public final class ExtraCondition implements Serializable {
    private static final long serialVersionUID = 1L;

    /** Prefix of the placeholders the sink generates; callers may not use it. */
    public static final String RESERVED_PREFIX = "sl_";

    private final String expression;
    private final Map<String, String> names;
    private final Map<String, AttributeValue> values;

    private ExtraCondition(
            String expression, Map<String, String> names, Map<String, AttributeValue> values) {
        this.expression = expression;
        this.names = names;
        this.values = values;
    }

    /**
     * @throws IllegalArgumentException for a blank expression or a reserved placeholder
     */
    public static ExtraCondition of(
            String expression, Map<String, String> names, Map<String, AttributeValue> values) {
        if (expression == null || expression.isBlank()) {
            throw new IllegalArgumentException("extra condition expression is blank");
        }
        for (String placeholder : names.keySet()) {
            requireUnreserved(placeholder, '#');
        }
        for (String placeholder : values.keySet()) {
            requireUnreserved(placeholder, ':');
        }
        return new ExtraCondition(
                expression,
                Collections.unmodifiableMap(new TreeMap<>(names)),
                Collections.unmodifiableMap(new TreeMap<>(values)));
    }

    private static void requireUnreserved(String placeholder, char sigil) {
        if (placeholder.isEmpty() || placeholder.charAt(0) != sigil) {
            throw new IllegalArgumentException(
                    "placeholder '" + placeholder + "' must start with '" + sigil + "'");
        }
        if (placeholder.startsWith(RESERVED_PREFIX, 1)) {
            throw new IllegalArgumentException(
                    "placeholder '" + placeholder + "' uses the sink's reserved prefix");
        }
    }

    public String expression() {
        return expression;
    }

    public Map<String, String> names() {
        return names;
    }

    public Map<String, AttributeValue> values() {
        return values;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof ExtraCondition)) {
            return false;
        }
        ExtraCondition that = (ExtraCondition) o;
        return expression.equals(that.expression)
                && names.equals(that.names)
                && values.equals(that.values);
    }

    @Override
    public int hashCode() {
        return Objects.hash(expression, names, values);
    }

    @Override
    public String toString() {
        return "ExtraCondition{" + expression + "}";
    }
}
