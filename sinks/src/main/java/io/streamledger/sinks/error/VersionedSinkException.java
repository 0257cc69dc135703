package io.streamledger.sinks.error;

/** A fatal failure of the versioned DynamoDB sink; the job fails over and replays (seed AP13). */
public class VersionedSinkException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public VersionedSinkException(String message, Throwable cause) {
        super(message, cause);
    }

    public VersionedSinkException(String message) {
        super(message);
    }
}
