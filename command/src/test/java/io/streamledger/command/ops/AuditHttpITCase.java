package io.streamledger.command.ops;

import static io.streamledger.command.ops.OpsHttp.code;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.streamledger.aws.items.OpsAuditItems;
import io.streamledger.command.api.HttpApi;
import io.streamledger.command.auth.ApiKeyAuthenticator;
import io.streamledger.command.auth.ApiKeyAuthenticator.Role;
import io.streamledger.model.table.TableNaming;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The ops audit read {@code GET /v1/ops/audit?date=} over HTTP against one local endpoint: a
 * tenant's day of append-only audit items (AP15 actions among them) in time order, page by page
 * with a cursor bound to the tenant's day; auditor and ops roles read, a trader is 403, another
 * tenant is 403 by name and sees only its own entries.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class AuditHttpITCase {

    private static final String OPS = "ops-key-t1";
    private static final String ORDERS_OPS = "orders-ops-key-t1";
    private static final String AUDITOR = "auditor-key-t1";
    private static final String TRADER = "trader-key-t1";
    private static final String OPS_T2 = "ops-key-t2";
    private static final Instant NOW = Instant.parse("2026-11-30T12:00:00Z");
    private static final String DAY = "2026-11-30";

    private BreakTable stack;
    private HttpApi http;
    private OpsHttp web;
    private String breakId;

    @BeforeAll
    void start() throws Exception {
        stack = new BreakTable("auh");
        ApiKeyAuthenticator auth =
                ApiKeyAuthenticator.builder()
                        .key("t1", OPS, Role.FINANCE_OPS)
                        .key("t1", ORDERS_OPS, Role.ORDERS_OPS)
                        .key("t1", AUDITOR, Role.AUDITOR)
                        .key("t1", TRADER)
                        .key("t2", OPS_T2, Role.FINANCE_OPS)
                        .build();
        Clock clock = Clock.fixed(NOW, ZoneOffset.UTC);
        OpsApi ops =
                new OpsApi(
                        OpsApi.breakService(stack.ddb, new TableNaming(stack.prefix), clock),
                        null,
                        null,
                        null,
                        new AuditQueries(stack.ddb, stack.table));
        http =
                new HttpApi(
                                auth,
                                new HttpApi.Services(
                                        null, null, null, null, null, null, null, null, ops))
                        .start("127.0.0.1", 0);
        web = new OpsHttp(http.port());
        // earlier entries of the day, another day and another tenant, as ops actions write them
        for (int m = 1; m <= 3; m++) {
            entry("t1", NOW.minusSeconds(3600L * m), "a" + m);
        }
        entry("t1", NOW.minusSeconds(86_400), "yesterday");
        entry("t2", NOW.minusSeconds(60), "other-tenant");
        String id = "MISSING_LEDGER_TXN:f-1";
        stack.put(
                "t1",
                "RECON-20261130T080000Z-3600s",
                id,
                "MISSING_LEDGER_TXN",
                "RECONCILIATION",
                NOW.minusSeconds(7200),
                "fill f-1",
                "{\"expectedTxnId\":\"t-1\"}");
        breakId = BreakRef.format("RECON-20261130T080000Z-3600s", id);
        OpsHttp.Reply assign =
                web.send(
                        "POST",
                        "/v1/ops/breaks/" + breakId + "/assign",
                        OPS,
                        "{\"expectedVersion\":1,\"owner\":\"alice\"}");
        assertThat(assign.status()).as(assign.body().toString()).isEqualTo(200);
    }

    private void entry(String tenant, Instant at, String auditId) {
        OpsAuditItems.Entry e =
                new OpsAuditItems.Entry(
                        tenant,
                        auditId,
                        at,
                        "k-" + auditId,
                        "finance-ops",
                        "DISCARD",
                        "DEAD_LETTER",
                        "dl-" + auditId,
                        "PARKED",
                        "DISCARDED",
                        1,
                        2,
                        "{\"reason\":\"test\"}");
        stack.ddb.putItem(r -> r.tableName(stack.table).item(OpsAuditItems.item(e)));
    }

    @AfterAll
    void stop() {
        http.close();
        stack.close();
    }

    @Test
    void listsATenantsDayInTimeOrderPageByPage() throws Exception {
        List<JsonNode> seen = new ArrayList<>();
        String cursor = null;
        int pages = 0;
        do {
            OpsHttp.Reply page =
                    web.get(
                            "/v1/ops/audit?date="
                                    + DAY
                                    + "&limit=2"
                                    + (cursor == null ? "" : "&cursor=" + cursor),
                            AUDITOR);
            assertThat(page.status()).as(page.body().toString()).isEqualTo(200);
            page.body().path("items").forEach(seen::add);
            cursor =
                    page.body().path("cursor").isNull()
                            ? null
                            : page.body().path("cursor").asText();
            pages++;
        } while (cursor != null && pages < 10);
        assertThat(seen.stream().map(i -> i.path("at").asText()))
                .containsExactly(
                        "2026-11-30T09:00:00Z",
                        "2026-11-30T10:00:00Z",
                        "2026-11-30T11:00:00Z",
                        "2026-11-30T12:00:00Z");
        JsonNode assign = seen.get(3);
        assertThat(assign.path("targetType").asText()).isEqualTo("BREAK");
        assertThat(assign.path("target").asText()).isEqualTo(breakId);
        assertThat(assign.path("actor").asText()).startsWith("finance-ops:");
        assertThat(assign.path("fromVersion").asLong()).isEqualTo(1);
        assertThat(assign.path("toVersion").asLong()).isEqualTo(2);
        assertThat(seen.get(0).path("detail").path("reason").asText()).isEqualTo("test");
        // ops roles read the audit too
        assertThat(web.get("/v1/ops/audit?date=" + DAY, ORDERS_OPS).body().path("items"))
                .hasSize(4);
        assertThat(web.get("/v1/ops/audit?date=2026-11-29", OPS).body().path("items")).hasSize(1);
    }

    @Test
    void wrongRoleAnotherTenantAndBadParametersAreRefused() throws Exception {
        String path = "/v1/ops/audit?date=" + DAY;
        assertThat(code(web.get(path, TRADER))).isEqualTo("FORBIDDEN");
        assertThat(code(web.get(path + "&tenant=t1", OPS_T2))).isEqualTo("CROSS_TENANT");
        JsonNode own = web.get(path, OPS_T2).body().path("items");
        assertThat(own).hasSize(1);
        assertThat(own.get(0).path("auditId").asText()).isEqualTo("other-tenant");

        String cursor = web.get(path + "&limit=1", AUDITOR).body().path("cursor").asText();
        assertThat(code(web.get(path + "&cursor=" + cursor, OPS_T2))).isEqualTo("INVALID_CURSOR");
        assertThat(code(web.get("/v1/ops/audit?date=2026-11-29&cursor=" + cursor, AUDITOR)))
                .isEqualTo("INVALID_CURSOR");
        assertThat(code(web.get("/v1/ops/audit", AUDITOR))).isEqualTo("MISSING_PARAMETER");
        assertThat(code(web.get("/v1/ops/audit?date=30.11.2026", AUDITOR)))
                .isEqualTo("INVALID_FIELD");
        assertThat(code(web.get(path + "&limit=0", AUDITOR))).isEqualTo("INVALID_FIELD");
        assertThat(code(web.get(path + "&order=desc", AUDITOR))).isEqualTo("UNKNOWN_PARAMETER");
    }
}
