package io.streamledger.model.keys;

import java.time.Instant;
import java.util.List;

/**
 * IDX05 (AP05) Execution GSI1 account trade history: {@code TEN#t#ACCT#a / TRADE#at#id}.
 *
 * @param tenant {@code t}
 * @param account {@code a}
 * @param at fill time, millisecond precision
 * @param tradeId {@code id}
 */
public record TradeByAccountKey(String tenant, String account, Instant at, String tradeId)
        implements ItemKey {
    public TradeByAccountKey {
        KeyComponents.require("t", tenant);
        KeyComponents.require("a", account);
        at = KeyTime.normalise("at", at);
        KeyComponents.require("id", tradeId);
    }

    public static TradeByAccountKey parse(String pk, String sk) {
        List<String> p = KeyPaths.IDX05_PK.match(pk);
        List<String> s = KeyPaths.IDX05_SK.match(sk);
        return new TradeByAccountKey(p.get(0), p.get(1), KeyTime.parse("at", s.get(0)), s.get(1));
    }

    @Override
    public String indexId() {
        return "IDX05";
    }

    @Override
    public String pk() {
        return KeyPaths.IDX05_PK.build(tenant, account);
    }

    @Override
    public String sk() {
        return KeyPaths.IDX05_SK.build(KeyTime.format(at), tradeId);
    }
}
