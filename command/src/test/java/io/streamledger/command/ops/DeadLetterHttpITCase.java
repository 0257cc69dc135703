package io.streamledger.command.ops;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.streamledger.aws.deadletter.DeadLetterEntry;
import io.streamledger.aws.deadletter.DeadLetterRef;
import io.streamledger.command.api.HttpApi;
import io.streamledger.command.api.StrictJson;
import io.streamledger.command.auth.ApiKeyAuthenticator;
import io.streamledger.command.auth.ApiKeyAuthenticator.Role;
import io.streamledger.model.deadletter.DeadLetterReason;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Duration;
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
    private final HttpClient web =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
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
                new DeadLetterRepository(stack.ddb, stack.table, Clock.systemUTC());
        http =
                new HttpApi(
                                auth,
                                new HttpApi.Services(
                                        null, null, null, null, null, null, null, repo, null))
                        .start("127.0.0.1", 0);
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

    private record Reply(int status, JsonNode body) {}

    private Reply send(String method, String path, String key, String body) throws Exception {
        HttpRequest.Builder b =
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + http.port() + path))
                        .timeout(Duration.ofSeconds(30))
                        .header(HttpApi.HEADER_API_KEY, key)
                        .method(
                                method,
                                body == null
                                        ? HttpRequest.BodyPublishers.noBody()
                                        : HttpRequest.BodyPublishers.ofString(body));
        HttpResponse<String> r = web.send(b.build(), HttpResponse.BodyHandlers.ofString());
        return new Reply(r.statusCode(), StrictJson.MAPPER.readTree(r.body()));
    }

    private static String code(Reply r) {
        return r.body().path("error").path("code").asText();
    }

    @Test
    void opsKeyListsShowsAndDiscardsWithAudit() throws Exception {
        Reply list =
                send("GET", "/v1/ops/dead-letters?job=posting&status=OPEN&limit=10", OPS, null);
        assertThat(list.status()).isEqualTo(200);
        assertThat(list.body().path("items")).hasSize(1);
        assertThat(list.body().path("items").get(0).path("id").asText()).isEqualTo(id);
        assertThat(list.body().path("cursor").isNull()).isTrue();

        Reply show = send("GET", "/v1/ops/dead-letters/" + id, AUDITOR, null);
        assertThat(show.status()).isEqualTo(200);
        assertThat(show.body().path("payload").asText()).isEqualTo(entry.payload());
        assertThat(show.body().path("version").asLong()).isEqualTo(1);

        Reply discard =
                send(
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

        Reply after = send("GET", "/v1/ops/dead-letters/" + id, OPS, null);
        assertThat(after.body().path("status").asText()).isEqualTo("DISCARDED");
        assertThat(after.body().path("version").asLong()).isEqualTo(2);
    }

    @Test
    void replayMovesTheEntryOnceAndAStaleVersionIsAConflict() throws Exception {
        Reply replay = send("POST", "/v1/ops/dead-letters/" + id + "/replay", OPS, null);
        assertThat(replay.status()).isEqualTo(200);
        assertThat(replay.body().path("status").asText()).isEqualTo("REPLAY_REQUESTED");

        Reply stale =
                send(
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
        Reply trader = send("GET", "/v1/ops/dead-letters?job=posting", TRADER, null);
        assertThat(trader.status()).isEqualTo(403);
        assertThat(code(trader)).isEqualTo("FORBIDDEN");

        Reply auditorChange =
                send(
                        "POST",
                        "/v1/ops/dead-letters/" + id + "/discard",
                        AUDITOR,
                        "{\"reason\":\"x\",\"expectedVersion\":1}");
        assertThat(auditorChange.status()).isEqualTo(403);

        Reply opsOnTraderRoute = send("GET", "/v1/orders/o1", OPS, null);
        assertThat(opsOnTraderRoute.status()).isEqualTo(403);

        Reply unknown = send("GET", "/v1/ops/dead-letters?job=posting", "nope", null);
        assertThat(unknown.status()).isEqualTo(401);
        assertThat(
                        send("GET", "/v1/ops/dead-letters/" + id, OPS, null)
                                .body()
                                .path("status")
                                .asText())
                .isEqualTo("OPEN");
    }

    @Test
    void crossTenantIsForbiddenAndNeverReadsTheOtherTenant() throws Exception {
        Reply named = send("GET", "/v1/ops/dead-letters?job=posting&tenant=t1", OPS_T2, null);
        assertThat(named.status()).isEqualTo(403);
        assertThat(code(named)).isEqualTo("CROSS_TENANT");

        Reply namedChange =
                send("POST", "/v1/ops/dead-letters/" + id + "/replay?tenant=t1", OPS_T2, null);
        assertThat(namedChange.status()).isEqualTo(403);

        Reply own = send("GET", "/v1/ops/dead-letters/" + id, OPS_T2, null);
        assertThat(own.status()).isEqualTo(404);
        assertThat(
                        send("GET", "/v1/ops/dead-letters?job=posting", OPS_T2, null)
                                .body()
                                .path("items"))
                .isEmpty();
    }

    @Test
    void malformedRequestsAreBadRequestsWithAPreciseError() throws Exception {
        Reply noJob = send("GET", "/v1/ops/dead-letters", OPS, null);
        assertThat(noJob.status()).isEqualTo(400);
        assertThat(code(noJob)).isEqualTo("MISSING_PARAMETER");

        Reply badStatus = send("GET", "/v1/ops/dead-letters?job=posting&status=LOST", OPS, null);
        assertThat(badStatus.status()).isEqualTo(400);
        assertThat(badStatus.body().path("error").path("message").asText()).contains("status");

        assertThat(code(send("GET", "/v1/ops/dead-letters?job=posting&limit=1000", OPS, null)))
                .isEqualTo("INVALID_FIELD");
        assertThat(code(send("GET", "/v1/ops/dead-letters?job=posting&cursor=zz", OPS, null)))
                .isEqualTo("INVALID_CURSOR");
        assertThat(code(send("GET", "/v1/ops/dead-letters?job=posting&x=1", OPS, null)))
                .isEqualTo("UNKNOWN_PARAMETER");

        Reply badId = send("GET", "/v1/ops/dead-letters/not-an-id", OPS, null);
        assertThat(badId.status()).isEqualTo(400);
        assertThat(badId.body().path("error").path("message").asText()).contains("job:REASON:");

        Reply noReason =
                send(
                        "POST",
                        "/v1/ops/dead-letters/" + id + "/discard",
                        OPS,
                        "{\"expectedVersion\":1}");
        assertThat(noReason.status()).isEqualTo(400);
        assertThat(noReason.body().path("error").path("message").asText()).contains("'reason'");

        Reply badVersion =
                send(
                        "POST",
                        "/v1/ops/dead-letters/" + id + "/discard",
                        OPS,
                        "{\"reason\":\"r\",\"expectedVersion\":\"one\"}");
        assertThat(badVersion.status()).isEqualTo(400);
        assertThat(code(badVersion)).isEqualTo("INVALID_FIELD");

        Reply unknownField =
                send(
                        "POST",
                        "/v1/ops/dead-letters/" + id + "/discard",
                        OPS,
                        "{\"reason\":\"r\",\"expectedVersion\":1,\"force\":true}");
        assertThat(unknownField.status()).isEqualTo(400);

        Reply notJson = send("POST", "/v1/ops/dead-letters/" + id + "/discard", OPS, "{reason");
        assertThat(notJson.status()).isEqualTo(400);
        assertThat(
                        send("GET", "/v1/ops/dead-letters/" + id, OPS, null)
                                .body()
                                .path("status")
                                .asText())
                .isEqualTo("OPEN");
    }
}
