package io.streamledger.command.ops;

import static io.streamledger.command.ops.OpsHttp.code;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.streamledger.aws.deadletter.DeadLetterEntry;
import io.streamledger.aws.deadletter.DeadLetterRef;
import io.streamledger.command.api.HttpApi;
import io.streamledger.command.auth.ApiKeyAuthenticator;
import io.streamledger.command.auth.ApiKeyAuthenticator.Role;
import io.streamledger.model.deadletter.DeadLetterReason;
import java.time.Clock;
import java.time.Instant;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The {@code /v1/ops/dead-letters} routes over HTTP against the local endpoint (CS08): an ops key
 * lists, shows, replays and discards its tenant's entries; a trader key, an auditor's change and a
 * request naming another tenant are 403; a stale version is 409; malformed ids, parameters and
 * bodies are 400 with the one error shape.
 */
class DeadLetterHttpITCase {

    private static final String OPS = "ops-key-t1";
    private static final String AUDITOR = "auditor-key-t1";
    private static final String TRADER = "trader-key-t1";
    private static final String OPS_T2 = "ops-key-t2";

    private DeadLetterTable stack;
    private HttpApi http;
    private OpsHttp web;
    private DeadLetterEntry entry;
    private String id;

    @BeforeEach
    void start() {
        stack = new DeadLetterTable("dlh");
        ApiKeyAuthenticator auth =
                ApiKeyAuthenticator.builder()
                        .key("t1", OPS, Role.FINANCE_OPS)
                        .key("t1", AUDITOR, Role.AUDITOR)
                        .key("t1", TRADER)
                        .key("t2", OPS_T2, Role.ORDERS_OPS)
                        .build();
        DeadLetterRepository repo =
                new DeadLetterRepository(
                        stack.ddb, stack.table, Clock.systemUTC(), stack.auditTable);
        http =
                new HttpApi(
                                auth,
                                new HttpApi.Services(
                                        null, null, null, null, null, null, null, repo, null))
                        .start("127.0.0.1", 0);
        web = new OpsHttp(http.port());
        entry =
                stack.put(
                        "t1",
                        "posting",
                        DeadLetterReason.REJECTED_FILL,
                        "event:e1",
                        Instant.parse("2026-12-01T08:00:00Z"));
        id = DeadLetterRef.format(entry.job(), entry.reason(), entry.id());
    }

    @AfterEach
    void stop() {
        http.close();
        stack.close();
    }

    @Test
    void opsKeyListsShowsAndDiscardsWithAudit() throws Exception {
        OpsHttp.Reply list =
                web.send("GET", "/v1/ops/dead-letters?job=posting&status=OPEN&limit=10", OPS, null);
        assertThat(list.status()).isEqualTo(200);
        assertThat(list.body().path("items")).hasSize(1);
        assertThat(list.body().path("items").get(0).path("id").asText()).isEqualTo(id);
        assertThat(list.body().path("cursor").isNull()).isTrue();

        OpsHttp.Reply show = web.send("GET", "/v1/ops/dead-letters/" + id, AUDITOR, null);
        assertThat(show.status()).isEqualTo(200);
        assertThat(show.body().path("payload").asText()).isEqualTo(entry.payload());
        assertThat(show.body().path("version").asLong()).isEqualTo(1);

        OpsHttp.Reply discard =
                web.send(
                        "POST",
                        "/v1/ops/dead-letters/" + id + "/discard",
                        OPS,
                        "{\"reason\":\"duplicate test fill\",\"expectedVersion\":1}");
        assertThat(discard.status()).isEqualTo(200);
        assertThat(discard.body().path("status").asText()).isEqualTo("DISCARDED");
        JsonNode audit = discard.body().path("history").get(0);
        assertThat(audit.path("action").asText()).isEqualTo("DISCARD");
        assertThat(audit.path("actor").asText()).startsWith("finance-ops:");
        assertThat(audit.path("note").asText()).isEqualTo("duplicate test fill");

        OpsHttp.Reply after = web.send("GET", "/v1/ops/dead-letters/" + id, OPS, null);
        assertThat(after.body().path("status").asText()).isEqualTo("DISCARDED");
        assertThat(after.body().path("version").asLong()).isEqualTo(2);
        var ops =
                BreakTable.audits(stack.ddb, stack.auditTable).stream()
                        .filter(a -> a.target().equals(id))
                        .toList();
        assertThat(ops).hasSize(1);
        assertThat(ops.get(0).action()).isEqualTo("DISCARD");
        assertThat(ops.get(0).role()).isEqualTo("finance-ops");
        assertThat(ops.get(0).fromVersion()).isEqualTo(1);
        assertThat(ops.get(0).toStatus()).isEqualTo("DISCARDED");
    }

    @Test
    void replayMovesTheEntryOnceAndAStaleVersionIsAConflict() throws Exception {
        OpsHttp.Reply replay =
                web.send("POST", "/v1/ops/dead-letters/" + id + "/replay", OPS, null);
        assertThat(replay.status()).isEqualTo(200);
        assertThat(replay.body().path("status").asText()).isEqualTo("REPLAY_REQUESTED");

        OpsHttp.Reply stale =
                web.send(
                        "POST",
                        "/v1/ops/dead-letters/" + id + "/discard",
                        OPS,
                        "{\"reason\":\"late\",\"expectedVersion\":1}");
        assertThat(stale.status()).isEqualTo(409);
        assertThat(code(stale)).isEqualTo("STALE_VERSION");
        assertThat(stale.body().path("error").path("message").asText())
                .contains("REPLAY_REQUESTED at version 2");
    }

