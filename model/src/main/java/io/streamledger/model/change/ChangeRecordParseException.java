package io.streamledger.model.change;

/**
 * Malformed change-record, attribute-value or outbox-event input: names the JSON path of the
 * offending field (e.g. {@code $.dynamodb.Keys.PK}) so the record can be dead-lettered with its
 * reason. Never a {@code NullPointerException}.
 */
public final class ChangeRecordParseException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final String path;

    public ChangeRecordParseException(String path, String message) {
        super(path + ": " + message);
        this.path = path;
    }

    public ChangeRecordParseException(String path, String message, Throwable cause) {
        super(path + ": " + message, cause);
        this.path = path;
    }

    /** JSON path of the offending field, {@code $} for the whole document. */
    public String path() {
        return path;
    }
}
