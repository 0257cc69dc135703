package io.streamledger.model.keys;

import java.time.Instant;
import java.util.List;

/**
 * IDX06 (AP06) Execution GSI2 symbol trade history, unsharded under the seed's 8% top-symbol
 * planning share: {@code TEN#t#SYM#symbol / TRADE#at#id}.
 *
 * @param tenant {@code t}
 * @param symbol instrument {@code symbol}
 * @param at fill time, millisecond precision
 * @param tradeId {@code id}
 */
public record TradeBySymbolKey(String tenant, String symbol, Instant at, String tradeId)
        implements ItemKey {
    public TradeBySymbolKey {
        KeyComponents.require("t", tenant);
        KeyComponents.require("symbol", symbol);
        at = KeyTime.normalise("at", at);
        KeyComponents.require("id", tradeId);
    }

    public static TradeBySymbolKey parse(String pk, String sk) {
        List<String> p = KeyPaths.IDX06_PK.match(pk);
        List<String> s = KeyPaths.IDX06_SK.match(sk);
        return new TradeBySymbolKey(p.get(0), p.get(1), KeyTime.parse("at", s.get(0)), s.get(1));
    }

    @Override
    public String indexId() {
        return "IDX06";
    }

    @Override
    public String pk() {
        return KeyPaths.IDX06_PK.build(tenant, symbol);
    }

    @Override
    public String sk() {
        return KeyPaths.IDX06_SK.build(KeyTime.format(at), tradeId);
    }
}
