package io.streamledger.command.ops;

import static io.streamledger.command.ops.OpsHttp.code;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.streamledger.aws.items.Av;
import io.streamledger.aws.items.BatchItems;
import io.streamledger.command.api.HttpApi;
import io.streamledger.command.auth.ApiKeyAuthenticator;
import io.streamledger.command.auth.ApiKeyAuthenticator.Role;
import io.streamledger.model.table.Attr;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * The AP14 {@code /v1/ops/recon/batches} reads over HTTP against one local endpoint: a date's
 * batches (IDX13, paginated, tenant-bound cursor) and one batch with its window, manifest, control
 * totals, outcome, breaks count and breaks; trader → 403, another tenant → 403/404.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class BatchHttpITCase {

    private static final String OPS = "ops-key-t1";
    private static final String AUDITOR = "auditor-key-t1";
    private static final String TRADER = "trader-key-t1";
    private static final String OPS_T2 = "ops-key-t2";
    private static final LocalDate DAY = LocalDate.parse("2026-11-30");

    private BreakTable stack;
    private HttpApi http;
    private OpsHttp web;

    @BeforeAll
    void start() {
        stack = new BreakTable("bah");
        ApiKeyAuthenticator auth =
                ApiKeyAuthenticator.builder()
                        .key("t1", OPS, Role.ORDERS_OPS)
                        .key("t1", AUDITOR, Role.AUDITOR)
                        .key("t1", TRADER)
                        .key("t2", OPS_T2, Role.FINANCE_OPS)
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
                                        new OpsApi(
                                                null,
                                                new BatchQueries(stack.ddb, stack.table),
                                                null)))
                        .start("127.0.0.1", 0);
        web = new OpsHttp(http.port());
        for (int h = 8; h < 11; h++) {
            batch("t1", DAY, String.format("RECON-20261130T%02d0000Z-3600s", h), h, h == 8 ? 1 : 0);
        }
        batch("t1", DAY.plusDays(1), "RECON-20261201T000000Z-3600s", 0, 0);
        batch("t2", DAY, "RECON-20261130T080000Z-3600s", 8, 0);
        stack.put(
                "t1",
                "RECON-20261130T080000Z-3600s",
                "MISSING_LEDGER_TXN:f-1",
                "MISSING_LEDGER_TXN",
                "RECONCILIATION",
                Instant.parse("2026-11-30T08:59:59Z"),
                "fill f-1",
                "{\"expectedTxnId\":\"t-1\"}");
    }

    private void batch(String tenant, LocalDate date, String id, int hour, int breaks) {
        Instant start =
                date.atStartOfDay().toInstant(java.time.ZoneOffset.UTC).plusSeconds(hour * 3600L);
        BatchItems.Batch b =
                new BatchItems.Batch(
                        tenant,
                        date,
                        id,
                        start,
                        start.plusSeconds(3600),
                        60_000,
                        "{\"fills\":3}",
                        "{\"USD\":\"-1234.50\"}",
                        breaks == 0 ? "MATCHED" : "BREAKS",
                        true,
                        breaks);
        Map<String, AttributeValue> item = new HashMap<>(BatchItems.key(b));
        item.putAll(BatchItems.attributes(b));
        item.put(Attr.SOURCE_VERSION, Av.n(4));
        stack.ddb.putItem(r -> r.tableName(stack.table).item(item));
    }

    @AfterAll
    void stop() {
        http.close();
        stack.close();
    }

    @Test
    void listsADatesBatchesPageByPageAndShowsOneWithItsBreaks() throws Exception {
        List<String> ids = new ArrayList<>();
        OpsHttp.Reply first = web.get("/v1/ops/recon/batches?date=2026-11-30&limit=2", AUDITOR);
        assertThat(first.status()).isEqualTo(200);
        first.body().path("items").forEach(i -> ids.add(i.path("id").asText()));
        String cursor = first.body().path("cursor").asText();
        OpsHttp.Reply second =
                web.get("/v1/ops/recon/batches?date=2026-11-30&limit=2&cursor=" + cursor, AUDITOR);
        second.body().path("items").forEach(i -> ids.add(i.path("id").asText()));
        assertThat(ids)
                .containsExactly(
                        "2026-11-30:RECON-20261130T080000Z-3600s",
                        "2026-11-30:RECON-20261130T090000Z-3600s",
                        "2026-11-30:RECON-20261130T100000Z-3600s");
        assertThat(web.get("/v1/ops/recon/batches?date=2026-12-01&cursor=" + cursor, OPS).status())
                .isEqualTo(400);

        OpsHttp.Reply show = web.get("/v1/ops/recon/batches/" + ids.get(0), OPS);
        assertThat(show.status()).isEqualTo(200);
        JsonNode b = show.body();
        assertThat(b.path("windowStart").asText()).isEqualTo("2026-11-30T08:00:00Z");
        assertThat(b.path("windowEnd").asText()).isEqualTo("2026-11-30T09:00:00Z");
        assertThat(b.path("manifest").path("fills").asInt()).isEqualTo(3);
        assertThat(b.path("controlTotals").path("USD").asText()).isEqualTo("-1234.50");
        assertThat(b.path("outcome").asText()).isEqualTo("BREAKS");
        assertThat(b.path("state").asText()).isEqualTo("CLOSED");
        assertThat(b.path("breakCount").asInt()).isEqualTo(1);
        assertThat(b.path("revision").asLong()).isEqualTo(4);
        assertThat(b.path("breaks")).hasSize(1);
        assertThat(b.path("breaks").get(0).path("reason").asText()).isEqualTo("MISSING_LEDGER_TXN");
        assertThat(BreakRef.parse(b.path("breaks").get(0).path("id").asText()).breakId())
                .isEqualTo("MISSING_LEDGER_TXN:f-1");
    }

    @Test
    void wrongRoleAndAnotherTenantAreRefused() throws Exception {
        String id = "2026-11-30:RECON-20261130T090000Z-3600s";
        for (String path :
                List.of("/v1/ops/recon/batches?date=2026-11-30", "/v1/ops/recon/batches/" + id)) {
            assertThat(code(web.get(path, TRADER))).as(path).isEqualTo("FORBIDDEN");
            String sep = path.contains("?") ? "&" : "?";
            assertThat(code(web.get(path + sep + "tenant=t1", OPS_T2))).isEqualTo("CROSS_TENANT");
        }
        assertThat(web.get("/v1/ops/recon/batches/" + id, OPS_T2).status()).isEqualTo(404);
        assertThat(web.get("/v1/ops/recon/batches?date=2026-11-30", OPS_T2).body().path("items"))
                .hasSize(1);
        assertThat(code(web.get("/v1/ops/recon/batches", OPS))).isEqualTo("MISSING_PARAMETER");
        assertThat(code(web.get("/v1/ops/recon/batches?date=30.11.2026", OPS)))
                .isEqualTo("INVALID_FIELD");
        assertThat(code(web.get("/v1/ops/recon/batches/RECON-1", OPS))).isEqualTo("INVALID_FIELD");
        assertThat(web.get("/v1/ops/recon/batches/2026-11-30:RECON-none", OPS).status())
                .isEqualTo(404);
    }
}
