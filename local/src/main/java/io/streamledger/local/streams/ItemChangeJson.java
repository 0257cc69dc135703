package io.streamledger.local.streams;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.streamledger.local.spi.ItemChange;
import java.time.Instant;

/** ItemChange to and from the compact JSON the streams journal stores (CS07). */
final class ItemChangeJson {
    private ItemChangeJson() {}

    static ObjectNode write(ItemChange c) {
        ObjectNode o = JsonNodeFactory.instance.objectNode();
        o.put("t", c.table());
        o.put("e", c.eventName().name());
        o.set("k", c.keys());
        if (c.oldImage() != null) {
            o.set("o", c.oldImage());
        }
        if (c.newImage() != null) {
            o.set("n", c.newImage());
        }
        o.put("s", c.sizeBytes());
        if (c.transactionId() != null) {
            o.put("x", c.transactionId());
        }
        if (c.serviceDelete()) {
            o.put("d", true);
        }
        o.put("c", c.committedAt().toString());
        return o;
    }

    static ItemChange read(JsonNode o) {
        return new ItemChange(
                o.path("t").asText(),
                ItemChange.EventName.valueOf(o.path("e").asText()),
                (ObjectNode) o.get("k"),
                o.hasNonNull("o") ? (ObjectNode) o.get("o") : null,
                o.hasNonNull("n") ? (ObjectNode) o.get("n") : null,
                o.path("s").asLong(),
                o.hasNonNull("x") ? o.get("x").asText() : null,
                o.path("d").asBoolean(false),
                Instant.parse(o.path("c").asText()));
    }
}
