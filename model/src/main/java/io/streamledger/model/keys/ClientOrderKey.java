package io.streamledger.model.keys;

import java.util.List;

/**
 * IDX18 (AP17) client-order uniqueness sentinel, condition-created in the accept transaction:
 * {@code TEN#t#CLIENTORDER#id / UNIQUE}.
 *
 * @param tenant {@code t}
 * @param clientOrderId {@code id}
 */
public record ClientOrderKey(String tenant, String clientOrderId) implements ItemKey {
    public ClientOrderKey {
        KeyComponents.require("t", tenant);
        KeyComponents.require("id", clientOrderId);
    }

    public static ClientOrderKey parse(String pk, String sk) {
        KeyPaths.IDX18_SK.match(sk);
        List<String> p = KeyPaths.IDX18_PK.match(pk);
        return new ClientOrderKey(p.get(0), p.get(1));
    }

    @Override
    public String indexId() {
        return "IDX18";
    }

    @Override
    public String pk() {
        return KeyPaths.IDX18_PK.build(tenant, clientOrderId);
    }

    @Override
    public String sk() {
        return KeyPaths.IDX18_SK.build();
    }
}
