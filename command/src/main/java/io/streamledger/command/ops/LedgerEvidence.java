package io.streamledger.command.ops;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.streamledger.aws.items.Av;
import io.streamledger.aws.items.BreakView;
import io.streamledger.aws.ledger.LedgerItemCodec;
import io.streamledger.command.api.ApiException;
import io.streamledger.command.api.StrictJson;
import io.streamledger.model.keys.AuthorityKey;
import io.streamledger.model.keys.KeyPaths;
import io.streamledger.model.ledger.LedgerSchema;
import io.streamledger.model.table.Attr;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * Checks a resolve's {@link BreakEvidence} against the ledger (AP10 postings, AP12 authorities,
 * strong reads) by the rule of the break's reason (AP15: resolved only with evidence); anything it
 * cannot verify is refused with the reason (422 {@code EVIDENCE_REJECTED}), never accepted.
 */
public final class LedgerEvidence {

    /** How a break reason's evidence is verified; documented per reason in the README. */
    public enum Rule {
        /** The current authority version is cited, newer than the break's, and not negative. */
        NOT_NEGATIVE_OR_CORRECTING_TXN,
        /** The current authority version is cited, newer than the break's, and consistent. */
        AUTHORITY_CONSISTENT,
        /** The authority has reached the cited version, which is newer than the break's. */
        AUTHORITY_REACHED,
        /** Cited postings exist in the tenant's ledger and belong to the cited transactions. */
        LEDGER_POSTINGS
    }

    /** Break reason (ledger-check and reconciliation jobs) → rule; unknown reasons are refused. */
    static final Map<String, Rule> RULES =
            Map.ofEntries(
                    Map.entry("NEGATIVE_AVAILABLE", Rule.NOT_NEGATIVE_OR_CORRECTING_TXN),
                    Map.entry("AVAILABLE_MISMATCH", Rule.AUTHORITY_CONSISTENT),
                    Map.entry("AUTHORITY_VERSION_GAP", Rule.AUTHORITY_REACHED),
                    Map.entry("AUTHORITY_VERSION_SKIP", Rule.AUTHORITY_REACHED),
                    Map.entry("AUTHORITY_REMOVED", Rule.AUTHORITY_REACHED),
                    Map.entry("CONTROL_TOTAL_MISMATCH", Rule.AUTHORITY_REACHED),
                    Map.entry("POSTING_WITHOUT_AUTHORITY", Rule.AUTHORITY_REACHED),
                    Map.entry("PROJECTION_LAG", Rule.AUTHORITY_REACHED),
                    Map.entry("POSITION_MISMATCH", Rule.AUTHORITY_REACHED),
                    Map.entry("TXN_UNBALANCED", Rule.LEDGER_POSTINGS),
                    Map.entry("TXN_INCOMPLETE", Rule.LEDGER_POSTINGS),
                    Map.entry("TXN_LINE_CONFLICT", Rule.LEDGER_POSTINGS),
                    Map.entry("TXN_LINE_LIMIT", Rule.LEDGER_POSTINGS),
                    Map.entry("POSTING_MODIFIED", Rule.LEDGER_POSTINGS),
                    Map.entry("POSTING_REMOVED", Rule.LEDGER_POSTINGS),
                    Map.entry("MONTH_LIMIT_EXCEEDED", Rule.LEDGER_POSTINGS),
                    Map.entry("MISSING_LEDGER_TXN", Rule.LEDGER_POSTINGS),
                    Map.entry("AMOUNT_MISMATCH", Rule.LEDGER_POSTINGS),
                    Map.entry("ORPHAN_LEDGER_TXN", Rule.LEDGER_POSTINGS));

    /** What was verified, stored with the resolution. */
    public record Verified(Rule rule, ObjectNode facts) {}

    private final DynamoDbClient ddb;
    private final String ledgerTable;

    public LedgerEvidence(DynamoDbClient ddb, String ledgerTable) {
        this.ddb = ddb;
        this.ledgerTable = ledgerTable;
    }

