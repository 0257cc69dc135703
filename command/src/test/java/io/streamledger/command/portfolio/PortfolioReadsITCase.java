package io.streamledger.command.portfolio;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.streamledger.command.config.TableProvisioner;
import io.streamledger.command.testing.CommandFixture;
import io.streamledger.command.testing.CommandFixture.Reply;
import io.streamledger.local.LocalDynamoDbExtension;
import io.streamledger.model.keys.PositionKey;
import io.streamledger.model.keys.ProjectionAliasKey;
import io.streamledger.model.table.Attr;
import io.streamledger.model.table.TableNaming;
import io.streamledger.model.table.Tables;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * AP07 reader follows the CS09 alias: no alias reads the projection job's default Portfolio_v1, an
 * alias at 2 reads Portfolio_v2; rows carry sourceVersion/gapOpen and the body says it is derived
 * and never authoritative (AP07 vs AP12); tenant-scoped keys; '#' ids are 400.
 */
class PortfolioReadsITCase {

    @RegisterExtension static LocalDynamoDbExtension local = new LocalDynamoDbExtension();

    private CommandFixture f;
    private TableNaming naming;

    @BeforeEach
    void start() {
        f = new CommandFixture(local.endpoint());
        naming = new TableNaming(f.prefix);
        TableProvisioner.create(
                f.client, Tables.PROJECTION, naming.physicalName(Tables.PROJECTION));
        for (int v = 1; v <= 2; v++) {
            TableProvisioner.create(
                    f.client, Tables.PORTFOLIO, naming.physicalName(Tables.PORTFOLIO, v));
        }
    }

    @AfterEach
    void stop() {
        f.close();
    }

    /** Writes one view row the way the projection job's PortfolioRows shapes it. */
    private void row(
            int version,
            String tenant,
            String account,
            String symbol,
            String posted,
            long sourceVersion,
            boolean gapOpen) {
        PositionKey key = new PositionKey(tenant, account, symbol);
        Map<String, AttributeValue> item = new HashMap<>();
        item.put(Attr.PK, AttributeValue.fromS(key.pk()));
        item.put(Attr.SK, AttributeValue.fromS(key.sk()));
        item.put("tenant", AttributeValue.fromS(tenant));
        item.put("accountId", AttributeValue.fromS(account));
        item.put("assetType", AttributeValue.fromS("SECURITY"));
        item.put("asset", AttributeValue.fromS(symbol));
        item.put("posted", AttributeValue.fromN(posted));
        item.put("reserved", AttributeValue.fromN("0"));
        item.put("available", AttributeValue.fromN(posted));
        item.put(Attr.SOURCE_VERSION, AttributeValue.fromN(Long.toString(sourceVersion)));
        item.put("gapOpen", AttributeValue.fromBool(gapOpen));
        item.put("parkedCount", AttributeValue.fromN(gapOpen ? "1" : "0"));
        item.put("authoritative", AttributeValue.fromBool(false));
        item.put("revision", AttributeValue.fromN("1"));
        f.client.putItem(
                b -> b.tableName(naming.physicalName(Tables.PORTFOLIO, version)).item(item));
    }

    private void alias(int activeVersion) {
        alias(activeVersion, null);
    }

    /** The alias as a cutover writes it, with the view scope its proof recorded (null: none). */
    private void alias(int activeVersion, String viewScope) {
        ProjectionAliasKey k = ProjectionAliasKey.PORTFOLIO;
        Map<String, AttributeValue> item = new HashMap<>();
        item.put(Attr.PK, AttributeValue.fromS(k.pk()));
        item.put(Attr.SK, AttributeValue.fromS(k.sk()));
        item.put(Attr.ACTIVE_VERSION, AttributeValue.fromN(Integer.toString(activeVersion)));
        if (viewScope != null) {
            item.put(Attr.VIEW_SCOPE, AttributeValue.fromS(viewScope));
        }
        f.client.putItem(b -> b.tableName(naming.physicalName(Tables.PROJECTION)).item(item));
    }

    private static List<String> symbols(Reply r) {
        List<String> out = new ArrayList<>();
        r.json().get("positions").forEach(p -> out.add(p.get("symbol").asText()));
        return out;
    }

    @Test
    void provisioningNamesVersionOneLiveAndKeepsAnAliasThatMoved() {
        row(1, CommandFixture.TENANT_A, "ACC-P", "AAPL", "10.50", 3, false);
        assertThat(TableProvisioner.provisionLiveNamespace(f.client, naming)).isTrue();
        Reply v1 = f.get("/v1/accounts/ACC-P/portfolio", CommandFixture.KEY_A);
        assertThat(v1.status()).as(v1.raw()).isEqualTo(200);
        assertThat(v1.json().get("namespaceVersion").asInt()).isEqualTo(1);
        assertThat(v1.json().get("namespaceSource").asText()).isEqualTo("ALIAS");

        alias(2);
        // a restart provisions again: the alias a cutover moved stays where it is
        assertThat(TableProvisioner.provisionLiveNamespace(f.client, naming)).isFalse();
        Reply v2 = f.get("/v1/accounts/ACC-P/portfolio", CommandFixture.KEY_A);
        assertThat(v2.json().get("namespaceVersion").asInt()).isEqualTo(2);
    }

