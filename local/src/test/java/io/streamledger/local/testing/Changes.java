package io.streamledger.local.testing;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.streamledger.local.spi.ItemChange;
import java.time.Instant;

/** Builds ItemChange values in wire form for unit tests that call a CommitListener directly. */
public final class Changes {
    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

    private Changes() {}

    public static ObjectNode key(String pk) {
        ObjectNode k = JSON.objectNode();
        k.putObject("PK").put("S", pk);
        return k;
    }

    public static ObjectNode item(String pk, long version) {
        ObjectNode i = key(pk);
        i.putObject("version").put("N", Long.toString(version));
        return i;
    }

    public static ItemChange insert(String table, String pk, Instant at) {
        return new ItemChange(
                table,
                ItemChange.EventName.INSERT,
                key(pk),
                null,
                item(pk, 1),
                20,
                null,
                false,
                at);
    }

    public static ItemChange modify(String table, String pk, long from, long to, Instant at) {
        return new ItemChange(
                table,
                ItemChange.EventName.MODIFY,
                key(pk),
                item(pk, from),
                item(pk, to),
                20,
                null,
                false,
                at);
    }

    public static ItemChange ttlDelete(String table, String pk, Instant at) {
        return new ItemChange(
                table, ItemChange.EventName.REMOVE, key(pk), item(pk, 1), null, 20, null, true, at);
    }

    public static ItemChange inTransaction(ItemChange c, String txId) {
        return new ItemChange(
                c.table(),
                c.eventName(),
                c.keys(),
                c.oldImage(),
                c.newImage(),
                c.sizeBytes(),
                txId,
                c.serviceDelete(),
                c.committedAt());
    }
}
