package io.streamledger.command.ops;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.streamledger.aws.items.BreakView;
import io.streamledger.command.api.StrictJson;

/** The one JSON shape of an AP15 break and of a due-queue page, for HTTP and the CLI. */
public final class BreakDocs {

    private BreakDocs() {}

    public static ObjectNode entry(BreakView v) {
        ObjectNode o = StrictJson.MAPPER.createObjectNode();
        o.put("id", BreakRef.format(v.batchId(), v.breakId()));
        o.put("tenant", v.tenant());
        o.put("batchId", v.batchId());
        o.put("breakId", v.breakId());
        o.put("reason", v.reason());
        o.put("evidenceRule", ruleName(v.reason()));
        o.put("origin", v.origin());
        o.put("subject", v.subject());
        o.put("status", v.status().name());
        o.put("owner", v.owner());
        o.put("detectedAt", v.detectedAt());
        o.put("dueAt", v.dueAt());
        o.put("version", v.version());
        o.set("evidence", json(v.evidence()));
        o.put("resolvedBy", v.resolvedBy());
        o.put("resolvedAt", v.resolvedAt());
        o.set("resolution", json(v.resolutionEvidence()));
        return o;
    }

    public static ObjectNode page(BreakRepository.Page p) {
        ObjectNode o = StrictJson.MAPPER.createObjectNode();
        ArrayNode items = o.putArray("items");
        for (DueBreak d : p.items()) {
            items.addObject()
                    .put("id", BreakRef.format(d.batchId(), d.breakId()))
                    .put("batchId", d.batchId())
                    .put("breakId", d.breakId())
                    .put("status", d.status())
                    .put("dueAt", d.dueAt())
                    .put("shard", d.shard());
        }
        o.put("cursor", p.cursor());
        o.put("consistency", "eventual");
        return o;
    }

    private static String ruleName(String reason) {
        LedgerEvidence.Rule r = LedgerEvidence.RULES.get(reason);
        return r == null ? null : r.name();
    }

    /** Stored JSON as JSON; free text written before evidence was structured stays text. */
    private static JsonNode json(String stored) {
        if (stored == null) {
            return StrictJson.MAPPER.nullNode();
        }
        try {
            return StrictJson.MAPPER.readTree(stored);
        } catch (Exception e) {
            return StrictJson.MAPPER.getNodeFactory().textNode(stored);
        }
    }
}
