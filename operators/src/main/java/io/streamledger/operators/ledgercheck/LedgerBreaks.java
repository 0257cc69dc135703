package io.streamledger.operators.ledgercheck;

import io.streamledger.operators.recon.BreakRecord;
import io.streamledger.operators.recon.Evidence;

/**
 * Builds ledger-check breaks (AP15): id = reason + the facts that identify the violation (never a
 * processing time), batch = the daily LEDGER-CHECK batch of the event time, so replays repeat the
 * very same record.
 */
final class LedgerBreaks {

    private LedgerBreaks() {}

    static BreakRecord of(
            LedgerCheckReason reason,
            String tenant,
            long eventTimeMillis,
            String subject,
            Evidence evidence,
            Object... idParts) {
        Object[] parts = new Object[idParts.length + 1];
        parts[0] = reason.name();
        System.arraycopy(idParts, 0, parts, 1, idParts.length);
        return new BreakRecord(
                tenant,
                BreakRecord.dailyBatch(BreakRecord.Origin.LEDGER_CHECK, eventTimeMillis),
                BreakRecord.id(parts),
                reason.name(),
                BreakRecord.Origin.LEDGER_CHECK,
                eventTimeMillis,
                subject,
                evidence.put("reason", reason.name()).json());
    }
}
