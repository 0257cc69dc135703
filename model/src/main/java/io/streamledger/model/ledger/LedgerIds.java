package io.streamledger.model.ledger;

import io.streamledger.model.shard.Sha256;

/**
 * Deterministic ledger identities (AP08 step 4, AP10): a transaction's id is a function of tenant +
 * source business id, not of the attempt, so the repair worker and a replaying job rediscover the
 * same transaction. One namespace for transactions admitted over HTTP and fills posted by the job.
 */
public final class LedgerIds {

    private LedgerIds() {}

    /** {@code t-} + first 32 hex chars of SHA-256(UTF-8("txn\n" + tenant + "\n" + sourceId)). */
    public static String txnId(String tenant, String sourceId) {
        return "t-" + Sha256.hex("txn\n" + tenant + "\n" + sourceId).substring(0, 32);
    }

    /** Source business id of a fill's transaction: {@code TRADE:<tradeId>}. */
    public static String tradeSourceId(String tradeId) {
        return "TRADE:" + tradeId;
    }

    /** The transaction of a fill: {@code txnId(tenant, tradeSourceId(tradeId))}. */
    public static String tradeTxnId(String tenant, String tradeId) {
        return txnId(tenant, tradeSourceId(tradeId));
    }
}
