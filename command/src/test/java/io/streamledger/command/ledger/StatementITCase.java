package io.streamledger.command.ledger;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.streamledger.command.testing.CommandFixture;
import io.streamledger.command.testing.CommandFixture.Reply;
import io.streamledger.local.LocalDynamoDbExtension;
import java.math.BigDecimal;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.YearMonth;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * AP11 over HTTP: an account-month whose postings span three IDX10 buckets (buckets roll at 4
 * postings here) is read back page by page through one cursor, every posting once and in merged
 * sort-key order, with running control totals and a month summary equal to the AP12 authority.
 */
class StatementITCase {

    @RegisterExtension static LocalDynamoDbExtension local = new LocalDynamoDbExtension();

    static CommandFixture f;
    static final String ACCOUNT = "ST-1";

    @BeforeAll
    static void start() {
        f = new CommandFixture(local.endpoint(), c -> c.withLedgerBucketPostings(4));
        // 9 cash and 3 security postings on ST-1: buckets 0, 1, 2
        for (int i = 1; i <= 9; i++) {
            f.fund(CommandFixture.KEY_A, ACCOUNT, "currency", "USD", i + ".25");
            if (i % 3 == 0) {
                f.fund(CommandFixture.KEY_A, ACCOUNT, "symbol", "AAPL", Integer.toString(i));
            }
        }
    }

    @AfterAll
    static void stop() {
        f.close();
    }

    private static String month() {
        return YearMonth.from(f.clock.instant().atZone(ZoneOffset.UTC)).toString();
    }

    /** Every page of the statement, following the cursor. */
    private static List<JsonNode> readAll(String asset, int limit) {
        List<JsonNode> pages = new ArrayList<>();
        String cursor = null;
        do {
            String path =
                    "/v1/accounts/"
                            + ACCOUNT
                            + "/ledger?month="
                            + month()
                            + "&limit="
                            + limit
                            + (asset == null ? "" : "&asset=" + asset)
                            + (cursor == null
                                    ? ""
                                    : "&cursor="
                                            + URLEncoder.encode(cursor, StandardCharsets.UTF_8));
            Reply r = f.get(path, CommandFixture.KEY_A);
            assertThat(r.status()).as(r.raw()).isEqualTo(200);
            pages.add(r.json());
            assertThat(r.json().get("postings").size()).isLessThanOrEqualTo(limit);
            cursor = r.json().path("cursor").isNull() ? null : r.json().path("cursor").asText(null);
            assertThat(pages).hasSizeLessThan(100);
        } while (cursor != null);
        return pages;
    }

    @Test
    void threeBucketsReadInMergedOrderOnceWithControlTotalsEqualToTheAuthority() {
        List<JsonNode> pages = readAll(null, 5);
        List<JsonNode> postings = new ArrayList<>();
        pages.forEach(p -> p.get("postings").forEach(postings::add));
        assertThat(postings).hasSize(12);
        Set<Integer> buckets = new HashSet<>();
        Set<String> seen = new HashSet<>();
        String last = "";
        Map<String, BigDecimal> running = new HashMap<>();
        for (JsonNode p : postings) {
            buckets.add(p.get("bucket").asInt());
            assertThat(seen.add(p.get("txnId").asText() + "#" + p.get("line").asText())).isTrue();
            // the IDX10 sort key order: posting time, then txn, then line
            String order =
                    p.get("postedAt").asText()
                            + "#"
                            + p.get("txnId").asText()
                            + "#"
                            + String.format("%04d", p.get("line").asInt());
            assertThat(order).isGreaterThan(last);
            last = order;
            String asset = p.get("assetType").asText() + "/" + p.get("asset").asText();
            BigDecimal total =
                    running.merge(asset, new BigDecimal(p.get("amount").asText()), BigDecimal::add);
            assertThat(new BigDecimal(p.get("runningTotal").asText())).isEqualByComparingTo(total);
        }
        assertThat(buckets).containsExactlyInAnyOrder(0, 1, 2);
        JsonNode control = pages.get(pages.size() - 1).get("controlTotals");
        JsonNode summary =
                f.get(
                                "/v1/accounts/" + ACCOUNT + "/ledger/summary?month=" + month(),
                                CommandFixture.KEY_A)
                        .json()
                        .get("assets");
        Map<String, String> posted = new HashMap<>();
        for (JsonNode b :
                f.get("/v1/accounts/" + ACCOUNT + "/balances", CommandFixture.KEY_A)
                        .json()
                        .get("balances")) {
            String asset =
                    b.has("currency")
                            ? "CASH/" + b.get("currency").asText()
                            : "SEC/" + b.get("symbol").asText();
            posted.put(asset, b.get("posted").asText());
        }
        assertThat(posted).containsOnlyKeys("CASH/USD", "SEC/AAPL");
        posted.forEach(
                (asset, p) -> {
                    assertThat(new BigDecimal(control.get(asset).asText()))
                            .as("control total %s", asset)
                            .isEqualByComparingTo(p);
                    JsonNode s = summary.get(asset);
                    assertThat(new BigDecimal(s.get("closing").asText())).isEqualByComparingTo(p);
                    assertThat(new BigDecimal(s.get("opening").asText())).isZero();
                    assertThat(new BigDecimal(s.get("credits").asText())).isEqualByComparingTo(p);
                    assertThat(new BigDecimal(s.get("debits").asText())).isZero();
                });
        assertThat(summary.get("CASH/USD").get("postings").asLong()).isEqualTo(9);
        assertThat(summary.get("SEC/AAPL").get("postings").asLong()).isEqualTo(3);
    }

    @Test
    void anAssetFilterContinuesAfterEmptyPagesAndTheCursorIsBoundToItsQuery() {
        List<JsonNode> pages = readAll("AAPL", 1);
        List<JsonNode> postings = new ArrayList<>();
        pages.forEach(p -> p.get("postings").forEach(postings::add));
        assertThat(postings).hasSize(3).allMatch(p -> p.get("asset").asText().equals("AAPL"));
        assertThat(pages.get(pages.size() - 1).get("controlTotals").get("SEC/AAPL").asText())
                .isEqualTo("18");

        String cursor = pages.get(0).get("cursor").asText();
        Reply other =
                f.get(
                        "/v1/accounts/"
                                + ACCOUNT
                                + "/ledger?month="
                                + month()
                                + "&cursor="
                                + URLEncoder.encode(cursor, StandardCharsets.UTF_8),
                        CommandFixture.KEY_A);
        assertThat(other.status()).isEqualTo(400);
        assertThat(other.json().at("/error/code").asText()).isEqualTo("INVALID_CURSOR");
    }
}
