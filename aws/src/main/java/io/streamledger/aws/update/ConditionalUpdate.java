package io.streamledger.aws.update;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import javax.annotation.Nullable;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.Update;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;

/**
 * One conditional UpdateItem (or transaction Update) as SET / ADD / REMOVE clauses plus a
 * condition, with generated {@code #nK} / {@code :vK} placeholders so that names and values never
 * collide (seed CS06 conditional writes, AP03/AP15 sparse-index membership moves by SET/REMOVE).
 *
 * <p>Each distinct attribute name gets one {@code #n} placeholder in first-use order (clauses, then
 * condition); each value gets its own {@code :v} placeholder. Names are top-level attributes.
 */
public final class ConditionalUpdate {

    private final String updateExpression;
    private final @Nullable String conditionExpression;
    private final Map<String, String> names;
    private final Map<String, AttributeValue> values;

    private ConditionalUpdate(
            String updateExpression,
            @Nullable String conditionExpression,
            Map<String, String> names,
            Map<String, AttributeValue> values) {
        this.updateExpression = updateExpression;
        this.conditionExpression = conditionExpression;
        this.names = Collections.unmodifiableMap(names);
        this.values = Collections.unmodifiableMap(values);
    }

    public static Builder builder() {
        return new Builder();
    }

    public String updateExpression() {
        return updateExpression;
    }

    public @Nullable String conditionExpression() {
        return conditionExpression;
    }

    /** Placeholder → attribute name. */
    public Map<String, String> names() {
        return names;
    }

    /** Placeholder → value; empty when no clause or condition carries a value. */
    public Map<String, AttributeValue> values() {
        return values;
    }

    /** Sets expression, condition, names and values on an UpdateItem request. */
    public UpdateItemRequest.Builder applyTo(UpdateItemRequest.Builder b) {
        apply(
                b::updateExpression,
                b::conditionExpression,
                b::expressionAttributeNames,
                b::expressionAttributeValues);
        return b;
    }

    /** Sets expression, condition, names and values on a transaction Update action. */
    public Update.Builder applyTo(Update.Builder b) {
        apply(
                b::updateExpression,
                b::conditionExpression,
                b::expressionAttributeNames,
                b::expressionAttributeValues);
        return b;
    }

    // the two SDK builders share no interface; an empty values map is left unset (DynamoDB rejects
    // it)
    private void apply(
            Consumer<String> update,
            Consumer<String> condition,
            Consumer<Map<String, String>> names,
            Consumer<Map<String, AttributeValue>> vals) {
        update.accept(updateExpression);
        names.accept(this.names);
        if (conditionExpression != null) {
            condition.accept(conditionExpression);
        }
        if (!values.isEmpty()) {
            vals.accept(values);
        }
    }

    @Override
    public String toString() {
        return updateExpression + (conditionExpression == null ? "" : " IF " + conditionExpression);
    }

    /** Collects clauses in call order; {@link #build} renders them. */
    public static final class Builder {
        private sealed interface Clause {}

        private record Set(String attribute, AttributeValue value) implements Clause {}

        private record Increment(String attribute, AttributeValue by) implements Clause {}

        private record Add(String attribute, AttributeValue value) implements Clause {}

        private record Remove(String attribute) implements Clause {}

        private final List<Clause> clauses = new ArrayList<>();
        private final List<Condition> conditions = new ArrayList<>();

        private Builder() {}

        /** {@code SET #a = :v}. */
        public Builder set(String attribute, AttributeValue value) {
            clauses.add(new Set(attribute, value));
            return this;
        }

        /** {@code SET #a = #a + :v} (the attribute must exist). */
        public Builder increment(String attribute, AttributeValue by) {
            clauses.add(new Increment(attribute, by));
            return this;
        }

        /** {@code ADD #a :v}: a number added (0 when absent) or elements added to a set. */
        public Builder add(String attribute, AttributeValue value) {
            clauses.add(new Add(attribute, value));
            return this;
        }

        /** {@code REMOVE #a} for each attribute. */
        public Builder remove(String... attributes) {
            for (String a : attributes) {
                clauses.add(new Remove(a));
            }
            return this;
        }

        /** Adds a condition; several are joined by {@code AND}. */
        public Builder when(Condition condition) {
            conditions.add(condition);
            return this;
        }

        public ConditionalUpdate build() {
            if (clauses.isEmpty()) {
                throw new IllegalStateException("an update needs at least one clause");
            }
            Placeholders p = new Placeholders();
            List<String> sets = new ArrayList<>();
            List<String> adds = new ArrayList<>();
            List<String> removes = new ArrayList<>();
            for (Clause c : clauses) {
                if (c instanceof Set s) {
                    sets.add(p.name(s.attribute()) + " = " + p.value(s.value()));
                } else if (c instanceof Increment i) {
                    String n = p.name(i.attribute());
                    sets.add(n + " = " + n + " + " + p.value(i.by()));
                } else if (c instanceof Add a) {
                    adds.add(p.name(a.attribute()) + " " + p.value(a.value()));
                } else if (c instanceof Remove r) {
                    removes.add(p.name(r.attribute()));
                }
            }
            StringBuilder update = new StringBuilder();
            append(update, "SET", sets);
            append(update, "ADD", adds);
            append(update, "REMOVE", removes);
            String condition = null;
            if (!conditions.isEmpty()) {
                condition =
                        conditions.size() == 1
                                ? render(conditions.get(0), p, false)
                                : render(new Condition.Junction(true, conditions), p, false);
            }
            return new ConditionalUpdate(update.toString(), condition, p.names, p.values);
        }

        private static void append(StringBuilder b, String keyword, List<String> parts) {
            if (parts.isEmpty()) {
                return;
            }
            if (b.length() > 0) {
                b.append(' ');
            }
            b.append(keyword).append(' ').append(String.join(", ", parts));
        }

        private static String render(Condition c, Placeholders p, boolean nested) {
            if (c instanceof Condition.Compare cmp) {
                return p.name(cmp.attribute()) + " " + cmp.operator() + " " + p.value(cmp.value());
            }
            if (c instanceof Condition.Exists e) {
                return (e.exists() ? "attribute_exists(" : "attribute_not_exists(")
                        + p.name(e.attribute())
                        + ")";
            }
            Condition.Junction j = (Condition.Junction) c;
            List<String> parts = new ArrayList<>();
            for (Condition part : j.parts()) {
                parts.add(render(part, p, true));
            }
            String joined = String.join(j.all() ? " AND " : " OR ", parts);
            return nested && parts.size() > 1 ? "(" + joined + ")" : joined;
        }
    }

    private static final class Placeholders {
        final Map<String, String> names = new LinkedHashMap<>();
        final Map<String, String> byAttribute = new LinkedHashMap<>();
        final Map<String, AttributeValue> values = new LinkedHashMap<>();

        String name(String attribute) {
            if (attribute == null || attribute.isEmpty()) {
                throw new IllegalArgumentException("attribute name must not be empty");
            }
            return byAttribute.computeIfAbsent(
                    attribute,
                    a -> {
                        String placeholder = "#n" + names.size();
                        names.put(placeholder, a);
                        return placeholder;
                    });
        }

        String value(AttributeValue v) {
            String placeholder = ":v" + values.size();
            values.put(placeholder, v);
            return placeholder;
        }
    }
}