    /**
     * @throws ApiException 422 {@code EVIDENCE_REJECTED} naming what did not match
     */
    public Verified verify(BreakView b, BreakEvidence e) {
        Rule rule = RULES.get(b.reason());
        if (rule == null) {
            throw reject("no ledger evidence rule for break reason " + b.reason());
        }
        JsonNode detected = detectedEvidence(b);
        ObjectNode facts = StrictJson.MAPPER.createObjectNode().put("rule", rule.name());
        switch (rule) {
            case NOT_NEGATIVE_OR_CORRECTING_TXN -> {
                AuthorityKey a = authorityOf(b, detected);
                if (e.authorityVersion() != null) {
                    currentAuthority(a, e, detected, facts, true);
                } else if (!e.postingKeys().isEmpty()) {
                    List<Map<String, AttributeValue>> rows = postings(b.tenant(), e, facts);
                    boolean credit = false;
                    for (Map<String, AttributeValue> row : rows) {
                        if (!a.account().equals(Av.str(row, LedgerSchema.ACCOUNT))
                                || !a.kind().name().equals(Av.str(row, LedgerSchema.ASSET_TYPE))
                                || !a.asset().equals(Av.str(row, LedgerSchema.ASSET))) {
                            throw reject(
                                    "posting "
                                            + Av.str(row, Attr.SK)
                                            + " is not on the break's authority "
                                            + label(a));
                        }
                        credit |= dec(row, LedgerSchema.AMOUNT).signum() > 0;
                    }
                    if (!credit) {
                        throw reject(
                                "no cited posting credits "
                                        + label(a)
                                        + "; a correcting transaction must credit the account");
                    }
                } else {
                    throw reject(
                            "cite the current authorityVersion of "
                                    + label(a)
                                    + " (no longer negative) or a correcting transaction"
                                    + " (txnIds + postingKeys)");
                }
            }
            case AUTHORITY_CONSISTENT -> {
                AuthorityKey a = authorityOf(b, detected);
                if (e.authorityVersion() == null) {
                    throw reject("cite the current authorityVersion of " + label(a));
                }
                currentAuthority(a, e, detected, facts, false);
            }
            case AUTHORITY_REACHED -> {
                AuthorityKey a = authorityOf(b, detected);
                if (e.authorityVersion() == null) {
                    throw reject("cite the authorityVersion of " + label(a) + " that settles it");
                }
                Map<String, AttributeValue> cur = authority(a);
                long version = Av.lng(cur, LedgerSchema.VERSION, 0);
                checkNewer(a, e.authorityVersion(), detected);
                if (version < e.authorityVersion()) {
                    throw reject(
                            "authority "
                                    + label(a)
                                    + " is at version "
                                    + version
                                    + ", below the cited "
                                    + e.authorityVersion());
                }
                facts.put("authority", label(a)).put("currentVersion", version);
                if (!e.postingKeys().isEmpty()) {
                    postings(b.tenant(), e, facts);
                }
            }
            case LEDGER_POSTINGS -> {
                if (e.txnIds().isEmpty() || e.postingKeys().isEmpty()) {
                    throw reject(
                            "cite the matching or correcting transaction: txnIds and the"
                                    + " postingKeys of its lines");
                }
                String expected = detected.path("expectedTxnId").asText(null);
                if (expected != null && !e.txnIds().contains(expected)) {
                    throw reject(
                            "the break expects transaction " + expected + ", which is not cited");
                }
                postings(b.tenant(), e, facts);
            }
        }
        return new Verified(rule, facts);
    }

    /** The cited version is the authority's current one and passes the check. */
    private void currentAuthority(
            AuthorityKey a,
            BreakEvidence e,
            JsonNode detected,
            ObjectNode facts,
            boolean notNegativeOnly) {
        Map<String, AttributeValue> cur = authority(a);
        long version = Av.lng(cur, LedgerSchema.VERSION, 0);
        if (version != e.authorityVersion()) {
            throw reject(
                    "authority "
                            + label(a)
                            + " is at version "
                            + version
                            + ", not the cited "
                            + e.authorityVersion()
                            + "; only the current version can be checked");
        }
        checkNewer(a, version, detected);
        BigDecimal posted = dec(cur, LedgerSchema.POSTED);
        BigDecimal reserved = dec(cur, LedgerSchema.RESERVED);
        BigDecimal pending =
                cur.containsKey(LedgerSchema.PENDING)
                        ? dec(cur, LedgerSchema.PENDING)
                        : BigDecimal.ZERO;
        BigDecimal expected = LedgerSchema.available(posted, pending, reserved);
        BigDecimal available = dec(cur, LedgerSchema.AVAILABLE);
        if (notNegativeOnly && available.signum() < 0) {
            throw reject(
                    "authority "
                            + label(a)
                            + " is still negative at version "
                            + version
                            + ": available "
                            + available.toPlainString());
        }
        if (!notNegativeOnly && available.compareTo(expected) != 0) {
            throw reject(
                    "authority "
                            + label(a)
                            + " at version "
                            + version
                            + " still has available "
                            + available.toPlainString()
                            + " != posted - reserved "
                            + expected.toPlainString());
        }
        facts.put("authority", label(a))
                .put("currentVersion", version)
                .put("available", available.toPlainString());
    }

