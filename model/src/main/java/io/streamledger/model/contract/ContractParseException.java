package io.streamledger.model.contract;

/**
 * A malformed row of the seed's TASK6_MODEL block or capacity render table, naming the line and the
 * field so that the copy can be fixed without guessing.
 */
public final class ContractParseException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final int lineNumber;
    private final String field;

    public ContractParseException(int lineNumber, String field, String message) {
        super("line " + lineNumber + ", field " + field + ": " + message);
        this.lineNumber = lineNumber;
        this.field = field;
    }

    /** 1-based line number in the parsed text. */
    public int lineNumber() {
        return lineNumber;
    }

    /** Name of the offending field, e.g. {@code rate} or {@code fieldCount}. */
    public String field() {
        return field;
    }
}