    @Test
    void followsTheAliasFromTheDefaultNamespaceToVersionTwo() {
        row(1, CommandFixture.TENANT_A, "ACC-P", "AAPL", "10.50", 3, false);
        row(1, CommandFixture.TENANT_A, "ACC-P", "MSFT", "4", 7, true);
        row(2, CommandFixture.TENANT_A, "ACC-P", "AAPL", "12.000", 5, false);

        Reply v1 = f.get("/v1/accounts/ACC-P/portfolio", CommandFixture.KEY_A);
        assertThat(v1.status()).as(v1.raw()).isEqualTo(200);
        assertThat(v1.json().get("namespaceVersion").asInt()).isEqualTo(1);
        assertThat(v1.json().get("namespaceSource").asText()).isEqualTo("DEFAULT");
        assertThat(v1.json().get("authoritative").isBoolean()).isTrue();
        assertThat(v1.json().get("authoritative").asBoolean()).isFalse();
        assertThat(v1.json().get("consistency").asText()).isEqualTo("eventual");
        assertThat(v1.json().get("warning").asText()).contains("AP07").contains("never");
        assertThat(symbols(v1)).containsExactly("AAPL", "MSFT");
        JsonNode msft = v1.json().get("positions").get(1);
        assertThat(msft.get("sourceVersion").asLong()).isEqualTo(7);
        assertThat(msft.get("gapOpen").asBoolean()).isTrue();
        JsonNode aapl1 = v1.json().get("positions").get(0);
        // DynamoDB N normalizes trailing zeros; the value stays exact (no double on the way)
        assertThat(new BigDecimal(aapl1.get("posted").asText())).isEqualByComparingTo("10.50");
        assertThat(aapl1.get("sourceVersion").asLong()).isEqualTo(3);
        assertThat(aapl1.get("gapOpen").asBoolean()).isFalse();

        alias(2);
        Reply v2 = f.get("/v1/accounts/ACC-P/portfolio", CommandFixture.KEY_A);
        assertThat(v2.status()).as(v2.raw()).isEqualTo(200);
        assertThat(v2.json().get("namespaceVersion").asInt()).isEqualTo(2);
        assertThat(v2.json().get("namespaceSource").asText()).isEqualTo("ALIAS");
        assertThat(symbols(v2)).containsExactly("AAPL");
        assertThat(new BigDecimal(v2.json().get("positions").get(0).get("posted").asText()))
                .isEqualByComparingTo("12.000");
        assertThat(v2.json().get("positions").get(0).get("sourceVersion").asLong()).isEqualTo(5);
        assertThat(v2.json().get("authoritative").asBoolean()).isFalse();

        Reply one = f.get("/v1/accounts/ACC-P/portfolio?symbol=AAPL", CommandFixture.KEY_A);
        assertThat(one.status()).as(one.raw()).isEqualTo(200);
        assertThat(symbols(one)).containsExactly("AAPL");
        assertThat(one.json().get("namespaceVersion").asInt()).isEqualTo(2);
    }

    @Test
    void pagesStayInTheNamespaceTheFirstPageRead() {
        for (int i = 0; i < 5; i++) {
            row(1, CommandFixture.TENANT_A, "ACC-G", "S" + i, "1", 1, false);
        }
        List<String> seen = new ArrayList<>();
        Reply r = f.get("/v1/accounts/ACC-G/portfolio?limit=2", CommandFixture.KEY_A);
        assertThat(r.status()).as(r.raw()).isEqualTo(200);
        seen.addAll(symbols(r));
        alias(2); // a cutover mid-listing: Portfolio_v2 has no rows for ACC-G
        int pages = 1;
        while (!r.json().get("cursor").isNull() && pages < 10) {
            r =
                    f.get(
                            "/v1/accounts/ACC-G/portfolio?limit=2&cursor="
                                    + r.json().get("cursor").asText(),
                            CommandFixture.KEY_A);
            assertThat(r.status()).as(r.raw()).isEqualTo(200);
            assertThat(r.json().get("namespaceVersion").asInt()).isEqualTo(1);
            seen.addAll(symbols(r));
            pages++;
        }
        assertThat(seen).containsExactly("S0", "S1", "S2", "S3", "S4");
    }

