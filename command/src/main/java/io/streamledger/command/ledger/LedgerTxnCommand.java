package io.streamledger.command.ledger;

import io.streamledger.command.api.ApiException;
import io.streamledger.command.api.Fields;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.annotation.Nullable;

/**
 * A validated POST /v1/ledger/transactions body (AP10, CS11): 2-20 postings, balanced per asset; or
 * a reversal ({@code reversalOf}) whose postings are the negation of the original's.
 */
public record LedgerTxnCommand(
        String sourceId,
        @Nullable String description,
        @Nullable String reversalOf,
        List<PostingLine> postings) {

    public static final String OPERATION = "PostLedgerTransaction";
    public static final int SCHEMA_VERSION = 1;
    public static final int MAX_POSTINGS = 20;

    public static LedgerTxnCommand parse(Fields f) {
        String sourceId = f.id("sourceId");
        String description = f.optionalText("description", 200);
        String reversalOf = f.optionalId("reversalOf");
        List<PostingLine> postings = new ArrayList<>();
        if (reversalOf == null) {
            int line = 1;
            for (Fields p : f.objects("postings", 2, MAX_POSTINGS)) {
                String account = p.id("accountId");
                Asset asset = Asset.parse(p);
                BigDecimal amount =
                        asset.exact("postings[" + (line - 1) + "].amount", p.decimal("amount"));
                p.rejectUnknown();
                postings.add(new PostingLine(line++, account, asset, amount));
            }
        }
        f.rejectUnknown();
        if (reversalOf != null && reversalOf.equals(sourceId)) {
            throw ApiException.badRequest("INVALID_FIELD", "a transaction cannot reverse itself");
        }
        LedgerTxnCommand c = new LedgerTxnCommand(sourceId, description, reversalOf, postings);
        if (reversalOf == null) {
            LedgerRules.requireBalanced(postings);
        }
        return c;
    }

    public String requestKey() {
        return "LEDGER:" + sourceId;
    }

    public Map<String, Object> canonical() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("sourceId", sourceId);
        m.put("description", description);
        m.put("reversalOf", reversalOf);
        List<Map<String, Object>> ps = new ArrayList<>();
        for (PostingLine p : postings) {
            Map<String, Object> pm = new LinkedHashMap<>();
            pm.put("accountId", p.accountId());
            pm.put("asset", p.asset().toString());
            pm.put("amount", p.amount());
            ps.add(pm);
        }
        m.put("postings", ps);
        return m;
    }
}
