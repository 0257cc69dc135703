package io.streamledger.local.fault;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;
import javax.annotation.Nullable;

/**
 * One injected fault: kind, optional operation, table and request-text filters, a probability
 * and/or a count of requests it fires on (CS03/CS05 retry tests); fires at most {@code count} times
 * when a count is set.
 */
public final class FaultRule {
    private final String id;
    private final FaultKind kind;
    private final @Nullable String operation;
    private final @Nullable String table;
    private final double probability;
    private final @Nullable AtomicLong remaining;
    private final long latencyMillis;
    private final @Nullable String contains;

    private FaultRule(Builder b, String id) {
        this.contains = b.contains;
        this.id = id;
        this.kind = b.kind;
        this.operation = b.operation;
        this.table = b.table;
        this.probability = b.probability;
        this.remaining = b.count == null ? null : new AtomicLong(b.count);
        this.latencyMillis = b.latencyMillis;
    }

    public static Builder of(FaultKind kind) {
        return new Builder(kind);
    }

    public static Builder throttle() {
        return of(FaultKind.THROTTLE);
    }

    public static Builder internalError() {
        return of(FaultKind.INTERNAL_ERROR);
    }

    public static Builder latency(long millis) {
        return of(FaultKind.LATENCY).latencyMillis(millis);
    }

    /**
     * Parses the admin JSON shape {kind, operation?, table?, probability?, count?, latencyMillis?}.
     */
    public static Builder fromJson(JsonNode json) {
        FaultKind kind = FaultKind.valueOf(json.path("kind").asText("THROTTLE"));
        Builder b = of(kind);
        if (json.hasNonNull("operation")) {
            b.operation(json.get("operation").asText());
        }
        if (json.hasNonNull("table")) {
            b.table(json.get("table").asText());
        }
        if (json.hasNonNull("probability")) {
            b.probability(json.get("probability").asDouble());
        }
        if (json.hasNonNull("count")) {
            b.count(json.get("count").asLong());
        }
        if (json.hasNonNull("latencyMillis")) {
            b.latencyMillis(json.get("latencyMillis").asLong());
        }
        if (json.hasNonNull("contains")) {
            b.contains(json.get("contains").asText());
        }
        return b;
    }

    public String id() {
        return id;
    }

    public FaultKind kind() {
        return kind;
    }

    public long latencyMillis() {
        return latencyMillis;
    }

    /** True if the rule applies to the operation and table (a null filter matches anything). */
    boolean matches(String op, @Nullable String tableName) {
        return (operation == null || operation.equals(op))
                && (table == null || table.equals(tableName));
    }

    /** True if the rule has no body filter or the request's JSON contains its text. */
    boolean matchesBody(@Nullable JsonNode request) {
        return contains == null || (request != null && request.toString().contains(contains));
    }

    /** Draws the probability and consumes one count; true if the fault fires now. */
    boolean fire() {
        if (probability < 1.0 && ThreadLocalRandom.current().nextDouble() >= probability) {
            return false;
        }
        if (remaining == null) {
            return true;
        }
        while (true) {
            long r = remaining.get();
            if (r <= 0) {
                return false;
            }
            if (remaining.compareAndSet(r, r - 1)) {
                return true;
            }
        }
    }

    boolean exhausted() {
        return remaining != null && remaining.get() <= 0;
    }

    public ObjectNode toJson() {
        ObjectNode o = JsonNodeFactory.instance.objectNode();
        o.put("id", id);
        o.put("kind", kind.name());
        if (operation != null) {
            o.put("operation", operation);
        }
        if (table != null) {
            o.put("table", table);
        }
        o.put("probability", probability);
        if (remaining != null) {
            o.put("remaining", remaining.get());
        }
        o.put("latencyMillis", latencyMillis);
        if (contains != null) {
            o.put("contains", contains);
        }
        return o;
    }

    /** Fluent spec of a rule; {@link FaultInjector#add} installs it. */
    public static final class Builder {
        private final FaultKind kind;
        private @Nullable String operation;
        private @Nullable String table;
        private double probability = 1.0;
        private @Nullable Long count;
        private long latencyMillis;
        private @Nullable String contains;

        private Builder(FaultKind kind) {
            this.kind = kind;
        }

        /** Operation name without the target prefix, e.g. {@code PutItem}. */
        public Builder operation(String op) {
            this.operation = op;
            return this;
        }

        public Builder table(String table) {
            this.table = table;
            return this;
        }

        public Builder probability(double p) {
            if (p < 0 || p > 1) {
                throw new IllegalArgumentException("probability must be in [0,1]: " + p);
            }
            this.probability = p;
            return this;
        }

        public Builder count(long count) {
            this.count = count;
            return this;
        }

        /**
         * Fires only on requests whose JSON contains {@code text}, e.g. one item's key or event id:
         * a persistent fault scoped to one record while every other request is served.
         */
        public Builder contains(String text) {
            this.contains = text;
            return this;
        }

        public Builder latencyMillis(long millis) {
            this.latencyMillis = millis;
            return this;
        }

        FaultRule build(String id) {
            return new FaultRule(this, id);
        }
    }
}
