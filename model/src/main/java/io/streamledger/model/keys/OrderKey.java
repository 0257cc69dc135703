package io.streamledger.model.keys;

import java.util.List;

/**
 * IDX01 (AP01) order aggregate root in Orders: {@code TEN#t#ORDER#id / META}.
 *
 * @param tenant tenant id {@code t}
 * @param orderId order id {@code id}
 */
public record OrderKey(String tenant, String orderId) implements ItemKey {
    public OrderKey {
        KeyComponents.require("t", tenant);
        KeyComponents.require("id", orderId);
    }

    public static OrderKey parse(String pk, String sk) {
        KeyPaths.IDX01_SK.match(sk);
        List<String> p = KeyPaths.IDX01_PK.match(pk);
        return new OrderKey(p.get(0), p.get(1));
    }

    @Override
    public String indexId() {
        return "IDX01";
    }

    @Override
    public String pk() {
        return KeyPaths.IDX01_PK.build(tenant, orderId);
    }

    @Override
    public String sk() {
        return KeyPaths.IDX01_SK.build();
    }
}
