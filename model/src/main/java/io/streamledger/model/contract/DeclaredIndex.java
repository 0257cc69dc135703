package io.streamledger.model.contract;

import java.util.List;
import java.util.Objects;

/**
 * One key path (IDX01–IDX19) as the code declares it, in the seed's notation, so that the capacity
 * contract's {@code INDEX|} rows can be cross-checked against the code and cannot drift.
 *
 * @param id seed id, e.g. {@code IDX09}
 * @param kind {@code BASE}, {@code GSI1}, {@code GSI2} or {@code GSI3}
 * @param table bounded-context table, e.g. {@code Inbox}
 * @param pk partition-key pattern exactly as the seed writes it, e.g. {@code
 *     CONSUMER#name#V#v#SHARD#h(eventId)%13}
 * @param sk sort-key pattern exactly as the seed writes it, e.g. {@code EVENT#id}
 * @param accessPatterns the AP ids the path serves, e.g. {@code [AP10, AP11]}
 */
public record DeclaredIndex(
        String id, String kind, String table, String pk, String sk, List<String> accessPatterns) {
    public DeclaredIndex {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(table, "table");
        Objects.requireNonNull(pk, "pk");
        Objects.requireNonNull(sk, "sk");
        accessPatterns = List.copyOf(accessPatterns);
    }
}