    @Test
    void aClientsOnlyNamespaceRefusesAHouseAccountInsteadOfShowingItEmpty() {
        row(2, CommandFixture.TENANT_A, "ACC-S", "AAPL", "3", 2, false);
        Reply before = f.get("/v1/accounts/HOUSE-CLEARING-4/portfolio", CommandFixture.KEY_A);
        assertThat(before.status()).as(before.raw()).isEqualTo(200);
        assertThat(before.json().get("viewScope").asText()).isEqualTo("all");

        alias(2, "clients");
        Reply client = f.get("/v1/accounts/ACC-S/portfolio", CommandFixture.KEY_A);
        assertThat(client.status()).as(client.raw()).isEqualTo(200);
        assertThat(client.json().get("viewScope").asText()).isEqualTo("clients");
        assertThat(symbols(client)).containsExactly("AAPL");
        Reply house = f.get("/v1/accounts/HOUSE-CLEARING-4/portfolio", CommandFixture.KEY_A);
        assertThat(house.status()).as(house.raw()).isEqualTo(404);
        assertThat(house.json().get("error").get("code").asText()).isEqualTo("NOT_IN_VIEW_SCOPE");
        assertThat(house.json().get("error").get("message").asText()).contains("/balances");
    }

    @Test
    void aCursorKeepsTheScopeOfTheNamespaceItPinned() {
        for (int i = 0; i < 3; i++) {
            row(2, CommandFixture.TENANT_A, "ACC-C", "S" + i, "1", 1, false);
        }
        alias(2, "clients");
        Reply r = f.get("/v1/accounts/ACC-C/portfolio?limit=2", CommandFixture.KEY_A);
        assertThat(r.status()).as(r.raw()).isEqualTo(200);
        alias(1); // a cutover back to an every-account namespace mid-listing
        Reply next =
                f.get(
                        "/v1/accounts/ACC-C/portfolio?limit=2&cursor="
                                + r.json().get("cursor").asText(),
                        CommandFixture.KEY_A);
        assertThat(next.status()).as(next.raw()).isEqualTo(200);
        assertThat(next.json().get("namespaceVersion").asInt()).isEqualTo(2);
        assertThat(next.json().get("viewScope").asText()).isEqualTo("clients");
        assertThat(symbols(next)).containsExactly("S2");
    }

    @Test
    void anotherTenantsKeyCannotReadThePortfolio() {
        row(1, CommandFixture.TENANT_A, "ACC-T", "AAPL", "10", 1, false);
        Reply a = f.get("/v1/accounts/ACC-T/portfolio", CommandFixture.KEY_A);
        assertThat(symbols(a)).containsExactly("AAPL");

        Reply b = f.get("/v1/accounts/ACC-T/portfolio", CommandFixture.KEY_B);
        assertThat(b.status()).as(b.raw()).isEqualTo(200);
        assertThat(b.json().get("positions")).isEmpty();

        // tenant A's cursor cannot move tenant B's query into A's partition
        for (int i = 0; i < 3; i++) {
            row(1, CommandFixture.TENANT_A, "ACC-T", "X" + i, "1", 1, false);
        }
        Reply page = f.get("/v1/accounts/ACC-T/portfolio?limit=1", CommandFixture.KEY_A);
        String cursor = page.json().get("cursor").asText();
        Reply stolen = f.get("/v1/accounts/ACC-T/portfolio?cursor=" + cursor, CommandFixture.KEY_B);
        assertThat(stolen.status()).isEqualTo(400);
        assertThat(stolen.json().get("error").get("code").asText()).isEqualTo("INVALID_CURSOR");

        assertThat(f.get("/v1/accounts/ACC-T/portfolio", null).status()).isEqualTo(401);
    }

    @Test
    void badInputIs400() {
        Reply hash = f.get("/v1/accounts/ACC%23X/portfolio", CommandFixture.KEY_A);
        assertThat(hash.status()).as(hash.raw()).isEqualTo(400);
        assertThat(hash.json().get("error").get("code").asText()).isEqualTo("INVALID_ID");
        assertThat(hash.json().get("error").get("message").asText()).contains("'#'");

        Reply symbolHash = f.get("/v1/accounts/ACC-P/portfolio?symbol=A%23B", CommandFixture.KEY_A);
        assertThat(symbolHash.status()).isEqualTo(400);
        assertThat(symbolHash.json().get("error").get("code").asText()).isEqualTo("INVALID_ID");

        Reply unknown = f.get("/v1/accounts/ACC-P/portfolio?symbl=AAPL", CommandFixture.KEY_A);
        assertThat(unknown.status()).isEqualTo(400);
        assertThat(unknown.json().get("error").get("code").asText()).isEqualTo("UNKNOWN_PARAMETER");

        Reply limit = f.get("/v1/accounts/ACC-P/portfolio?limit=0", CommandFixture.KEY_A);
        assertThat(limit.status()).isEqualTo(400);
    }

    @Test
    void anAliasNamingAMissingNamespaceIs503NotAnEmptyPortfolio() {
        alias(3); // Portfolio_v3 was never created
        Reply r = f.get("/v1/accounts/ACC-P/portfolio", CommandFixture.KEY_A);
        assertThat(r.status()).as(r.raw()).isEqualTo(503);
        assertThat(r.json().get("error").get("code").asText())
                .isEqualTo("PORTFOLIO_NAMESPACE_UNAVAILABLE");
        assertThat(r.json().get("error").get("message").asText()).contains("Portfolio_v3");
    }
}
