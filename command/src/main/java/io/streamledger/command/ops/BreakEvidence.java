package io.streamledger.command.ops;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.streamledger.command.api.ApiException;
import io.streamledger.command.api.Fields;
import io.streamledger.command.api.StrictJson;
import java.util.List;
import javax.annotation.Nullable;

/**
 * The structured evidence an operator cites to resolve an AP15 break: ledger transactions, their
 * posting items (IDX10 keys), an AP12 authority version and a note; {@link LedgerEvidence} checks
 * it against the ledger before the resolve is written.
 */
public record BreakEvidence(
        List<String> txnIds,
        List<PostingKey> postingKeys,
        @Nullable Long authorityVersion,
        String note) {

    /** Most txn ids / posting keys one resolve may cite (each posting key is one strong read). */
    public static final int MAX_REFERENCES = 20;

    public static final int MAX_NOTE = 1000;

    /** One IDX10 posting item's primary key. */
    public record PostingKey(String pk, String sk) {}

    public BreakEvidence {
        txnIds = List.copyOf(txnIds);
        postingKeys = List.copyOf(postingKeys);
        if (txnIds.size() > MAX_REFERENCES || postingKeys.size() > MAX_REFERENCES) {
            throw ApiException.badRequest(
                    "INVALID_FIELD",
                    "evidence cites at most " + MAX_REFERENCES + " txnIds/postingKeys");
        }
        if (note == null || note.isBlank()) {
            throw ApiException.badRequest(
                    "MISSING_FIELD", "required field 'evidence.note' is missing");
        }
        if (note.length() > MAX_NOTE) {
            throw ApiException.badRequest(
                    "INVALID_FIELD", "field 'evidence.note' is longer than " + MAX_NOTE);
        }
    }

    /**
     * Reads {@code {"txnIds":[..],"postingKeys":[{"pk","sk"}],"authorityVersion":n,"note":".."}}.
     */
    public static BreakEvidence parse(Fields f) {
        List<String> txns = f.optionalTexts("txnIds", MAX_REFERENCES, 64);
        List<PostingKey> keys =
                f.optionalObjects("postingKeys", MAX_REFERENCES).stream()
                        .map(
                                k -> {
                                    PostingKey p = new PostingKey(k.text("pk"), k.text("sk"));
                                    k.rejectUnknown();
                                    return p;
                                })
                        .toList();
        Long version = f.optionalLong("authorityVersion");
        String note = f.optionalText("note", MAX_NOTE);
        f.rejectUnknown();
        return new BreakEvidence(txns, keys, version, note);
    }

    public ObjectNode toJson() {
        ObjectNode o = StrictJson.MAPPER.createObjectNode();
        ArrayNode t = o.putArray("txnIds");
        txnIds.forEach(t::add);
        ArrayNode k = o.putArray("postingKeys");
        postingKeys.forEach(p -> k.addObject().put("pk", p.pk()).put("sk", p.sk()));
        if (authorityVersion != null) {
            o.put("authorityVersion", authorityVersion);
        }
        o.put("note", note);
        return o;
    }
}
