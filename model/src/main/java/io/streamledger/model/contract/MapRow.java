package io.streamledger.model.contract;

import java.util.List;

/** One {@code MAP|} row: an AP and the index paths that answer it. */
public record MapRow(int line, String accessPattern, List<String> indexes) {
    public MapRow {
        indexes = List.copyOf(indexes);
    }
}
