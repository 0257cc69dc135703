package io.streamledger.command.ops;

import static io.streamledger.command.ops.OpsHttp.code;
import static io.streamledger.command.ops.OpsHttp.message;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.streamledger.aws.items.OpsAuditItems;
import io.streamledger.command.api.HttpApi;
import io.streamledger.command.auth.ApiKeyAuthenticator;
import io.streamledger.command.auth.ApiKeyAuthenticator.Role;
import io.streamledger.model.keys.PostingKey;
import io.streamledger.model.table.TableNaming;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The AP15 {@code /v1/ops/breaks} routes over HTTP against one local endpoint: due-queue listing
 * across status shards with the compound cursor, show, assign, escalate and resolve — each change
 * conditional on status and version (stale → 409), audited in its own transaction, and a resolve
 * refused (422) when the ledger does not bear its evidence out; wrong role and cross-tenant → 403.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class BreakHttpITCase {

    private static final String OPS = "ops-key-t1";
    private static final String AUDITOR = "auditor-key-t1";
    private static final String TRADER = "trader-key-t1";
    private static final String OPS_T2 = "ops-key-t2";
    private static final Instant DETECTED = Instant.parse("2026-11-30T08:00:00Z");
    private static final String CUTOFF = "2026-11-30T12:00:00Z";

    private BreakTable stack;
    private HttpApi http;
    private OpsHttp web;
    private int seq;

    @BeforeAll
    void start() {
        stack = new BreakTable("brh");
        ApiKeyAuthenticator auth =
                ApiKeyAuthenticator.builder()
                        .key("t1", OPS, Role.FINANCE_OPS)
                        .key("t1", AUDITOR, Role.AUDITOR)
                        .key("t1", TRADER)
                        .key("t2", OPS_T2, Role.FINANCE_OPS)
                        .build();
        OpsApi ops =
                new OpsApi(
                        OpsApi.breakService(
                                stack.ddb, new TableNaming(stack.prefix), Clock.systemUTC()),
                        null,
                        null);
        http =
                new HttpApi(
                                auth,
                                new HttpApi.Services(
                                        null, null, null, null, null, null, null, null, ops))
                        .start("127.0.0.1", 0);
        web = new OpsHttp(http.port());
    }

    @AfterAll
    void stop() {
        http.close();
        stack.close();
    }

    /** Each test uses its own batch, so tests never see each other's breaks. */
    private String batch;

    @BeforeEach
    void newBatch() {
        batch = "LEDGER-CHECK-T" + (++seq);
    }

    /** A NEGATIVE_AVAILABLE break of account {@code acct}, detected at authority version 2. */
    private String negative(String tenant, String acct) {
        String authority = tenant + "/" + acct + "/CASH/USD";
        String id = "NEGATIVE_AVAILABLE:" + authority + ":V:2";
        stack.put(
                tenant,
                batch,
                id,
                "NEGATIVE_AVAILABLE",
                "LEDGER_CHECK",
                DETECTED,
                authority,
                "{\"authority\":\"" + authority + "\",\"version\":2,\"available\":\"-5.00\"}");
        return BreakRef.format(batch, id);
    }

    private List<OpsAuditItems.Entry> auditsOf(String id) {
        return stack.audits().stream().filter(a -> a.target().equals(id)).toList();
    }

    @Test
    void listsTheDueQueueAcrossShardsWithTheCompoundCursor() throws Exception {
        Set<String> expected = new HashSet<>();
        for (int i = 0; i < 7; i++) {
            expected.add(negative("t1", "L" + i));
        }
        negative("t2", "L0"); // another tenant's break never shows
        List<String> seen = new ArrayList<>();
        String cursor = null;
        int pages = 0;
        do {
            OpsHttp.Reply page =
                    web.send(
                            "GET",
                            "/v1/ops/breaks?limit=3&dueBefore="
                                    + CUTOFF
                                    + (cursor == null ? "" : "&cursor=" + cursor),
                            AUDITOR,
                            null);
            assertThat(page.status()).as(page.body().toString()).isEqualTo(200);
            page.body().path("items").forEach(i -> seen.add(i.path("id").asText()));
            cursor =
                    page.body().path("cursor").isNull()
                            ? null
                            : page.body().path("cursor").asText();
            pages++;
        } while (cursor != null && pages < 20);
        assertThat(seen.stream().filter(expected::contains)).hasSize(7).doesNotHaveDuplicates();
        assertThat(seen.stream().filter(s -> BreakRef.parse(s).batchId().equals(batch))).hasSize(7);

        OpsHttp.Reply notYetDue =
                web.send("GET", "/v1/ops/breaks?dueBefore=2026-11-30T08:30:00Z", OPS, null);
        assertThat(notYetDue.body().path("items").findValuesAsText("id"))
                .doesNotContainAnyElementsOf(expected);
        OpsHttp.Reply escalatedOnly =
                web.send("GET", "/v1/ops/breaks?status=ESCALATED&dueBefore=" + CUTOFF, OPS, null);
        assertThat(escalatedOnly.body().path("items").findValuesAsText("id"))
                .doesNotContainAnyElementsOf(expected);

        assertThat(code(web.send("GET", "/v1/ops/breaks?status=RESOLVED", OPS, null)))
                .isEqualTo("INVALID_FIELD");
        assertThat(code(web.send("GET", "/v1/ops/breaks?cursor=zz", OPS, null)))
                .isEqualTo("INVALID_CURSOR");
        assertThat(code(web.send("GET", "/v1/ops/breaks?limit=101", OPS, null)))
                .isEqualTo("INVALID_FIELD");
        assertThat(code(web.send("GET", "/v1/ops/breaks?dueBefore=yesterday", OPS, null)))
                .isEqualTo("INVALID_FIELD");
        assertThat(code(web.send("GET", "/v1/ops/breaks?owner=x", OPS, null)))
                .isEqualTo("UNKNOWN_PARAMETER");
    }

    @Test
    void showAssignAndEscalateAreConditionalAndAudited() throws Exception {
        String id = negative("t1", "A");
        OpsHttp.Reply show = web.send("GET", "/v1/ops/breaks/" + id, AUDITOR, null);
        assertThat(show.status()).isEqualTo(200);
        assertThat(show.body().path("reason").asText()).isEqualTo("NEGATIVE_AVAILABLE");
        assertThat(show.body().path("evidenceRule").asText())
                .isEqualTo("NOT_NEGATIVE_OR_CORRECTING_TXN");
        assertThat(show.body().path("evidence").path("version").asLong()).isEqualTo(2);
        assertThat(show.body().path("version").asLong()).isEqualTo(1);

        OpsHttp.Reply assign =
                web.send(
                        "POST",
                        "/v1/ops/breaks/" + id + "/assign",
                        OPS,
                        "{\"expectedVersion\":1,\"owner\":\"alice\",\"note\":\"mine\"}");
        assertThat(assign.status()).as(assign.body().toString()).isEqualTo(200);
        assertThat(assign.body().path("owner").asText()).isEqualTo("alice");
        assertThat(assign.body().path("version").asLong()).isEqualTo(2);

        OpsHttp.Reply stale =
                web.send(
                        "POST",
                        "/v1/ops/breaks/" + id + "/assign",
                        OPS,
                        "{\"expectedVersion\":1,\"owner\":\"bob\"}");
        assertThat(stale.status()).isEqualTo(409);
        assertThat(code(stale)).isEqualTo("STALE_VERSION");
        assertThat(message(stale)).contains("OPEN at version 2");

        OpsHttp.Reply escalate =
                web.send(
                        "POST",
                        "/v1/ops/breaks/" + id + "/escalate",
                        OPS,
                        "{\"expectedVersion\":2,\"owner\":\"controller\"}");
        assertThat(escalate.status()).as(escalate.body().toString()).isEqualTo(200);
        assertThat(escalate.body().path("status").asText()).isEqualTo("ESCALATED");
        assertThat(escalate.body().path("owner").asText()).isEqualTo("controller");
        assertThat(
                        web.send(
                                        "GET",
                                        "/v1/ops/breaks?status=ESCALATED&dueBefore=" + CUTOFF,
                                        OPS,
                                        null)
                                .body()
                                .path("items")
                                .findValuesAsText("id"))
                .contains(id);
        assertThat(
                        web.send("GET", "/v1/ops/breaks?status=OPEN&dueBefore=" + CUTOFF, OPS, null)
                                .body()
                                .path("items")
                                .findValuesAsText("id"))
                .doesNotContain(id);
        OpsHttp.Reply staleEscalate =
                web.send(
                        "POST",
                        "/v1/ops/breaks/" + id + "/escalate",
                        OPS,
                        "{\"expectedVersion\":3}");
        assertThat(staleEscalate.status()).isEqualTo(409);
        assertThat(message(staleEscalate)).contains("ESCALATED at version 3");

        List<OpsAuditItems.Entry> audit = auditsOf(id);
        assertThat(audit).hasSize(2);
        OpsAuditItems.Entry first =
                audit.stream().filter(a -> a.action().equals("ASSIGN")).findFirst().orElseThrow();
        assertThat(first.role()).isEqualTo("finance-ops");
        assertThat(first.keyId())
                .isEqualTo(ApiKeyAuthenticator.sha256Hex(OPS).substring(0, 12))
                .doesNotContain(OPS);
        assertThat(first.fromVersion()).isEqualTo(1);
        assertThat(first.toVersion()).isEqualTo(2);
        assertThat(first.detail()).contains("\"owner\":\"alice\"").contains("finance-ops");
        OpsAuditItems.Entry second =
                audit.stream().filter(a -> a.action().equals("ESCALATE")).findFirst().orElseThrow();
        assertThat(second.fromStatus()).isEqualTo("OPEN");
        assertThat(second.toStatus()).isEqualTo("ESCALATED");
        assertThat(second.fromVersion()).isEqualTo(2);
    }

    @Test
    void negativeAvailableResolvesOnlyWithEvidenceTheLedgerBearsOut() throws Exception {
        String id = negative("t1", "N");
        stack.authority("t1", "N", 3, "10.00", "15.00", "-5.00");
        String path = "/v1/ops/breaks/" + id + "/resolve";

        OpsHttp.Reply stillNegative =
                web.send(
                        "POST",
                        path,
                        OPS,
                        "{\"expectedVersion\":1,\"evidence\":{\"authorityVersion\":3,"
                                + "\"note\":\"customer funded\"}}");
        assertThat(stillNegative.status()).isEqualTo(422);
        assertThat(code(stillNegative)).isEqualTo("EVIDENCE_REJECTED");
        assertThat(message(stillNegative))
                .isEqualTo("authority t1/N/CASH/USD is still negative at version 3: available -5");

        stack.authority("t1", "N", 4, "20.00", "15.00", "5.00");
        OpsHttp.Reply notCurrent =
                web.send(
                        "POST",
                        path,
                        OPS,
                        "{\"expectedVersion\":1,\"evidence\":{\"authorityVersion\":3,"
                                + "\"note\":\"customer funded\"}}");
        assertThat(notCurrent.status()).isEqualTo(422);
        assertThat(message(notCurrent)).contains("is at version 4, not the cited 3");

        OpsHttp.Reply noEvidence =
                web.send(
                        "POST",
                        path,
                        OPS,
                        "{\"expectedVersion\":1,\"evidence\":{\"note\":\"trust me\"}}");
        assertThat(noEvidence.status()).isEqualTo(422);
        assertThat(message(noEvidence)).contains("cite the current authorityVersion");
        assertThat(auditsOf(id)).isEmpty();

        OpsHttp.Reply ok =
                web.send(
                        "POST",
                        path,
                        OPS,
                        "{\"expectedVersion\":1,\"expectedStatus\":\"OPEN\",\"evidence\":"
                                + "{\"authorityVersion\":4,\"note\":\"customer funded\"}}");
        assertThat(ok.status()).as(ok.body().toString()).isEqualTo(200);
        assertThat(ok.body().path("status").asText()).isEqualTo("RESOLVED");
        assertThat(ok.body().path("version").asLong()).isEqualTo(2);
        assertThat(ok.body().path("resolvedBy").asText()).startsWith("finance-ops:");
        JsonNode resolution = ok.body().path("resolution");
        assertThat(resolution.path("authorityVersion").asLong()).isEqualTo(4);
        assertThat(resolution.path("verified").path("rule").asText())
                .isEqualTo("NOT_NEGATIVE_OR_CORRECTING_TXN");
        assertThat(resolution.path("verified").path("available").asText()).isEqualTo("5");

        OpsHttp.Reply stale =
                web.send(
                        "POST",
                        path,
                        OPS,
                        "{\"expectedVersion\":1,\"evidence\":{\"authorityVersion\":4,"
                                + "\"note\":\"again\"}}");
        assertThat(stale.status()).isEqualTo(409);
        assertThat(message(stale)).contains("RESOLVED at version 2");
        List<OpsAuditItems.Entry> audit = auditsOf(id);
        assertThat(audit).hasSize(1);
        assertThat(audit.get(0).action()).isEqualTo("RESOLVE");
        assertThat(audit.get(0).toStatus()).isEqualTo("RESOLVED");
        assertThat(audit.get(0).detail()).contains("customer funded");
    }

    @Test
    void aCorrectingTransactionMustCreditTheBreaksAccount() throws Exception {
        String id = negative("t1", "C");
        String path = "/v1/ops/breaks/" + id + "/resolve";
        PostingKey debit = stack.posting("t1", "C", "t-debit", "-1.00", DETECTED);
        PostingKey elsewhere = stack.posting("t1", "OTHER", "t-else", "9.00", DETECTED);
        PostingKey credit = stack.posting("t1", "C", "t-credit", "5.00", DETECTED);

        OpsHttp.Reply wrongAccount = resolveWith(path, "t-else", elsewhere);
        assertThat(wrongAccount.status()).isEqualTo(422);
        assertThat(message(wrongAccount)).contains("is not on the break's authority t1/C/CASH/USD");
        OpsHttp.Reply notACredit = resolveWith(path, "t-debit", debit);
        assertThat(notACredit.status()).isEqualTo(422);
        assertThat(message(notACredit)).contains("no cited posting credits t1/C/CASH/USD");
        OpsHttp.Reply missing =
                resolveWith(
                        path,
                        "t-ghost",
                        new PostingKey("t1", "C", credit.month(), 0, DETECTED, "t-ghost", 1));
        assertThat(missing.status()).isEqualTo(422);
        assertThat(message(missing)).contains("does not exist");

        OpsHttp.Reply ok = resolveWith(path, "t-credit", credit);
        assertThat(ok.status()).as(ok.body().toString()).isEqualTo(200);
        assertThat(ok.body().path("resolution").path("txnIds").get(0).asText())
                .isEqualTo("t-credit");
        assertThat(ok.body().path("resolution").path("verified").path("postingsVerified").asInt())
                .isEqualTo(1);
    }

    private OpsHttp.Reply resolveWith(String path, String txn, PostingKey k) throws Exception {
        return web.send(
                "POST",
                path,
                OPS,
                "{\"expectedVersion\":1,\"evidence\":{\"txnIds\":[\""
                        + txn
                        + "\"],\"postingKeys\":[{\"pk\":\""
                        + k.pk()
                        + "\",\"sk\":\""
                        + k.sk()
                        + "\"}],\"note\":\"correcting deposit\"}}");
    }

    @Test
    void everyRouteRefusesTheWrongRoleAndAnotherTenant() throws Exception {
        String id = negative("t1", "R");
        String change = "{\"expectedVersion\":1,\"owner\":\"x\"}";
        String resolve =
                "{\"expectedVersion\":1,\"evidence\":{\"authorityVersion\":3,\"note\":\"n\"}}";
        List<String[]> routes =
                List.of(
                        new String[] {"GET", "/v1/ops/breaks", null},
                        new String[] {"GET", "/v1/ops/breaks/" + id, null},
                        new String[] {"POST", "/v1/ops/breaks/" + id + "/assign", change},
                        new String[] {"POST", "/v1/ops/breaks/" + id + "/escalate", change},
                        new String[] {"POST", "/v1/ops/breaks/" + id + "/resolve", resolve});
        for (String[] r : routes) {
            OpsHttp.Reply trader = web.send(r[0], r[1], TRADER, r[2]);
            assertThat(trader.status()).as(r[1]).isEqualTo(403);
            assertThat(code(trader)).isEqualTo("FORBIDDEN");
            String sep = r[1].contains("?") ? "&" : "?";
            OpsHttp.Reply cross = web.send(r[0], r[1] + sep + "tenant=t1", OPS_T2, r[2]);
            assertThat(cross.status()).as(r[1]).isEqualTo(403);
            assertThat(code(cross)).isEqualTo("CROSS_TENANT");
            if (r[0].equals("POST")) {
                OpsHttp.Reply auditor = web.send(r[0], r[1], AUDITOR, r[2]);
                assertThat(auditor.status()).as(r[1]).isEqualTo(403);
                // the other tenant's own key reaches only its own tenant: the id is unknown there
                assertThat(web.send(r[0], r[1], OPS_T2, r[2]).status()).as(r[1]).isEqualTo(404);
            }
        }
        assertThat(web.send("GET", "/v1/ops/breaks/" + id, OPS_T2, null).status()).isEqualTo(404);
        OpsHttp.Reply after = web.send("GET", "/v1/ops/breaks/" + id, OPS, null);
        assertThat(after.body().path("version").asLong()).isEqualTo(1);
        assertThat(after.body().path("owner").asText()).isEqualTo("finance-ops");
        assertThat(auditsOf(id)).isEmpty();
        assertThat(code(web.send("GET", "/v1/ops/breaks/not-an-id!", OPS, null)))
                .isEqualTo("INVALID_FIELD");
        assertThat(
                        code(
                                web.send(
                                        "POST",
                                        "/v1/ops/breaks/" + id + "/resolve",
                                        OPS,
                                        "{\"expectedVersion\":1,\"evidence\":{}}")))
                .isEqualTo("MISSING_FIELD");
    }
}
