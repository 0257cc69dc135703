package io.streamledger.model.keys;

import java.time.Instant;
import java.util.List;

/**
 * IDX03 (AP03) Orders GSI2 sparse status membership: {@code TEN#t#ACCT#a#STATUS#s / ORD#at#id};
 * written only while the order is in an active status, removed at a terminal one.
 *
 * @param tenant {@code t}
 * @param account {@code a}
 * @param status {@code s}, e.g. {@code OPEN}
 * @param at order time, millisecond precision
 * @param orderId {@code id}
 */
public record OrderByStatusKey(
        String tenant, String account, String status, Instant at, String orderId)
        implements ItemKey {
    public OrderByStatusKey {
        KeyComponents.require("t", tenant);
        KeyComponents.require("a", account);
        KeyComponents.require("s", status);
        at = KeyTime.normalise("at", at);
        KeyComponents.require("id", orderId);
    }

    public static OrderByStatusKey parse(String pk, String sk) {
        List<String> p = KeyPaths.IDX03_PK.match(pk);
        List<String> s = KeyPaths.IDX03_SK.match(sk);
        return new OrderByStatusKey(
                p.get(0), p.get(1), p.get(2), KeyTime.parse("at", s.get(0)), s.get(1));
    }

    @Override
    public String indexId() {
        return "IDX03";
    }

    @Override
    public String pk() {
        return KeyPaths.IDX03_PK.build(tenant, account, status);
    }

    @Override
    public String sk() {
        return KeyPaths.IDX03_SK.build(KeyTime.format(at), orderId);
    }
}
