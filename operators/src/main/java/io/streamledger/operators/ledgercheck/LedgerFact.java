package io.streamledger.operators.ledgercheck;

import io.streamledger.model.change.Operation;

/**
 * One Ledger-table change reduced to what the ledger checks need (CS11; IDX10 postings, IDX11 AP12
 * authorities, the account-month counter): a flat POJO so no attribute-value map crosses a network
 * edge. Amounts are exact decimal strings; absent numbers are -1 (versions) or 0 (line count
 * unknown).
 */
public class LedgerFact {

    public FactKind kind;
    public Operation operation;

    /** The change record's id (stable on redelivery through one transport). */
    public String eventId;

    /** ApproximateCreationDateTime of the change, epoch millis. */
    public long eventTimeMillis;

    public String tenant;
    public String account;
    public String pk;
    public String sk;

    /** CASH or SEC and the currency or symbol (postings and authorities). */
    public String assetType;

    public String asset;

    // ---- postings ----
    public String txnId;
    public int line;

    /** Lines of the whole transaction, 0 when the posting does not carry it. */
    public int lineCount;

    public String amount;

    /** The previous amount for a MODIFY of a posting (evidence only). */
    public String oldAmount;

    /** yyyy-MM of the posting's bucket. */
    public String month;

    /** Account-month sequence number of the posting, -1 when absent. */
    public long sequence = -1;

    // ---- authorities ----
    public long version = -1;

    /** Version of the old image; 0 for an INSERT; -1 when the old image is missing. */
    public long oldVersion = -1;

    public String posted;

    /** posted of the old image; "0" for an INSERT; null when the old image is missing. */
    public String oldPosted;

    public String reserved;

    /** Admitted fills not yet posted (AP12 {@code pending}); "0" when absent. */
    public String pending;

    public String available;
    public String lastTxnId;

    // ---- month counters ----
    public long monthCount = -1;

    // ---- transaction totals (TXN_TOTAL: amount = the sum on this account+asset) ----
    /** Line numbers the total covers, comma-terminated ({@code "1,3,"}). */
    public String lines;

    /** False when the transaction was decided before all its declared lines arrived. */
    public boolean complete;

    /** For Flink's POJO serializer. */
    public LedgerFact() {}

    /** Key of the per-transaction checks: tenant + txnId. */
    public String txnKey() {
        return tenant + "/" + txnId;
    }

    /**
     * Key of the per-authority checks: tenant/account/assetType/asset, the spelling of the
     * projection's source key.
     */
    public String authorityKey() {
        return tenant + "/" + account + "/" + assetType + "/" + asset;
    }

    /**
     * The balance check's total of one decided transaction on one account+asset, for the control
     * total of that account's authority.
     */
    public static LedgerFact total(
            String tenant,
            String txnId,
            String account,
            String assetType,
            String asset,
            String sum,
            String lines,
            boolean complete,
            long eventTimeMillis) {
        LedgerFact f = new LedgerFact();
        f.kind = FactKind.TXN_TOTAL;
        f.operation = Operation.INSERT;
        f.tenant = tenant;
        f.txnId = txnId;
        f.account = account;
        f.assetType = assetType;
        f.asset = asset;
        f.amount = sum;
        f.lines = lines;
        f.complete = complete;
        f.eventTimeMillis = eventTimeMillis;
        return f;
    }

    @Override
    public String toString() {
        return kind + " " + operation + " " + pk + " / " + sk;
    }
}
