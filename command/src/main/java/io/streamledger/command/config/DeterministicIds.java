package io.streamledger.command.config;

import io.streamledger.command.idempotency.Fingerprint;

/**
 * Deterministic identities (seed AP08 step 4, AP10): an effect can be rediscovered by the repair
 * worker because its id is a function of the business identity, not of the attempt. Ledger
 * transaction ids are {@link io.streamledger.model.ledger.LedgerIds#txnId}.
 */
public final class DeterministicIds {

    private DeterministicIds() {}

    /** One order per tenant + clientOrderId (AP17). */
    public static String orderId(String tenant, String clientOrderId) {
        return "o-"
                + Fingerprint.sha256Hex("order\n" + tenant + "\n" + clientOrderId).substring(0, 32);
    }

    /** One outbox event per aggregate version and event type (AP16). */
    public static String eventId(String aggregateId, String eventType, long aggregateVersion) {
        return "e-"
                + Fingerprint.sha256Hex(
                                "event\n"
                                        + aggregateId
                                        + "\n"
                                        + eventType
                                        + "\n"
                                        + aggregateVersion)
                        .substring(0, 32);
    }
}
