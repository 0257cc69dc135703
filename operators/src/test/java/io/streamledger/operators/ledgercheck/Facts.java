package io.streamledger.operators.ledgercheck;

import io.streamledger.model.change.Operation;

/** Small builders of ledger facts for the check tests. */
final class Facts {

    static final String T = "t1";
    static final long EVENT_TIME = 1_764_460_800_000L; // 2025-11-30T00:00:00Z

    private Facts() {}

    static LedgerFact posting(
            String txn, int line, int lineCount, String account, String ccy, String amount) {
        LedgerFact f = new LedgerFact();
        f.kind = FactKind.POSTING;
        f.operation = Operation.INSERT;
        f.eventId = "ev-" + txn + "-" + line;
        f.eventTimeMillis = EVENT_TIME;
        f.tenant = T;
        f.account = account;
        f.pk = "TEN#t1#ACCT#" + account + "#MONTH#2025-11#BKT#00";
        f.sk = "POST#2025-11-30T00:00:00.000Z#" + txn + "#" + line;
        f.assetType = "CASH";
        f.asset = ccy;
        f.txnId = txn;
        f.line = line;
        f.lineCount = lineCount;
        f.amount = amount;
        f.month = "2025-11";
        f.sequence = line;
        return f;
    }

    /** The balance check's total of a decided transaction on one cash account. */
    static LedgerFact total(String txn, String account, String ccy, String sum, String lines) {
        return LedgerFact.total(T, txn, account, "CASH", ccy, sum, lines, true, EVENT_TIME);
    }

    static LedgerFact authority(
            String account,
            String ccy,
            long oldVersion,
            long version,
            String oldPosted,
            String posted,
            String reserved,
            String available,
            String txn) {
        LedgerFact f = new LedgerFact();
        f.kind = FactKind.AUTHORITY;
        f.operation = oldVersion == 0 ? Operation.INSERT : Operation.MODIFY;
        f.eventId = "ev-auth-" + account + "-" + version;
        f.eventTimeMillis = EVENT_TIME;
        f.tenant = T;
        f.account = account;
        f.pk = "TEN#t1#ACCT#" + account;
        f.sk = "AUTH#CASH#" + ccy;
        f.assetType = "CASH";
        f.asset = ccy;
        f.version = version;
        f.oldVersion = oldVersion;
        f.oldPosted = oldPosted;
        f.posted = posted;
        f.reserved = reserved;
        f.available = available;
        f.lastTxnId = txn;
        return f;
    }
}
