package io.streamledger.model.contract;

import java.util.List;

/** One {@code INDEX|} row (IDX01–IDX19): a key path with the APs it serves. */
public record IndexRow(
        int line,
        String id,
        String kind,
        String table,
        String pk,
        String sk,
        String role,
        String readConsequence,
        List<String> accessPatterns) {
    public IndexRow {
        accessPatterns = List.copyOf(accessPatterns);
    }

    /** True for the base table's primary key, false for a GSI. */
    public boolean isBase() {
        return "BASE".equals(kind);
    }
}
