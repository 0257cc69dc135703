package io.streamledger.command.ledger;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.streamledger.command.testing.CommandFixture;
import io.streamledger.command.testing.CommandFixture.Reply;
import io.streamledger.local.LocalDynamoDbExtension;
import io.streamledger.model.ledger.LedgerSchema;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.services.dynamodb.model.ScanRequest;

/**
 * AP10/AP12/CS11: balanced immutable postings, authority versions, overdraft, reversals,
 * reservations.
 */
class LedgerITCase {

    @RegisterExtension static LocalDynamoDbExtension local = new LocalDynamoDbExtension();

    static CommandFixture f;

    @BeforeAll
    static void start() {
        f = new CommandFixture(local.endpoint());
    }

    @AfterAll
    static void stop() {
        f.close();
    }

    static String txn(String sourceId, String from, String to, String amount) {
        return "{\"sourceId\":\""
                + sourceId
                + "\",\"postings\":["
                + "{\"accountId\":\""
                + from
                + "\",\"currency\":\"USD\",\"amount\":\"-"
                + amount
                + "\"},"
                + "{\"accountId\":\""
                + to
                + "\",\"currency\":\"USD\",\"amount\":\""
                + amount
                + "\"}]}";
    }

    static Reply post(String body) {
        return f.post("/v1/ledger/transactions", CommandFixture.KEY_A, null, body);
    }

    static JsonNode balance(String account, String ccy) {
        Reply r = f.get("/v1/accounts/" + account + "/balances", CommandFixture.KEY_A);
        assertThat(r.status()).isEqualTo(200);
        for (JsonNode b : r.json().get("balances")) {
            if (ccy.equals(b.path("currency").asText(null))
                    || ccy.equals(b.path("symbol").asText(null))) {
                return b;
            }
        }
        return null;
    }

    static int ledgerItems() {
        return f.client
                .scan(ScanRequest.builder().tableName(f.service.tables().ledger()).build())
                .count();
    }

    @Test
    void everyPostingCarriesItsTransactionsLineCount() {
        Reply r = post(txn("dep-lc", "SYS-BANK-LC", "L-LC1", "12.00"));
        assertThat(r.status()).as(r.raw()).isEqualTo(201);
        String txnId = r.json().at("/transaction/txnId").asText();

        var postings =
                f
                        .client
                        .scan(ScanRequest.builder().tableName(f.service.tables().ledger()).build())
                        .items()
                        .stream()
                        .filter(i -> i.containsKey(LedgerSchema.TXN_ID))
                        .filter(i -> txnId.equals(i.get(LedgerSchema.TXN_ID).s()))
                        .toList();

        assertThat(postings).hasSize(2);
        assertThat(postings)
                .allSatisfy(i -> assertThat(i.get(LedgerSchema.LINE_COUNT).n()).isEqualTo("2"));
    }

    @Test
    void depositPostsBalancedImmutablePostingsAndVersionsTheAuthority() {
        Reply r = post(txn("dep-1", "SYS-BANK1", "L-ACC1", "100.00"));
        assertThat(r.status()).as(r.raw()).isEqualTo(201);
        JsonNode t = r.json().get("transaction");
        assertThat(t.get("txnId").asText()).startsWith("t-");
        assertThat(t.get("postings")).hasSize(2);
        assertThat(t.at("/postings/1/sequence").asLong()).isEqualTo(1);
        assertThat(t.at("/postings/1/bucket").asInt()).isZero();
        JsonNode b = balance("L-ACC1", "USD");
        assertThat(b.get("posted").asText()).isEqualTo("100.00");
        assertThat(b.get("available").asText()).isEqualTo("100.00");
        assertThat(b.get("version").asLong()).isEqualTo(1);
        assertThat(balance("SYS-BANK1", "USD").get("posted").asText()).isEqualTo("-100.00");

        Reply replay = post(txn("dep-1", "SYS-BANK1", "L-ACC1", "100.00"));
        assertThat(replay.data()).isEqualTo(r.data());
        assertThat(balance("L-ACC1", "USD").get("version").asLong()).isEqualTo(1);
        assertThat(post(txn("dep-1", "SYS-BANK1", "L-ACC1", "100.01")).status()).isEqualTo(409);

        Reply second = post(txn("dep-2", "SYS-BANK1", "L-ACC1", "5"));
        assertThat(second.json().at("/transaction/postings/1/sequence").asLong()).isEqualTo(2);
        assertThat(balance("L-ACC1", "USD").get("posted").asText()).isEqualTo("105.00");
    }

