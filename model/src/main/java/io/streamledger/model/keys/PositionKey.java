package io.streamledger.model.keys;

import java.util.List;

/**
 * IDX07 (AP07) Portfolio view position (rebuildable projection, never authority): {@code
 * TEN#t#ACCT#a / POS#symbol}.
 *
 * @param tenant {@code t}
 * @param account {@code a}
 * @param symbol instrument {@code symbol}
 */
public record PositionKey(String tenant, String account, String symbol) implements ItemKey {
    public PositionKey {
        KeyComponents.require("t", tenant);
        KeyComponents.require("a", account);
        KeyComponents.require("symbol", symbol);
    }

    public static PositionKey parse(String pk, String sk) {
        List<String> p = KeyPaths.IDX07_PK.match(pk);
        List<String> s = KeyPaths.IDX07_SK.match(sk);
        return new PositionKey(p.get(0), p.get(1), s.get(0));
    }

    @Override
    public String indexId() {
        return "IDX07";
    }

    @Override
    public String pk() {
        return KeyPaths.IDX07_PK.build(tenant, account);
    }

    @Override
    public String sk() {
        return KeyPaths.IDX07_SK.build(symbol);
    }
}
