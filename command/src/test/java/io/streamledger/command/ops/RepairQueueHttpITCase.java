package io.streamledger.command.ops;

import static io.streamledger.command.ops.OpsHttp.code;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.streamledger.aws.items.OpsAuditItems;
import io.streamledger.command.api.HttpApi;
import io.streamledger.command.auth.ApiKeyAuthenticator;
import io.streamledger.command.auth.ApiKeyAuthenticator.Role;
import io.streamledger.command.dynamo.CapacityMeter;
import io.streamledger.command.idempotency.Claim;
import io.streamledger.command.idempotency.IdempotencyRecord;
import io.streamledger.command.idempotency.RequestState;
import io.streamledger.command.repair.IdempotencyRepairWorker;
import io.streamledger.command.repair.RepairOutcome;
import io.streamledger.command.testing.CommandFixture;
import io.streamledger.local.LocalDynamoDbExtension;
import io.streamledger.model.table.Tables;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The AP18 repair queue over HTTP against one local endpoint (clock injected): an escalated record
 * waits for an operator instead of re-entering the worker's queue, carries no TTL and is still
 * listed with its age after the retention horizon; complete, reattempt and close are conditional on
 * state and version and audited; wrong role and another tenant → 403/404.
 */
class RepairQueueHttpITCase {

    @RegisterExtension static LocalDynamoDbExtension local = new LocalDynamoDbExtension();

    private static final String OPS = "orders-ops-key";
    private static final String AUDITOR = "auditor-key";
    private static final String TRADER = "trader-key";
    private static final String OPS_B = "ops-key-b";
    private static final String A = CommandFixture.TENANT_A;

    static CommandFixture f;
    static HttpApi http;
    static OpsHttp web;

    @BeforeAll
    static void start() {
        f = new CommandFixture(local.endpoint());
        ApiKeyAuthenticator auth =
                ApiKeyAuthenticator.builder()
                        .key(A, OPS, Role.ORDERS_OPS)
                        .key(A, AUDITOR, Role.AUDITOR)
                        .key(A, TRADER)
                        .key(CommandFixture.TENANT_B, OPS_B, Role.ORDERS_OPS)
                        .build();
        http =
                new HttpApi(
                                auth,
                                new HttpApi.Services(
                                        null,
                                        null,
                                        null,
                                        null,
                                        null,
                                        null,
                                        null,
                                        null,
                                        f.service.opsApi()))
                        .start("127.0.0.1", 0);
        web = new OpsHttp(http.port());
    }

    @AfterAll
    static void stop() {
        http.close();
        f.close();
    }

    private static IdempotencyRepairWorker worker() {
        return f.service.repairWorker(() -> List.of(A), "repair-w");
    }

    /** A reservation request the worker cannot re-attempt: it escalates it. */
    private static String escalated(String id) {
        String key = "RESERVE:" + id;
        Claim c =
                f.service
                        .store()
                        .claim(
                                A,
                                key,
                                "Reserve",
                                "fp",
                                "p1",
                                "{\"reservationId\":\"" + id + "\"}",
                                id,
                                new CapacityMeter());
        f.service.store().markRepairRequired(c, "ambiguous", Duration.ZERO, new CapacityMeter());
        f.clock.advance(Duration.ofMillis(10));
        assertThat(worker().repairOne(A, key)).isEqualTo(RepairOutcome.ESCALATED);
        return key;
    }

    private static List<JsonNode> listed(String query, String key) throws Exception {
        List<JsonNode> out = new ArrayList<>();
        String cursor = null;
        int pages = 0;
        do {
            OpsHttp.Reply p =
                    web.send(
                            "GET",
                            "/v1/ops/repairs?limit=2"
                                    + query
                                    + (cursor == null ? "" : "&cursor=" + cursor),
                            key,
                            null);
            assertThat(p.status()).as(p.body().toString()).isEqualTo(200);
            p.body().path("items").forEach(out::add);
            cursor = p.body().path("cursor").isNull() ? null : p.body().path("cursor").asText();
        } while (cursor != null && ++pages < 20);
        return out;
    }

