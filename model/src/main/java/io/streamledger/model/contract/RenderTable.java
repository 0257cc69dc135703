package io.streamledger.model.contract;

import java.util.ArrayList;
import java.util.List;

/**
 * The seed's capacity render table (between the TASK6_CHAPTER_CAPACITY_RENDER markers) parsed into
 * rows; the header and alignment rows are skipped.
 */
public record RenderTable(List<RenderRow> rows) {
    private static final String HEADER_FIRST_CELL = "Result ID";

    public RenderTable {
        rows = List.copyOf(rows);
    }

    /** Parses the markdown table; a data row must have exactly id, numeric result, consequence. */
    public static RenderTable parse(String markdown) {
        List<RenderRow> rows = new ArrayList<>();
        String[] lines = markdown.split("\\R", -1);
        for (int i = 0; i < lines.length; i++) {
            int lineNumber = i + 1;
            String line = lines[i].strip();
            if (line.isEmpty()) {
                continue;
            }
            if (!line.startsWith("|") || !line.endsWith("|") || line.length() < 2) {
                throw new ContractParseException(
                        lineNumber, "row", "not a markdown table row: '" + lines[i] + "'");
            }
            String[] cells = line.substring(1, line.length() - 1).split("\\|", -1);
            if (cells.length != 3) {
                throw new ContractParseException(
                        lineNumber,
                        cells.length < 3 ? (cells.length < 2 ? "result" : "consequence") : "row",
                        "expected 3 cells (Result ID, Result, Consequence), got " + cells.length);
            }
            String id = cells[0].strip();
            if (id.equals(HEADER_FIRST_CELL) || id.matches(":?-+:?")) {
                continue; // header and alignment rows
            }
            if (!id.matches("[a-z0-9_]+")) {
                throw new ContractParseException(
                        lineNumber, "resultId", "'" + id + "' is not a snake_case result id");
            }
            rows.add(
                    new RenderRow(
                            lineNumber,
                            id,
                            ContractParser.exactNumber(cells[1].strip(), lineNumber, "result"),
                            cells[2].strip()));
        }
        return new RenderTable(rows);
    }
}
