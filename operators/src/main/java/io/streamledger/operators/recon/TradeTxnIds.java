package io.streamledger.operators.recon;

import io.streamledger.operators.posting.PostingIds;

/** The ledger txnId a fill must have (AP10 deterministic ids): f(tenant, "TRADE:" + tradeId). */
public final class TradeTxnIds {
    private TradeTxnIds() {}

    public static String txnId(String tenant, String tradeId) {
        return PostingIds.txnId(tenant, PostingIds.tradeSourceId(tradeId));
    }
}
