package io.streamledger.aws.metrics;

import java.util.List;

/**
 * The labels of one DynamoDB route of an access pattern: {@code ap} (seed AP id), {@code route}
 * (seed IDX id when the table is known, else the table), physical {@code table} and {@code index}
 * ({@link #BASE} for the base table).
 */
public record Route(String ap, String route, String table, String index) {
    /** The {@code index} label of the base table. */
    public static final String BASE = "base";

    public List<String> labels() {
        return List.of(ap, route, table, index);
    }
}
