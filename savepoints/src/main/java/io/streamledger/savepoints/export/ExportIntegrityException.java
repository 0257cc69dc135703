package io.streamledger.savepoints.export;

/**
 * A DynamoDB export does not match its own manifest (CS09 step 3: validate counts before
 * rebuilding): a missing or unreadable file, a wrong item count, an MD5 mismatch or a malformed
 * line. The message names the file and both figures; nothing is rebuilt from such an export.
 */
public final class ExportIntegrityException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public ExportIntegrityException(String message) {
        super(message);
    }

    public ExportIntegrityException(String message, Throwable cause) {
        super(message, cause);
    }
}