    /** The cited version must come after the version the break was detected at. */
    private static void checkNewer(AuthorityKey a, long cited, JsonNode detected) {
        long at = breakVersion(detected);
        if (at > 0 && cited <= at) {
            throw reject(
                    "cited version "
                            + cited
                            + " of "
                            + label(a)
                            + " is not newer than the break's version "
                            + at);
        }
    }

    private static long breakVersion(JsonNode detected) {
        JsonNode v =
                detected.has("version")
                        ? detected.get("version")
                        : detected.get("authorityVersion");
        return v == null ? 0 : v.asLong(0);
    }

    private Map<String, AttributeValue> authority(AuthorityKey a) {
        Map<String, AttributeValue> item =
                StrongRead.item(ddb, "AP12", ledgerTable, LedgerItemCodec.key(a));
        if (item == null) {
            throw reject("authority " + label(a) + " does not exist");
        }
        return item;
    }

    /** Every cited posting exists in this tenant's ledger, under a cited txnId; all are covered. */
    private List<Map<String, AttributeValue>> postings(
            String tenant, BreakEvidence e, ObjectNode facts) {
        if (e.txnIds().isEmpty()) {
            throw reject("postingKeys need the txnIds they belong to");
        }
        Set<String> covered = new HashSet<>();
        List<Map<String, AttributeValue>> rows = new ArrayList<>();
        for (BreakEvidence.PostingKey k : e.postingKeys()) {
            List<String> pk;
            try {
                pk = KeyPaths.IDX10_PK.match(k.pk());
                KeyPaths.IDX10_SK.match(k.sk());
            } catch (RuntimeException bad) {
                throw reject("posting key " + k.pk() + " / " + k.sk() + " is not an IDX10 key");
            }
            if (!pk.get(0).equals(tenant)) {
                throw reject("posting key " + k.pk() + " belongs to another tenant");
            }
            Map<String, AttributeValue> row =
                    StrongRead.item(ddb, "AP10", ledgerTable, k.pk(), k.sk());
            if (row == null) {
                throw reject("posting " + k.pk() + " / " + k.sk() + " does not exist");
            }
            String txn = Av.str(row, LedgerSchema.TXN_ID);
            if (!e.txnIds().contains(txn)) {
                throw reject("posting " + k.sk() + " belongs to " + txn + ", which is not cited");
            }
            covered.add(txn);
            rows.add(row);
        }
        for (String t : e.txnIds()) {
            if (!covered.contains(t)) {
                throw reject("transaction " + t + " is cited without any of its postingKeys");
            }
        }
        facts.put("postingsVerified", rows.size());
        return rows;
    }

    /** The authority a break is about: its evidence's {@code authority}, else its subject. */
    private static AuthorityKey authorityOf(BreakView b, JsonNode detected) {
        String ref = detected.path("authority").asText(b.subject());
        String[] p = ref == null ? new String[0] : ref.split("/");
        try {
            if (p.length == 4 && p[0].equals(b.tenant())) {
                return new AuthorityKey(p[0], p[1], AuthorityKey.Kind.valueOf(p[2]), p[3]);
            }
            if (p.length == 2 && detected.has("symbol")) {
                return AuthorityKey.security(b.tenant(), p[0], p[1]);
            }
        } catch (RuntimeException bad) {
            // falls through to the refusal
        }
        throw reject("break subject '" + ref + "' names no ledger authority to check");
    }

    /** A stored amount; an item without it cannot bear evidence out. */
    private static BigDecimal dec(Map<String, AttributeValue> item, String name) {
        BigDecimal v = Av.dec(item, name);
        if (v == null) {
            throw reject("ledger item " + Av.str(item, Attr.SK) + " has no " + name);
        }
        return v;
    }

    private static JsonNode detectedEvidence(BreakView b) {
        try {
            return b.evidence() == null
                    ? StrictJson.MAPPER.createObjectNode()
                    : StrictJson.MAPPER.readTree(b.evidence());
        } catch (Exception e) {
            return StrictJson.MAPPER.createObjectNode();
        }
    }

    private static String label(AuthorityKey a) {
        return a.tenant() + "/" + a.account() + "/" + a.kind() + "/" + a.asset();
    }

    private static ApiException reject(String why) {
        return ApiException.unprocessable("EVIDENCE_REJECTED", why);
    }
}
