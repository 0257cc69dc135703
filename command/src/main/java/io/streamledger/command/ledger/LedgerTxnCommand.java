package io.streamledger.command.ledger;

import com.fasterxml.jackson.databind.JsonNode;
import io.streamledger.command.api.ApiException;
import io.streamledger.command.api.Fields;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.format.DateTimeParseException;
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
        List<PostingLine> postings,
        @Nullable LedgerTxnReader.Location original) {

    public static final String OPERATION = "PostLedgerTransaction";
    public static final int SCHEMA_VERSION = 1;
    public static final int MAX_POSTINGS = 20;

    public static LedgerTxnCommand parse(Fields f) {
        String sourceId = f.id("sourceId");
        String description = f.optionalText("description", 200);
        String reversalOf = f.optionalId("reversalOf");
        LedgerTxnReader.Location original = null;
        List<String> originalAccounts =
                f.optionalTexts("originalAccounts", LedgerTxnReader.MAX_ACCOUNTS, 64);
        String originalPostedAt = f.optionalText("originalPostedAt", 40);
        if ((originalPostedAt == null) != originalAccounts.isEmpty()) {
            throw ApiException.badRequest(
                    "INVALID_FIELD",
                    "'originalPostedAt' and 'originalAccounts' locate the original together");
        }
        if (originalPostedAt != null) {
            if (reversalOf == null) {
                throw ApiException.badRequest(
                        "INVALID_FIELD", "'originalPostedAt' belongs to a reversal");
            }
            originalAccounts.forEach(a -> Fields.checkId("originalAccounts[]", a));
            original = new LedgerTxnReader.Location(instant(originalPostedAt), originalAccounts);
        }
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
        LedgerTxnCommand c =
                new LedgerTxnCommand(sourceId, description, reversalOf, postings, original);
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
        if (original != null) {
            // only when given, so the fingerprint of a request without it is unchanged
            m.put("originalPostedAt", original.at().toString());
            m.put("originalAccounts", original.accounts());
        }
        return m;
    }

    /** The original's location in a stored canonical command, null when it named none. */
    static @Nullable LedgerTxnReader.Location location(JsonNode canonical) {
        if (!canonical.hasNonNull("originalPostedAt")) {
            return null;
        }
        List<String> accounts = new ArrayList<>();
        canonical.get("originalAccounts").forEach(a -> accounts.add(a.textValue()));
        return new LedgerTxnReader.Location(
                Instant.parse(canonical.get("originalPostedAt").textValue()), accounts);
    }

    private static Instant instant(String s) {
        try {
            return Instant.parse(s);
        } catch (DateTimeParseException e) {
            throw ApiException.badRequest(
                    "INVALID_FIELD", "'originalPostedAt' must be an ISO-8601 UTC instant");
        }
    }
}
