package io.streamledger.model.keys;

import java.util.List;

/**
 * IDX16 (AP16) semantic outbox envelope in the Context table: {@code OUTBOX#eventId / EVENT}.
 *
 * @param eventId stable business event id
 */
public record OutboxKey(String eventId) implements ItemKey {
    public OutboxKey {
        KeyComponents.require("eventId", eventId);
    }

    public static OutboxKey parse(String pk, String sk) {
        KeyPaths.IDX16_SK.match(sk);
        List<String> p = KeyPaths.IDX16_PK.match(pk);
        return new OutboxKey(p.get(0));
    }

    @Override
    public String indexId() {
        return "IDX16";
    }

    @Override
    public String pk() {
        return KeyPaths.IDX16_PK.build(eventId);
    }

    @Override
    public String sk() {
        return KeyPaths.IDX16_SK.build();
    }
}
