package io.streamledger.command.idempotency;

/** The effect's transaction found the AP08 record no longer owned by this attempt. */
public final class OwnershipLostException extends RuntimeException {
    public OwnershipLostException() {
        super("the request record is no longer owned by this attempt", null, false, false);
    }
}