    private static IdempotencyRecord record(String key) {
        return f.service.store().read(A, key, new CapacityMeter());
    }

    private static List<OpsAuditItems.Entry> audits(String key) {
        return BreakTable.audits(
                        f.client, f.service.tables().naming().physicalName(Tables.RECONCILIATION))
                .stream()
                .filter(a -> a.target().equals(key))
                .toList();
    }

    @Test
    void anEscalatedRecordWaitsForAnOperatorPastTheTtlHorizonAndIsClosedOnce() throws Exception {
        String key = escalated("r-old");
        Duration retention = f.service.config().retention();
        f.clock.advance(retention.plusDays(1));
        IdempotencyRepairWorker w = worker();
        assertThat(w.pollOnce()).as("not in the worker's due queue").isZero();
        assertThat(w.repairOne(A, key)).isEqualTo(RepairOutcome.SKIPPED);
        assertThat(record(key).repairCount()).isEqualTo(1);

        JsonNode row =
                listed("&state=ESCALATED", AUDITOR).stream()
                        .filter(r -> r.path("id").asText().equals(key))
                        .findFirst()
                        .orElseThrow();
        assertThat(row.path("escalated").asBoolean()).isTrue();
        assertThat(row.path("state").asText()).isEqualTo("REPAIR_REQUIRED");
        assertThat(row.path("ageSeconds").asLong()).isGreaterThan(retention.toSeconds());
        assertThat(row.path("expiresAt").isNull()).as("no TTL while unresolved").isTrue();

        OpsHttp.Reply show = web.send("GET", "/v1/ops/repairs/" + key, AUDITOR, null);
        assertThat(show.status()).isEqualTo(200);
        assertThat(show.body().path("command").asText()).contains("r-old");
        assertThat(show.body().path("repairReason").asText()).startsWith("ESCALATED: ");
        int version = show.body().path("version").asInt();

        OpsHttp.Reply stale =
                web.send(
                        "POST",
                        "/v1/ops/repairs/" + key + "/resolve",
                        OPS,
                        "{\"action\":\"close\",\"expectedVersion\":"
                                + (version - 1)
                                + ",\"reason\":\"client cancelled\"}");
        assertThat(stale.status()).isEqualTo(409);
        assertThat(code(stale)).isEqualTo("STALE_VERSION");

        OpsHttp.Reply closed =
                web.send(
                        "POST",
                        "/v1/ops/repairs/" + key + "/resolve",
                        OPS,
                        "{\"action\":\"close\",\"expectedVersion\":"
                                + version
                                + ",\"reason\":\"client cancelled\"}");
        assertThat(closed.status()).as(closed.body().toString()).isEqualTo(200);
        assertThat(closed.body().path("state").asText()).isEqualTo("COMPLETED");
        assertThat(closed.body().path("responseStatus").asInt()).isEqualTo(410);
        Instant expires = Instant.parse(closed.body().path("expiresAt").asText());
        assertThat(expires)
                .isAfter(f.clock.instant().plus(RepairQueue.AUDIT_HORIZON).minusSeconds(5));
        assertThat(record(key).state()).isEqualTo(RequestState.COMPLETED);
        assertThat(listed("", OPS).stream().map(r -> r.path("id").asText())).doesNotContain(key);

        OpsHttp.Reply again =
                web.send(
                        "POST",
                        "/v1/ops/repairs/" + key + "/resolve",
                        OPS,
                        "{\"action\":\"close\",\"expectedVersion\":"
                                + version
                                + ",\"reason\":\"twice\"}");
        assertThat(again.status()).isEqualTo(409);
        List<OpsAuditItems.Entry> audit = audits(key);
        assertThat(audit).hasSize(1);
        assertThat(audit.get(0).action()).isEqualTo("CLOSE");
        assertThat(audit.get(0).role()).isEqualTo("orders-ops");
        assertThat(audit.get(0).fromVersion()).isEqualTo(version);
        assertThat(audit.get(0).toStatus()).isEqualTo("COMPLETED");
        assertThat(audit.get(0).detail()).contains("client cancelled");
    }

