package io.streamledger.model.keys;

import java.time.Instant;
import java.util.List;

/**
 * IDX02 (AP02) Orders GSI1 account listing: {@code TEN#t#ACCT#a / ORD#at#id}, newest last in key
 * order (query descending for newest first).
 *
 * @param tenant {@code t}
 * @param account {@code a}
 * @param at order time, millisecond precision (see {@link KeyTime})
 * @param orderId {@code id}
 */
public record OrderByAccountKey(String tenant, String account, Instant at, String orderId)
        implements ItemKey {
    public OrderByAccountKey {
        KeyComponents.require("t", tenant);
        KeyComponents.require("a", account);
        at = KeyTime.normalise("at", at);
        KeyComponents.require("id", orderId);
    }

    public static OrderByAccountKey parse(String pk, String sk) {
        List<String> p = KeyPaths.IDX02_PK.match(pk);
        List<String> s = KeyPaths.IDX02_SK.match(sk);
        return new OrderByAccountKey(p.get(0), p.get(1), KeyTime.parse("at", s.get(0)), s.get(1));
    }

    @Override
    public String indexId() {
        return "IDX02";
    }

    @Override
    public String pk() {
        return KeyPaths.IDX02_PK.build(tenant, account);
    }

    @Override
    public String sk() {
        return KeyPaths.IDX02_SK.build(KeyTime.format(at), orderId);
    }
}
