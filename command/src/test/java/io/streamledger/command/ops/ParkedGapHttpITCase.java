package io.streamledger.command.ops;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.streamledger.aws.deadletter.ParkedGapItems;
import io.streamledger.command.api.HttpApi;
import io.streamledger.command.auth.ApiKeyAuthenticator;
import io.streamledger.command.auth.ApiKeyAuthenticator.Role;
import io.streamledger.model.deadletter.ParkedGapStatus;
import java.time.Clock;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;

/**
 * The {@code /v1/ops/parked-gaps} routes over HTTP against the local endpoint (CS07): an ops key
 * lists and shows its tenant's parked gaps and requests an audited skip; a trader key, an auditor's
 * skip and another tenant are 403; a stale version is 409; a skip without a reason or with a bad id
 * is 400. The record's writes are conditional and order-free.
 */
class ParkedGapHttpITCase {

    private static final String OPS = "ops-key-t1";
    private static final String AUDITOR = "auditor-key-t1";
    private static final String TRADER = "trader-key-t1";

    private DeadLetterTable stack;
    private HttpApi http;
    private OpsHttp web;
    private ParkedGapItems.Observation gap;

    @BeforeEach
    void start() {
        stack = new DeadLetterTable("pgh");
        ApiKeyAuthenticator auth =
                ApiKeyAuthenticator.builder()
                        .key("t1", OPS, Role.FINANCE_OPS)
                        .key("t1", AUDITOR, Role.AUDITOR)
                        .key("t1", TRADER)
                        .build();
        ParkedGapRepository repo =
                new ParkedGapRepository(
                        stack.ddb, stack.table, stack.auditTable, Clock.systemUTC());
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
                                        new OpsApi(null, null, null, new ParkedGapRoutes(repo))))
                        .start("127.0.0.1", 0);
        web = new OpsHttp(http.port());
        gap = observation(3, 100L);
        stack.ddb.updateItem(ParkedGapItems.observe(stack.table, gap));
    }

    private static ParkedGapItems.Observation observation(int parked, long at) {
        return new ParkedGapItems.Observation(
                "t1",
                "posting",
                "posting-exec-order-gate-v1",
                "t1/acct-1",
                2,
                50L,
                60_050L,
                parked,
                List.of(3L, 4L, 5L).subList(0, parked),
                false,
                at);
    }

    @AfterEach
    void stop() {
        http.close();
        stack.close();
    }

    @Test
    void opsKeyListsShowsAndRequestsAnAuditedSkip() throws Exception {
        String id = ParkedGapItems.ref("posting", gap.id());
        OpsHttp.Reply list = web.get("/v1/ops/parked-gaps?job=posting&status=OPEN", AUDITOR);
        assertThat(list.status()).isEqualTo(200);
        assertThat(list.body().path("items")).hasSize(1);
        assertThat(list.body().path("items").get(0).path("id").asText()).isEqualTo(id);
        assertThat(list.body().path("items").get(0).path("parkedVersions").toString())
                .isEqualTo("[3,4,5]");

        OpsHttp.Reply show = web.get("/v1/ops/parked-gaps/" + id, OPS);
        assertThat(show.status()).isEqualTo(200);
        assertThat(show.body().path("aggregateKey").asText()).isEqualTo("t1/acct-1");
        assertThat(show.body().path("missingVersion").asLong()).isEqualTo(2);
        assertThat(show.body().path("slaDeadline").asText()).isEqualTo("1970-01-01T00:01:00.050Z");

        String skip = "/v1/ops/parked-gaps/" + id + "/skip";
        assertThat(web.send("POST", skip, AUDITOR, "{\"reason\":\"x\"}").status()).isEqualTo(403);
        assertThat(web.send("POST", skip, TRADER, "{\"reason\":\"x\"}").status()).isEqualTo(403);
        assertThat(web.send("POST", skip, OPS, "{}").status()).isEqualTo(400);
        assertThat(
                        web.send(
                                        "POST",
                                        "/v1/ops/parked-gaps/posting:nothex/skip",
                                        OPS,
                                        "{\"reason\":\"x\"}")
                                .status())
                .isEqualTo(400);
        assertThat(web.get("/v1/ops/parked-gaps?job=posting&tenant=t2", OPS).status())
                .isEqualTo(403);

        OpsHttp.Reply done =
                web.send(
                        "POST",
                        skip,
                        OPS,
                        "{\"reason\":\"fill withdrawn upstream\",\"expectedVersion\":1}");
        assertThat(done.status()).isEqualTo(200);
        assertThat(done.body().path("status").asText()).isEqualTo("SKIP_REQUESTED");
        assertThat(done.body().path("skipReason").asText()).isEqualTo("fill withdrawn upstream");
        assertThat(done.body().path("skipRequestedBy").asText()).startsWith("finance-ops:");
        assertThat(
                        web.send("POST", skip, OPS, "{\"reason\":\"again\",\"expectedVersion\":1}")
                                .status())
                .isEqualTo(409);
        var audits =
                BreakTable.audits(stack.ddb, stack.auditTable).stream()
                        .filter(a -> a.target().equals(id))
                        .toList();
        assertThat(audits).hasSize(1);
        assertThat(audits.get(0).action()).isEqualTo("SKIP");
        assertThat(audits.get(0).toStatus()).isEqualTo("SKIP_REQUESTED");
        assertThat(audits.get(0).detail()).isEqualTo("fill withdrawn upstream");
    }

    @Test
    void writesAreConditionalRepeatableAndOrderFree() {
        ParkedGapRepository repo =
                new ParkedGapRepository(
                        stack.ddb, stack.table, stack.auditTable, Clock.systemUTC());
        String id = ParkedGapItems.ref("posting", gap.id());
        // a newer observation refreshes the open gap; an older one changes nothing
        stack.ddb.updateItem(ParkedGapItems.observe(stack.table, observation(2, 200L)));
        assertThatThrownBy(
                        () ->
                                stack.ddb.updateItem(
                                        ParkedGapItems.observe(stack.table, observation(3, 150L))))
                .isInstanceOf(ConditionalCheckFailedException.class);
        assertThat(repo.show("t1", id).orElseThrow().parkedCount()).isEqualTo(2);

        stack.ddb.updateItem(
                ParkedGapItems.settle(
                        stack.table, observation(2, 300L), ParkedGapStatus.ARRIVED, "job:p", "in"));
        ParkedGapItems.View arrived = repo.show("t1", id).orElseThrow();
        assertThat(arrived.status()).isEqualTo(ParkedGapStatus.ARRIVED);
        assertThat(arrived.version()).isEqualTo(2);
        // terminal: a repeat, a late open and a skip request all leave it as it is
        assertThatThrownBy(
                        () ->
                                stack.ddb.updateItem(
                                        ParkedGapItems.settle(
                                                stack.table,
                                                observation(2, 300L),
                                                ParkedGapStatus.SKIPPED,
                                                "ops:a",
                                                "late")))
                .isInstanceOf(ConditionalCheckFailedException.class);
        assertThatThrownBy(
                        () ->
                                stack.ddb.updateItem(
                                        ParkedGapItems.observe(stack.table, observation(1, 400L))))
                .isInstanceOf(ConditionalCheckFailedException.class);
        assertThat(repo.requestSkip("t1", id, null, "ops:a", "too late").outcome())
                .isEqualTo(ParkedGapRepository.Outcome.CONFLICT);
        assertThat(repo.list("t1", "posting", ParkedGapStatus.OPEN, 10, null).items()).isEmpty();

        // a close delivered before its open creates the closed record; the open is then a no-op
        ParkedGapItems.Observation other =
                new ParkedGapItems.Observation(
                        "t1", "posting", "g", "t1/acct-2", 7, 1L, 2L, 1, List.of(8L), false, 5L);
        stack.ddb.updateItem(
                ParkedGapItems.settle(stack.table, other, ParkedGapStatus.ARRIVED, "job:p", "in"));
        assertThatThrownBy(() -> stack.ddb.updateItem(ParkedGapItems.observe(stack.table, other)))
                .isInstanceOf(ConditionalCheckFailedException.class);
        assertThat(
                        repo.show("t1", ParkedGapItems.ref("posting", other.id()))
                                .orElseThrow()
                                .status())
                .isEqualTo(ParkedGapStatus.ARRIVED);
    }
}
