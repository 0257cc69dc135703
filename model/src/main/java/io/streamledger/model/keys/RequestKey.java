package io.streamledger.model.keys;

import java.util.List;

/**
 * IDX08 (AP08) durable idempotency request record: {@code TEN#t#REQ#key / REQUEST}.
 *
 * @param tenant {@code t}
 * @param clientKey the client's idempotency {@code key}
 */
public record RequestKey(String tenant, String clientKey) implements ItemKey {
    public RequestKey {
        KeyComponents.require("t", tenant);
        KeyComponents.require("key", clientKey);
    }

    public static RequestKey parse(String pk, String sk) {
        KeyPaths.IDX08_SK.match(sk);
        List<String> p = KeyPaths.IDX08_PK.match(pk);
        return new RequestKey(p.get(0), p.get(1));
    }

    @Override
    public String indexId() {
        return "IDX08";
    }

    @Override
    public String pk() {
        return KeyPaths.IDX08_PK.build(tenant, clientKey);
    }

    @Override
    public String sk() {
        return KeyPaths.IDX08_SK.build();
    }
}