    @Test
    void unbalancedAndOverdraftAreRejectedWithNamedReasons() {
        int before = ledgerItems();
        Reply unbalanced =
                post(
                        "{\"sourceId\":\"unb\",\"postings\":["
                                + "{\"accountId\":\"SYS-BANK\",\"currency\":\"USD\",\"amount\":\"-10.00\"},"
                                + "{\"accountId\":\"L-X\",\"currency\":\"USD\",\"amount\":\"9.99\"}]}");
        assertThat(unbalanced.status()).isEqualTo(422);
        assertThat(unbalanced.json().at("/error/code").asText())
                .isEqualTo("UNBALANCED_TRANSACTION");
        assertThat(unbalanced.json().at("/error/message").asText())
                .contains("CASH:USD off by -0.01");
        Reply twoCurrencies =
                post(
                        "{\"sourceId\":\"unb2\",\"postings\":["
                                + "{\"accountId\":\"SYS-BANK\",\"currency\":\"USD\",\"amount\":\"-10.00\"},"
                                + "{\"accountId\":\"L-X\",\"currency\":\"EUR\",\"amount\":\"10.00\"}]}");
        assertThat(twoCurrencies.status()).isEqualTo(422);
        assertThat(ledgerItems()).isEqualTo(before);

        assertThat(post(txn("dep-od", "SYS-BANK2", "L-OD", "50.00")).status()).isEqualTo(201);
        Reply overdraft = post(txn("spend-od", "L-OD", "L-SHOP", "50.01"));
        assertThat(overdraft.status()).isEqualTo(422);
        assertThat(overdraft.json().at("/error/code").asText())
                .isEqualTo("INSUFFICIENT_AVAILABLE_BALANCE");
        assertThat(overdraft.json().at("/error/message").asText())
                .contains("L-OD")
                .contains("50.00");
        assertThat(balance("L-OD", "USD").get("available").asText()).isEqualTo("50.00");

        assertThat(post(txn("bad-scale", "SYS-BANK", "L-X", "1.001")).status()).isEqualTo(400);
        assertThat(post(txn("bad#id", "SYS-BANK", "L-X", "1.00")).status()).isEqualTo(400);
        assertThat(post(txn("bad-ccy", "SYS-BANK", "L-X", "1.00").replace("USD", "USX")).status())
                .isEqualTo(400);
        assertThat(
                        post("{\"sourceId\":\"one\",\"postings\":[{\"accountId\":\"A\",\"currency\":\"USD\",\"amount\":\"0\"}]}")
                                .status())
                .isEqualTo(400);
    }

    @Test
    void reversalLinksToTheOriginalAndHappensOnce() {
        Reply dep = post(txn("dep-rev", "SYS-BANK", "L-REV", "30.00"));
        assertThat(dep.status()).isEqualTo(201);
        Reply rev = post("{\"sourceId\":\"rev-1\",\"reversalOf\":\"dep-rev\"}");
        assertThat(rev.status()).as(rev.raw()).isEqualTo(201);
        assertThat(rev.json().at("/transaction/reversalOfTxnId").asText())
                .isEqualTo(dep.json().at("/transaction/txnId").asText());
        assertThat(rev.json().at("/transaction/postings/1/amount").asText()).isEqualTo("-30.00");
        assertThat(balance("L-REV", "USD").get("posted").asText()).isEqualTo("0.00");
        Reply again = post("{\"sourceId\":\"rev-2\",\"reversalOf\":\"dep-rev\"}");
        assertThat(again.status()).isEqualTo(409);
        assertThat(again.json().at("/error/code").asText()).isEqualTo("ALREADY_REVERSED");
        assertThat(post("{\"sourceId\":\"rev-3\",\"reversalOf\":\"never-posted\"}").status())
                .isEqualTo(422);
    }

    @Test
    void securitiesPostingsUseTheSecurityAuthority() {
        Reply r =
                post(
                        "{\"sourceId\":\"sec-1\",\"postings\":["
                                + "{\"accountId\":\"SYS-CUSTODY\",\"symbol\":\"AAPL\",\"amount\":\"-2.5\"},"
                                + "{\"accountId\":\"L-SEC\",\"symbol\":\"AAPL\",\"amount\":\"2.5\"}]}");
        assertThat(r.status()).as(r.raw()).isEqualTo(201);
        assertThat(balance("L-SEC", "AAPL").get("posted").asText()).isEqualTo("2.5");
    }

