package io.streamledger.command.idempotency;

/**
 * The response stored with a COMPLETED AP08 record and replayed verbatim to every retry.
 *
 * @param status HTTP status of the first completion
 * @param body the response document (JSON) without per-request metadata
 */
public record DurableResponse(int status, String body) {
    public String digest() {
        return Fingerprint.sha256Hex(status + "\n" + body);
    }
}
