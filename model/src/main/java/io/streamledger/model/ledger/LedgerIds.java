package io.streamledger.model.ledger;

import io.streamledger.model.shard.Sha256;

/**
 * Deterministic ledger identities (AP08 step 4, AP10): a transaction's id is a function of tenant +
 * source business id, not of the attempt, so the repair worker and a replaying job rediscover the
 * same transaction. One namespace for transactions admitted over HTTP and fills posted by the job.
 */
public final class LedgerIds {

    private static final String TRADE_PREFIX = "TRADE:";
    private static final String BUST_PREFIX = "BUST:";

    private LedgerIds() {}

    /** {@code t-} + first 32 hex chars of SHA-256(UTF-8("txn\n" + tenant + "\n" + sourceId)). */
    public static String txnId(String tenant, String sourceId) {
        return "t-" + Sha256.hex("txn\n" + tenant + "\n" + sourceId).substring(0, 32);
    }

    /** Source business id of a fill's transaction: {@code TRADE:<tradeId>}. */
    public static String tradeSourceId(String tradeId) {
        return TRADE_PREFIX + tradeId;
    }

    /** The transaction of a fill: {@code txnId(tenant, tradeSourceId(tradeId))}. */
    public static String tradeTxnId(String tenant, String tradeId) {
        return txnId(tenant, tradeSourceId(tradeId));
    }

    /** True for the source id of a fill's transaction. */
    public static boolean isTradeSource(String sourceId) {
        return sourceId.startsWith(TRADE_PREFIX);
    }

    /** The tradeId of a fill's source id {@code TRADE:<tradeId>}. */
    public static String tradeIdOf(String tradeSourceId) {
        if (!isTradeSource(tradeSourceId)) {
            throw new IllegalArgumentException("not a trade source id: " + tradeSourceId);
        }
        return tradeSourceId.substring(TRADE_PREFIX.length());
    }

    /** Source business id of the transaction that busts a fill: {@code BUST:<tradeId>}. */
    public static String bustSourceId(String tradeId) {
        return BUST_PREFIX + tradeId;
    }

    public static boolean isBustSource(String sourceId) {
        return sourceId.startsWith(BUST_PREFIX);
    }
}