    @Test
    void reattemptPutsTheRecordBackAndCompleteStoresTheOperatorsResponse() throws Exception {
        String key = escalated("r-again");
        int v = record(key).attempt();
        OpsHttp.Reply re =
                web.send(
                        "POST",
                        "/v1/ops/repairs/" + key + "/resolve",
                        OPS,
                        "{\"action\":\"reattempt\",\"expectedVersion\":"
                                + v
                                + ",\"note\":\"store recovered\"}");
        assertThat(re.status()).as(re.body().toString()).isEqualTo(200);
        assertThat(re.body().path("escalated").asBoolean()).isFalse();
        assertThat(re.body().path("version").asInt()).isEqualTo(v + 1);
        f.clock.advance(Duration.ofMillis(10));
        assertThat(worker().repairOne(A, key))
                .as("the worker takes it up again")
                .isEqualTo(RepairOutcome.ESCALATED);
        assertThat(record(key).repairCount()).isEqualTo(2);

        int v2 = record(key).attempt();
        OpsHttp.Reply done =
                web.send(
                        "POST",
                        "/v1/ops/repairs/" + key + "/resolve",
                        OPS,
                        "{\"action\":\"complete\",\"expectedVersion\":"
                                + v2
                                + ",\"responseStatus\":201,\"responseBody\":"
                                + "{\"reservation\":{\"reservationId\":\"r-again\"}},"
                                + "\"note\":\"hold found on the authority\"}");
        assertThat(done.status()).as(done.body().toString()).isEqualTo(200);
        IdempotencyRecord rec = record(key);
        assertThat(rec.state()).isEqualTo(RequestState.COMPLETED);
        assertThat(rec.response().status()).isEqualTo(201);
        assertThat(rec.response().body()).contains("r-again");
        assertThat(audits(key).stream().map(OpsAuditItems.Entry::action))
                .containsExactlyInAnyOrder("REATTEMPT", "COMPLETE");
    }

    @Test
    void wrongRoleAnotherTenantAndBadRequestsAreRefused() throws Exception {
        String key = escalated("r-guard");
        int v = record(key).attempt();
        String close = "{\"action\":\"close\",\"expectedVersion\":" + v + ",\"reason\":\"x\"}";
        String[][] routes = {
            {"GET", "/v1/ops/repairs", null},
            {"GET", "/v1/ops/repairs/" + key, null},
            {"POST", "/v1/ops/repairs/" + key + "/resolve", close}
        };
        for (String[] r : routes) {
            assertThat(code(web.send(r[0], r[1], TRADER, r[2]))).as(r[1]).isEqualTo("FORBIDDEN");
            String sep = r[1].contains("?") ? "&" : "?";
            assertThat(code(web.send(r[0], r[1] + sep + "tenant=" + A, OPS_B, r[2])))
                    .as(r[1])
                    .isEqualTo("CROSS_TENANT");
        }
        assertThat(code(web.send("POST", "/v1/ops/repairs/" + key + "/resolve", AUDITOR, close)))
                .isEqualTo("FORBIDDEN");
        assertThat(web.send("GET", "/v1/ops/repairs/" + key, OPS_B, null).status()).isEqualTo(404);
        assertThat(web.send("POST", "/v1/ops/repairs/" + key + "/resolve", OPS_B, close).status())
                .isEqualTo(404);
        assertThat(listed("", OPS_B).stream().map(r -> r.path("id").asText())).doesNotContain(key);
        assertThat(
                        code(
                                web.send(
                                        "POST",
                                        "/v1/ops/repairs/" + key + "/resolve",
                                        OPS,
                                        "{\"action\":\"delete\",\"expectedVersion\":" + v + "}")))
                .isEqualTo("INVALID_FIELD");
        assertThat(code(web.send("GET", "/v1/ops/repairs?cursor=zz", OPS, null)))
                .isEqualTo("INVALID_CURSOR");
        assertThat(code(web.send("GET", "/v1/ops/repairs?state=LOST", OPS, null)))
                .isEqualTo("INVALID_FIELD");
        assertThat(record(key).state()).isEqualTo(RequestState.REPAIR_REQUIRED);
        assertThat(audits(key)).isEmpty();
    }
}
