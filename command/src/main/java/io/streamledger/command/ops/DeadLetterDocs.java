package io.streamledger.command.ops;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.streamledger.aws.deadletter.DeadLetterView;
import io.streamledger.command.api.StrictJson;

/** The one JSON shape of a dead-letter entry (CS08), printed by the CLI and served over HTTP. */
public final class DeadLetterDocs {

    private DeadLetterDocs() {}

    public static ObjectNode entry(DeadLetterView v) {
        ObjectNode o = StrictJson.MAPPER.createObjectNode();
        o.put("id", v.ref());
        o.put("tenant", v.tenant());
        o.put("job", v.job());
        o.put("operator", v.operator());
        o.put("reason", v.reason().name());
        o.put("detail", v.detail());
        o.put("status", v.status().name());
        o.put("version", v.version());
        if (v.parkedBehind() != null) {
            o.put("parkedBehind", v.parkedBehind());
        }
        o.put("attempts", v.attempts());
        o.put("firstSeen", v.firstSeen().toString());
        o.put("lastSeen", v.lastSeen().toString());
        o.put("origin", v.origin());
        o.put("sourcePosition", v.sourcePosition());
        o.put("aggregateKey", v.aggregateKey());
        o.put("aggregateVersion", v.aggregateVersion());
        o.put("payloadEncoding", v.payloadEncoding());
        o.put("payload", v.payload());
        ArrayNode h = o.putArray("history");
        for (DeadLetterView.Change c : v.history()) {
            ObjectNode e = h.addObject();
            e.put("at", c.at().toString());
            e.put("actor", c.actor());
            e.put("action", c.action());
            e.put("fromStatus", c.fromStatus().name());
            e.put("toStatus", c.toStatus().name());
            e.put("fromVersion", c.fromVersion());
            e.put("note", c.note());
        }
        return o;
    }

    /** A listing page: entries and the cursor of the next page (null on the last). */
    public static ObjectNode page(DeadLetterRepository.Page p) {
        ObjectNode o = StrictJson.MAPPER.createObjectNode();
        ArrayNode items = o.putArray("items");
        p.items().forEach(v -> items.add(entry(v)));
        o.put("cursor", p.cursor());
        return o;
    }
}
