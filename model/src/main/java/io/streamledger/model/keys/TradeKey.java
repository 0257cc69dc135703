package io.streamledger.model.keys;

import java.time.Instant;
import java.util.List;

/**
 * IDX04 (AP04) Execution base item collection of an order's fills: {@code TEN#t#ORDER#id /
 * TRADE#at#id}.
 *
 * @param tenant {@code t}
 * @param orderId the order {@code id} of the PK
 * @param at fill time, millisecond precision
 * @param tradeId the trade {@code id} of the SK
 */
public record TradeKey(String tenant, String orderId, Instant at, String tradeId)
        implements ItemKey {
    public TradeKey {
        KeyComponents.require("t", tenant);
        KeyComponents.require("id", orderId);
        at = KeyTime.normalise("at", at);
        KeyComponents.require("id", tradeId);
    }

    public static TradeKey parse(String pk, String sk) {
        List<String> p = KeyPaths.IDX04_PK.match(pk);
        List<String> s = KeyPaths.IDX04_SK.match(sk);
        return new TradeKey(p.get(0), p.get(1), KeyTime.parse("at", s.get(0)), s.get(1));
    }

    @Override
    public String indexId() {
        return "IDX04";
    }

    @Override
    public String pk() {
        return KeyPaths.IDX04_PK.build(tenant, orderId);
    }

    @Override
    public String sk() {
        return KeyPaths.IDX04_SK.build(KeyTime.format(at), tradeId);
    }
}