    @Test
    void wrongRoleIsForbidden() throws Exception {
        OpsHttp.Reply trader = web.send("GET", "/v1/ops/dead-letters?job=posting", TRADER, null);
        assertThat(trader.status()).isEqualTo(403);
        assertThat(code(trader)).isEqualTo("FORBIDDEN");

        OpsHttp.Reply auditorChange =
                web.send(
                        "POST",
                        "/v1/ops/dead-letters/" + id + "/discard",
                        AUDITOR,
                        "{\"reason\":\"x\",\"expectedVersion\":1}");
        assertThat(auditorChange.status()).isEqualTo(403);

        OpsHttp.Reply opsOnTraderRoute = web.send("GET", "/v1/orders/o1", OPS, null);
        assertThat(opsOnTraderRoute.status()).isEqualTo(403);

        OpsHttp.Reply unknown = web.send("GET", "/v1/ops/dead-letters?job=posting", "nope", null);
        assertThat(unknown.status()).isEqualTo(401);
        assertThat(
                        web.send("GET", "/v1/ops/dead-letters/" + id, OPS, null)
                                .body()
                                .path("status")
                                .asText())
                .isEqualTo("OPEN");
    }

    @Test
    void crossTenantIsForbiddenAndNeverReadsTheOtherTenant() throws Exception {
        OpsHttp.Reply named =
                web.send("GET", "/v1/ops/dead-letters?job=posting&tenant=t1", OPS_T2, null);
        assertThat(named.status()).isEqualTo(403);
        assertThat(code(named)).isEqualTo("CROSS_TENANT");

        OpsHttp.Reply namedChange =
                web.send("POST", "/v1/ops/dead-letters/" + id + "/replay?tenant=t1", OPS_T2, null);
        assertThat(namedChange.status()).isEqualTo(403);

        OpsHttp.Reply own = web.send("GET", "/v1/ops/dead-letters/" + id, OPS_T2, null);
        assertThat(own.status()).isEqualTo(404);
        assertThat(
                        web.send("GET", "/v1/ops/dead-letters?job=posting", OPS_T2, null)
                                .body()
                                .path("items"))
                .isEmpty();
    }

    @Test
    void malformedRequestsAreBadRequestsWithAPreciseError() throws Exception {
        OpsHttp.Reply noJob = web.send("GET", "/v1/ops/dead-letters", OPS, null);
        assertThat(noJob.status()).isEqualTo(400);
        assertThat(code(noJob)).isEqualTo("MISSING_PARAMETER");

        OpsHttp.Reply badStatus =
                web.send("GET", "/v1/ops/dead-letters?job=posting&status=LOST", OPS, null);
        assertThat(badStatus.status()).isEqualTo(400);
        assertThat(badStatus.body().path("error").path("message").asText()).contains("status");

        assertThat(code(web.send("GET", "/v1/ops/dead-letters?job=posting&limit=1000", OPS, null)))
                .isEqualTo("INVALID_FIELD");
        assertThat(code(web.send("GET", "/v1/ops/dead-letters?job=posting&cursor=zz", OPS, null)))
                .isEqualTo("INVALID_CURSOR");
        assertThat(code(web.send("GET", "/v1/ops/dead-letters?job=posting&x=1", OPS, null)))
                .isEqualTo("UNKNOWN_PARAMETER");

        OpsHttp.Reply badId = web.send("GET", "/v1/ops/dead-letters/not-an-id", OPS, null);
        assertThat(badId.status()).isEqualTo(400);
        assertThat(badId.body().path("error").path("message").asText()).contains("job:REASON:");

        OpsHttp.Reply noReason =
                web.send(
                        "POST",
                        "/v1/ops/dead-letters/" + id + "/discard",
                        OPS,
                        "{\"expectedVersion\":1}");
        assertThat(noReason.status()).isEqualTo(400);
        assertThat(noReason.body().path("error").path("message").asText()).contains("'reason'");

        OpsHttp.Reply badVersion =
                web.send(
                        "POST",
                        "/v1/ops/dead-letters/" + id + "/discard",
                        OPS,
                        "{\"reason\":\"r\",\"expectedVersion\":\"one\"}");
        assertThat(badVersion.status()).isEqualTo(400);
        assertThat(code(badVersion)).isEqualTo("INVALID_FIELD");

        OpsHttp.Reply unknownField =
                web.send(
                        "POST",
                        "/v1/ops/dead-letters/" + id + "/discard",
                        OPS,
                        "{\"reason\":\"r\",\"expectedVersion\":1,\"force\":true}");
        assertThat(unknownField.status()).isEqualTo(400);

        OpsHttp.Reply notJson =
                web.send("POST", "/v1/ops/dead-letters/" + id + "/discard", OPS, "{reason");
        assertThat(notJson.status()).isEqualTo(400);
        assertThat(
                        web.send("GET", "/v1/ops/dead-letters/" + id, OPS, null)
                                .body()
                                .path("status")
                                .asText())
                .isEqualTo("OPEN");
    }
}
