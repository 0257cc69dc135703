package io.streamledger.local.fault;

import com.fasterxml.jackson.databind.JsonNode;
import io.streamledger.local.spi.ApiException;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import javax.annotation.Nullable;

/**
 * Injects throttling, 500s and latency into matching requests (CS03/CS05 retry paths): the Java API
 * behind the {@code /__admin/faults} path; rules fire by probability and/or count until cleared.
 */
public final class FaultInjector {
    private final List<FaultRule> rules = new CopyOnWriteArrayList<>();
    private final AtomicLong ids = new AtomicLong();

    /** Installs a rule; returns it (its id removes it). */
    public FaultRule add(FaultRule.Builder spec) {
        FaultRule rule = spec.build("fault-" + ids.incrementAndGet());
        rules.add(rule);
        return rule;
    }

    public boolean remove(String id) {
        return rules.removeIf(r -> r.id().equals(id));
    }

    public void clear() {
        rules.clear();
    }

    public List<FaultRule> rules() {
        return List.copyOf(rules);
    }

    /**
     * Applies whole-request faults for an operation touching the given tables: sleeps for latency
     * rules, throws for throttle / 500 rules. Per-item throttling of batch operations is left to
     * {@link #throttleItem}.
     */
    public void beforeRequest(
            String operation, Collection<String> tables, boolean perItemThrottle) {
        beforeRequest(operation, tables, perItemThrottle, null);
    }

    /**
     * {@link #beforeRequest(String, Collection, boolean)} for rules filtered on the request text.
     */
    public void beforeRequest(
            String operation,
            Collection<String> tables,
            boolean perItemThrottle,
            @Nullable JsonNode request) {
        if (rules.isEmpty()) {
            return;
        }
        for (FaultRule r : rules) {
            if ((perItemThrottle && r.kind() == FaultKind.THROTTLE)
                    || r.kind() == FaultKind.TRANSACTION_CONFLICT) {
                continue;
            }
            if (!matchesAny(r, operation, tables) || !r.matchesBody(request) || !r.fire()) {
                continue;
            }
            switch (r.kind()) {
                case LATENCY -> sleep(r.latencyMillis());
                case THROTTLE -> throw provisionedThroughputExceeded();
                case THROTTLING ->
                        throw new ApiException(
                                "ThrottlingException",
                                400,
                                "Throughput exceeds the current capacity for"
                                        + " your table or index. DynamoDB is automatically scaling your"
                                        + " table or index so please try again shortly.");
                case INTERNAL_ERROR ->
                        throw new ApiException("InternalServerError", 500, "Internal server error");
            }
        }
        rules.removeIf(FaultRule::exhausted);
    }

    /** The error of a throttled request (or, in a PartiQL batch, of one statement). */
    public static ApiException provisionedThroughputExceeded() {
        return new ApiException(
                "ProvisionedThroughputExceededException",
                400,
                "The level of configured provisioned throughput for the table was exceeded."
                        + " Consider increasing your provisioning level with the UpdateTable API.");
    }

    /** True if one item of a batch operation on the table is throttled now (UnprocessedItems). */
    public boolean throttleItem(String operation, String table) {
        if (rules.isEmpty()) {
            return false;
        }
        for (FaultRule r : rules) {
            if (r.kind() == FaultKind.THROTTLE && r.matches(operation, table) && r.fire()) {
                return true;
            }
        }
        return false;
    }

    /** True if a TransactWriteItems touching these tables must fail with a conflict now. */
    public boolean transactionConflict(Collection<String> tables) {
        if (rules.isEmpty()) {
            return false;
        }
        for (FaultRule r : rules) {
            if (r.kind() == FaultKind.TRANSACTION_CONFLICT
                    && matchesAny(r, "TransactWriteItems", tables)
                    && r.fire()) {
                return true;
            }
        }
        return false;
    }

    private static boolean matchesAny(FaultRule r, String op, Collection<String> tables) {
        if (tables.isEmpty()) {
            return r.matches(op, null);
        }
        for (String t : tables) {
            if (r.matches(op, t)) {
                return true;
            }
        }
        return false;
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Rule lookup by id. */
    public @Nullable FaultRule get(String id) {
        for (FaultRule r : rules) {
            if (r.id().equals(id)) {
                return r;
            }
        }
        return null;
    }
}
