package io.streamledger.model.keys;

import java.time.Instant;
import java.util.List;

/**
 * IDX06 (AP06) Execution GSI2 symbol trade history: unsharded {@code TEN#t#SYM#symbol /
 * TRADE#at#id} under the seed's 8% top-symbol planning share, or, where AP06 write sharding is
 * configured ({@link io.streamledger.model.shard.SymbolSharding}), the seed's fallback {@code
 * TEN#t#SYM#symbol#SHARD#h(eventId)%N / TRADE#at#id}.
 *
 * @param tenant {@code t}
 * @param symbol instrument {@code symbol}
 * @param shard {@code h(eventId)%N}, or {@link #UNSHARDED} for the seed's unsharded key
 * @param at fill time, millisecond precision
 * @param tradeId {@code id}
 */
public record TradeBySymbolKey(String tenant, String symbol, int shard, Instant at, String tradeId)
        implements ItemKey {
    /** The shard value of the unsharded key {@code TEN#t#SYM#symbol}. */
    public static final int UNSHARDED = -1;

    public TradeBySymbolKey {
        KeyComponents.require("t", tenant);
        KeyComponents.require("symbol", symbol);
        if (shard != UNSHARDED) {
            KeyFields.requireRange("h(eventId)%N", shard, 0, KeyFields.MAX_SHARD);
        }
        at = KeyTime.normalise("at", at);
        KeyComponents.require("id", tradeId);
    }

    /** The unsharded key. */
    public TradeBySymbolKey(String tenant, String symbol, Instant at, String tradeId) {
        this(tenant, symbol, UNSHARDED, at, tradeId);
    }

    public static TradeBySymbolKey parse(String pk, String sk) {
        List<String> s = KeyPaths.IDX06_SK.match(sk);
        Instant at = KeyTime.parse("at", s.get(0));
        if (KeyPaths.IDX06_PK_SHARDED.matches(pk)) {
            List<String> p = KeyPaths.IDX06_PK_SHARDED.match(pk);
            return new TradeBySymbolKey(
                    p.get(0),
                    p.get(1),
                    KeyFields.parseShard("h(eventId)%N", p.get(2)),
                    at,
                    s.get(1));
        }
        List<String> p = KeyPaths.IDX06_PK.match(pk);
        return new TradeBySymbolKey(p.get(0), p.get(1), at, s.get(1));
    }

    /** The partition a symbol's shard reads: the unsharded key for {@link #UNSHARDED}. */
    public static String partition(String tenant, String symbol, int shard) {
        return shard == UNSHARDED
                ? KeyPaths.IDX06_PK.build(tenant, symbol)
                : KeyPaths.IDX06_PK_SHARDED.build(
                        tenant, symbol, KeyFields.shard("h(eventId)%N", shard));
    }

    /** True for a key under {@code #SHARD#}. */
    public boolean sharded() {
        return shard != UNSHARDED;
    }

    @Override
    public String indexId() {
        return "IDX06";
    }

    @Override
    public String pk() {
        return partition(tenant, symbol, shard);
    }

    @Override
    public String sk() {
        return KeyPaths.IDX06_SK.build(KeyTime.format(at), tradeId);
    }
}