    @Test
    void reservationsBlockAvailableSoTwoCommandsCannotSpendOneBalance() throws Exception {
        assertThat(post(txn("dep-res", "SYS-BANK", "L-RES", "100.00")).status()).isEqualTo(201);
        ExecutorService pool = Executors.newFixedThreadPool(8);
        List<Callable<Reply>> calls = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            String id = "res-" + i;
            calls.add(
                    () ->
                            f.post(
                                    "/v1/ledger/reservations",
                                    CommandFixture.KEY_A,
                                    null,
                                    "{\"reservationId\":\""
                                            + id
                                            + "\",\"accountId\":\"L-RES\",\"currency\":\"USD\",\"amount\":\"60.00\"}"));
        }
        int held = 0;
        String heldId = null;
        try {
            List<Future<Reply>> results = pool.invokeAll(calls);
            for (int i = 0; i < results.size(); i++) {
                Reply r = results.get(i).get();
                if (r.status() == 201) {
                    held++;
                    heldId = "res-" + i;
                } else {
                    assertThat(r.status()).as(r.raw()).isEqualTo(422);
                }
            }
        } finally {
            pool.shutdownNow();
        }
        assertThat(held).isEqualTo(1);
        JsonNode b = balance("L-RES", "USD");
        assertThat(b.get("reserved").asText()).isEqualTo("60.00");
        assertThat(b.get("available").asText()).isEqualTo("40.00");
        assertThat(post(txn("spend-res", "L-RES", "L-SHOP", "40.01")).status()).isEqualTo(422);

        Reply consume =
                f.post(
                        "/v1/ledger/reservations/" + heldId + "/consume",
                        CommandFixture.KEY_A,
                        null,
                        "{\"accountId\":\"L-RES\",\"currency\":\"USD\",\"sourceId\":\"consume-1\",\"counterAccountId\":\"L-SHOP\"}");
        assertThat(consume.status()).as(consume.raw()).isEqualTo(201);
        b = balance("L-RES", "USD");
        assertThat(b.get("posted").asText()).isEqualTo("40.00");
        assertThat(b.get("reserved").asText()).isEqualTo("0.00");
        assertThat(b.get("available").asText()).isEqualTo("40.00");
        Reply twice =
                f.post(
                        "/v1/ledger/reservations/" + heldId + "/consume",
                        CommandFixture.KEY_A,
                        null,
                        "{\"accountId\":\"L-RES\",\"currency\":\"USD\",\"sourceId\":\"consume-2\",\"counterAccountId\":\"L-SHOP\"}");
        assertThat(twice.status()).isEqualTo(404);

        assertThat(
                        f.post(
                                        "/v1/ledger/reservations",
                                        CommandFixture.KEY_A,
                                        null,
                                        "{\"reservationId\":\"res-x\",\"accountId\":\"L-RES\",\"currency\":\"USD\",\"amount\":\"15.00\"}")
                                .status())
                .isEqualTo(201);
        Reply release =
                f.post(
                        "/v1/ledger/reservations/res-x/release",
                        CommandFixture.KEY_A,
                        null,
                        "{\"accountId\":\"L-RES\",\"currency\":\"USD\"}");
        assertThat(release.status()).as(release.raw()).isEqualTo(200);
        assertThat(balance("L-RES", "USD").get("available").asText()).isEqualTo("40.00");
    }

    @Test
    void ledgerIsTenantIsolated() {
        assertThat(post(txn("dep-iso", "SYS-BANK", "L-ISO", "10.00")).status()).isEqualTo(201);
        Reply b = f.get("/v1/accounts/L-ISO/balances", CommandFixture.KEY_B);
        assertThat(b.json().get("balances")).isEmpty();
        // tenant B cannot reverse or replay tenant A's transaction
        assertThat(
                        f.post(
                                        "/v1/ledger/transactions",
                                        CommandFixture.KEY_B,
                                        null,
                                        "{\"sourceId\":\"rev-iso\",\"reversalOf\":\"dep-iso\"}")
                                .status())
                .isEqualTo(422);
    }
}
