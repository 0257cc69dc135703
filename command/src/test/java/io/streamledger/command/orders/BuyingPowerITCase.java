package io.streamledger.command.orders;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.streamledger.command.config.DeterministicIds;
import io.streamledger.command.testing.CommandFixture;
import io.streamledger.command.testing.CommandFixture.Reply;
import io.streamledger.local.LocalDynamoDbExtension;
import io.streamledger.model.keys.KeyPaths;
import io.streamledger.model.keys.ReservationKey;
import io.streamledger.model.ledger.LedgerSchema;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;

/**
 * AP12/CS11 buying power at admission over HTTP: the accepted_order_v1 transaction holds the
 * order's reservation on the authority by condition, so concurrent orders can never reserve more
 * than is available, and a rejection writes nothing.
 */
class BuyingPowerITCase {

    @RegisterExtension static LocalDynamoDbExtension local = new LocalDynamoDbExtension();

    /** One BUY of 1 AAPL at 187.25: 187.25 notional + 0.19 fee estimate (10 bp, half-even). */
    static final BigDecimal ONE_ORDER = new BigDecimal("187.44");

    static CommandFixture f;

    @BeforeAll
    static void start() {
        f =
                new CommandFixture(
                        local.endpoint(),
                        c ->
                                c.withBuyingPower(
                                        c.buyingPower()
                                                .withReferencePrices(
                                                        Map.of("MSFT", new BigDecimal("400")))));
    }

    @AfterAll
    static void stop() {
        f.close();
    }

    static Reply place(String clientOrderId, String body) {
        return f.post("/v1/orders", CommandFixture.KEY_A, "k-" + clientOrderId, body);
    }

    static String order(
            String clientOrderId,
            String account,
            String symbol,
            String side,
            String type,
            String qty,
            String limit) {
        return "{\"clientOrderId\":\""
                + clientOrderId
                + "\",\"accountId\":\""
                + account
                + "\",\"symbol\":\""
                + symbol
                + "\",\"side\":\""
                + side
                + "\",\"type\":\""
                + type
                + "\",\"quantity\":\""
                + qty
                + "\""
                + (limit == null ? "" : ",\"limitPrice\":\"" + limit + "\"")
                + ",\"currency\":\"USD\"}";
    }

    static JsonNode balance(String account, String asset) {
        return f.balance(account, asset);
    }

    static List<Map<String, AttributeValue>> reservations(String account) {
        return f.client
                .query(
                        QueryRequest.builder()
                                .tableName(f.service.tables().ledger())
                                .consistentRead(true)
                                .keyConditionExpression("PK = :pk AND begins_with(SK, :res)")
                                .expressionAttributeValues(
                                        Map.of(
                                                ":pk",
                                                AttributeValue.fromS(
                                                        KeyPaths.IDX11_PK.build(
                                                                CommandFixture.TENANT_A, account)),
                                                ":res",
                                                AttributeValue.fromS(ReservationKey.SK_PREFIX)))
                                .build())
                .items();
    }

    @Test
    void thirtyTwoConcurrentBuysAgainstCashForTenAdmitExactlyTen() throws Exception {
        String account = "BP-32";
        f.fund(
                CommandFixture.KEY_A,
                account,
                "currency",
                "USD",
                ONE_ORDER.multiply(BigDecimal.TEN).toPlainString());
        ExecutorService pool = Executors.newFixedThreadPool(32);
        List<Future<Reply>> replies = new ArrayList<>();
        try {
            for (int i = 0; i < 32; i++) {
                String id = "bp32-" + i;
                replies.add(
                        pool.submit(
                                () ->
                                        place(
                                                id,
                                                order(
                                                        id, account, "AAPL", "BUY", "LIMIT", "1",
                                                        "187.25"))));
            }
            int accepted = 0;
            int rejected = 0;
            for (Future<Reply> r : replies) {
                Reply reply = r.get();
                if (reply.status() == 201) {
                    accepted++;
                } else {
                    assertThat(reply.status()).as(reply.raw()).isEqualTo(422);
                    JsonNode err = reply.json().get("error");
                    assertThat(err.get("code").asText()).isEqualTo("INSUFFICIENT_BUYING_POWER");
                    assertThat(err.get("required").asText()).isEqualTo("187.44");
                    assertThat(new BigDecimal(err.get("available").asText())).isLessThan(ONE_ORDER);
                    rejected++;
                }
            }
            assertThat(accepted).isEqualTo(10);
            assertThat(rejected).isEqualTo(22);
        } finally {
            pool.shutdownNow();
        }
        JsonNode b = balance(account, "USD");
        assertThat(b.get("reserved").asText()).isEqualTo("1874.40");
        assertThat(b.get("available").asText()).isEqualTo("0.00");
        assertThat(b.get("posted").asText()).isEqualTo("1874.40");
        List<Map<String, AttributeValue>> res = reservations(account);
        assertThat(res).hasSize(10);
        assertThat(res)
                .allSatisfy(
                        r -> {
                            assertThat(r.get(LedgerSchema.RESERVATION_STATE).s()).isEqualTo("OPEN");
                            assertThat(new BigDecimal(r.get(LedgerSchema.AMOUNT).n()))
                                    .isEqualByComparingTo(ONE_ORDER);
                        });
    }

    @Test
    void aRejectedOrderWritesNothingAndReplaysItsRejection() {
        String account = "BP-NONE";
        String id = "bp-none-1";
        String body = order(id, account, "AAPL", "BUY", "LIMIT", "2", "10.00");
        Reply r = place(id, body);
        assertThat(r.status()).isEqualTo(422);
        assertThat(r.json().at("/error/available").asText()).isEqualTo("0.00");
        assertThat(r.json().at("/error/required").asText()).isEqualTo("20.02");
        String orderId = DeterministicIds.orderId(CommandFixture.TENANT_A, id);
        assertThat(f.get("/v1/orders/" + orderId, CommandFixture.KEY_A).status()).isEqualTo(404);
        assertThat(reservations(account)).isEmpty();
        // AP08: the same request replays the same rejection
        assertThat(place(id, body).data()).isEqualTo(r.data());
    }

    @Test
    void sellReservesThePositionAndASellBeyondItIsRefused() {
        String account = "BP-SELL";
        f.fund(CommandFixture.KEY_A, account, "symbol", "AAPL", "5");
        Reply over =
                place(
                        "bp-sell-6",
                        order("bp-sell-6", account, "AAPL", "SELL", "LIMIT", "6", "190.00"));
        assertThat(over.status()).isEqualTo(422);
        assertThat(over.json().at("/error/code").asText()).isEqualTo("INSUFFICIENT_POSITION");
        assertThat(over.json().at("/error/available").asText()).isEqualTo("5");
        assertThat(over.json().at("/error/required").asText()).isEqualTo("6");
        Reply ok =
                place(
                        "bp-sell-3",
                        order("bp-sell-3", account, "AAPL", "SELL", "MARKET", "3", null));
        assertThat(ok.status()).as(ok.raw()).isEqualTo(201);
        JsonNode b = balance(account, "AAPL");
        assertThat(b.get("reserved").asText()).isEqualTo("3");
        assertThat(b.get("available").asText()).isEqualTo("2");
        Reply rest =
                place(
                        "bp-sell-3b",
                        order("bp-sell-3b", account, "AAPL", "SELL", "LIMIT", "3", "190.00"));
        assertThat(rest.status()).isEqualTo(422);
    }

    @Test
    void marketBuyIsReservedAtTheCollarAndRefusedWithoutAReferencePrice() {
        String account = "BP-MKT";
        f.fundUsd(account);
        Reply ok =
                place("bp-mkt-1", order("bp-mkt-1", account, "MSFT", "BUY", "MARKET", "2", null));
        assertThat(ok.status()).as(ok.raw()).isEqualTo(201);
        // 2 × 400 × 1.05 = 840.00 + 0.84 fee estimate
        assertThat(balance(account, "USD").get("reserved").asText()).isEqualTo("840.84");
        Reply none =
                place("bp-mkt-2", order("bp-mkt-2", account, "AAPL", "BUY", "MARKET", "1", null));
        assertThat(none.status()).isEqualTo(422);
        assertThat(none.json().at("/error/code").asText()).isEqualTo("NO_REFERENCE_PRICE");
    }

    static Reply cancel(String orderId) {
        return f.post("/v1/orders/" + orderId + "/cancel", CommandFixture.KEY_A, null, "{}");
    }

    static String orderId(String clientOrderId) {
        return DeterministicIds.orderId(CommandFixture.TENANT_A, clientOrderId);
    }

    @Test
    void cancelReleasesTheReservationOnceAndTheMoneyIsSpendableAgain() {
        String account = "BP-CXL";
        f.fund(CommandFixture.KEY_A, account, "currency", "USD", ONE_ORDER.toPlainString());
        String body = order("bp-cxl-1", account, "AAPL", "BUY", "LIMIT", "1", "187.25");
        assertThat(place("bp-cxl-1", body).status()).isEqualTo(201);
        assertThat(
                        place(
                                        "bp-cxl-2",
                                        order(
                                                "bp-cxl-2",
                                                account,
                                                "AAPL",
                                                "BUY",
                                                "LIMIT",
                                                "1",
                                                "187.25"))
                                .status())
                .isEqualTo(422);
        String id = orderId("bp-cxl-1");
        Reply c = cancel(id);
        assertThat(c.status()).as(c.raw()).isEqualTo(200);
        assertThat(c.json().at("/order/status").asText()).isEqualTo("CANCELLED");
        assertThat(c.json().at("/reservation/released").asText()).isEqualTo("187.44");
        JsonNode b = balance(account, "USD");
        assertThat(b.get("reserved").asText()).isEqualTo("0.00");
        assertThat(b.get("available").asText()).isEqualTo("187.44");
        assertThat(reservations(account))
                .singleElement()
                .satisfies(
                        r ->
                                assertThat(r.get(LedgerSchema.RESERVATION_STATE).s())
                                        .isEqualTo("RELEASED"));
        assertThat(
                        f.get("/v1/orders/" + id, CommandFixture.KEY_A)
                                .json()
                                .at("/order/status")
                                .asText())
                .isEqualTo("CANCELLED");
        // AP08: a repeated cancel replays the first one and releases nothing more
        assertThat(cancel(id).data()).isEqualTo(c.data());
        assertThat(balance(account, "USD").get("available").asText()).isEqualTo("187.44");
        assertThat(cancel(orderId("never-placed")).status()).isEqualTo(404);
        // the released money funds the next order
        assertThat(
                        place(
                                        "bp-cxl-3",
                                        order(
                                                "bp-cxl-3",
                                                account,
                                                "AAPL",
                                                "BUY",
                                                "LIMIT",
                                                "1",
                                                "187.25"))
                                .status())
                .isEqualTo(201);
    }

    @Test
    void availableNeverGoesNegativeUnder64WayOrdersAndCancels() throws Exception {
        String account = "BP-64";
        f.fund(
                CommandFixture.KEY_A,
                account,
                "currency",
                "USD",
                ONE_ORDER.multiply(BigDecimal.valueOf(5)).toPlainString());
        ExecutorService pool = Executors.newFixedThreadPool(64);
        java.util.concurrent.atomic.AtomicBoolean done =
                new java.util.concurrent.atomic.AtomicBoolean();
        List<BigDecimal> seen = java.util.Collections.synchronizedList(new ArrayList<>());
        Thread watcher =
                new Thread(
                        () -> {
                            while (!done.get()) {
                                seen.add(
                                        new BigDecimal(
                                                balance(account, "USD").get("available").asText()));
                            }
                        });
        watcher.start();
        List<Future<Reply>> all = new ArrayList<>();
        try {
            for (int i = 0; i < 32; i++) {
                String cid = "bp64-" + i;
                all.add(
                        pool.submit(
                                () ->
                                        place(
                                                cid,
                                                order(
                                                        cid, account, "AAPL", "BUY", "LIMIT", "1",
                                                        "187.25"))));
                all.add(pool.submit(() -> cancel(orderId(cid))));
            }
            for (Future<Reply> r : all) {
                assertThat(r.get().status()).isIn(200, 201, 404, 409, 422);
            }
        } finally {
            done.set(true);
            watcher.join();
            pool.shutdownNow();
        }
        assertThat(seen).isNotEmpty().allSatisfy(a -> assertThat(a.signum()).isNotNegative());
        BigDecimal open = BigDecimal.ZERO;
        for (Map<String, AttributeValue> r : reservations(account)) {
            if ("OPEN".equals(r.get(LedgerSchema.RESERVATION_STATE).s())) {
                open = open.add(new BigDecimal(r.get(LedgerSchema.AMOUNT).n()));
            }
        }
        JsonNode b = balance(account, "USD");
        assertThat(new BigDecimal(b.get("reserved").asText())).isEqualByComparingTo(open);
        assertThat(new BigDecimal(b.get("available").asText()))
                .isEqualByComparingTo(ONE_ORDER.multiply(BigDecimal.valueOf(5)).subtract(open))
                .isNotNegative();
    }

    static Reply fill(String orderId, String fillId, String qty, String price, String fee) {
        return f.fill(orderId, fillId, qty, price, fee, "2026-11-30T10:00:00Z");
    }

    static Map<String, AttributeValue> reservation(String account, String orderId) {
        return reservations(account).stream()
                .filter(r -> orderId.equals(r.get(LedgerSchema.ORDER_ID).s()))
                .findFirst()
                .orElseThrow();
    }

    @Test
    void fillsConsumeTheReservationAndACompletedOrderLeavesNothingReserved() {
        String account = "BP-FILL";
        f.fund(CommandFixture.KEY_A, account, "currency", "USD", "1000.00");
        assertThat(
                        place(
                                        "bp-fill-1",
                                        order(
                                                "bp-fill-1",
                                                account,
                                                "AAPL",
                                                "BUY",
                                                "LIMIT",
                                                "2",
                                                "187.25"))
                                .status())
                .isEqualTo(201);
        String id = orderId("bp-fill-1");
        assertThat(balance(account, "USD").get("reserved").asText()).isEqualTo("374.87");
        Reply one = fill(id, "f-1", "1", "187.00", "0.50");
        assertThat(one.status()).as(one.raw()).isEqualTo(201);
        // consideration 187.00 + fee 0.50 leaves reserved
        assertThat(balance(account, "USD").get("reserved").asText()).isEqualTo("187.37");
        assertThat(fill(id, "f-2", "1", "187.25", "0.10").status()).isEqualTo(201);
        JsonNode b = balance(account, "USD");
        assertThat(b.get("reserved").asText()).isEqualTo("0.00");
        // no posting job runs here: the spent 374.85 is pending, out of available until posted
        assertThat(b.get("posted").asText()).isEqualTo("1000.00");
        assertThat(b.get("pending").asText()).isEqualTo("-374.85");
        assertThat(b.get("available").asText()).isEqualTo("625.15");
        assertThat(balance(account, "AAPL").get("pending").asText()).isEqualTo("2");
        assertThat(balance(account, "AAPL").get("available").asText()).isEqualTo("2");
        Map<String, AttributeValue> r = reservation(account, id);
        assertThat(r.get(LedgerSchema.RESERVATION_STATE).s()).isEqualTo("CONSUMED");
        assertThat(new BigDecimal(r.get(LedgerSchema.CONSUMED).n())).isEqualByComparingTo("374.85");
        assertThat(new BigDecimal(r.get(LedgerSchema.RELEASED).n())).isEqualByComparingTo("0.02");
        // a retried fill replays and consumes nothing more
        assertThat(fill(id, "f-2", "1", "187.25", "0.10").status()).isEqualTo(201);
        assertThat(balance(account, "USD").get("reserved").asText()).isEqualTo("0.00");
        assertThat(cancel(id).status()).isEqualTo(409);
    }

    @Test
    void boughtButUnpostedSharesCanBeSoldOnceAndNeverShort() {
        String account = "BP-PENDING";
        f.fund(CommandFixture.KEY_A, account, "currency", "USD", "1000.00");
        assertThat(
                        place(
                                        "bp-pend-buy",
                                        order(
                                                "bp-pend-buy",
                                                account,
                                                "AAPL",
                                                "BUY",
                                                "LIMIT",
                                                "3",
                                                "100.00"))
                                .status())
                .isEqualTo(201);
        String buy = orderId("bp-pend-buy");
        Reply bought = fill(buy, "f-1", "3", "100.00", "0");
        assertThat(bought.status()).isEqualTo(201);
        // measured for the README: the BUY fill's transaction now writes 8 targets
        System.out.println(
                "BUY fill consumed capacity: " + bought.json().at("/meta/consumedCapacity"));
        // the buy is admitted, not posted: its 3 shares are pending and available to sell
        Reply sell =
                place(
                        "bp-pend-sell",
                        order("bp-pend-sell", account, "AAPL", "SELL", "LIMIT", "3", "101.00"));
        assertThat(sell.status()).as(sell.raw()).isEqualTo(201);
        String sold = orderId("bp-pend-sell");
        assertThat(fill(sold, "f-1", "3", "101.00", "0").status()).isEqualTo(201);
        JsonNode sec = balance(account, "AAPL");
        assertThat(sec.get("posted").asText()).isEqualTo("0");
        assertThat(sec.get("pending").asText()).isEqualTo("0");
        assertThat(sec.get("available").asText()).isEqualTo("0");
        // sold shares are gone at the sell's admission: a second sale would be short
        Reply again =
                place(
                        "bp-pend-sell-2",
                        order("bp-pend-sell-2", account, "AAPL", "SELL", "LIMIT", "1", "101.00"));
        assertThat(again.status()).isEqualTo(422);
        assertThat(again.json().at("/error/code").asText()).isEqualTo("INSUFFICIENT_POSITION");
    }

    @Test
    void aPartlyFilledSellReleasesTheRestOnCancel() {
        String account = "BP-PSELL";
        f.fund(CommandFixture.KEY_A, account, "symbol", "AAPL", "10");
        assertThat(
                        place(
                                        "bp-psell",
                                        order(
                                                "bp-psell",
                                                account,
                                                "AAPL",
                                                "SELL",
                                                "LIMIT",
                                                "10",
                                                "190.00"))
                                .status())
                .isEqualTo(201);
        String id = orderId("bp-psell");
        assertThat(fill(id, "f-1", "4", "190.00", "0").status()).isEqualTo(201);
        assertThat(balance(account, "AAPL").get("reserved").asText()).isEqualTo("6");
        Reply c = cancel(id);
        assertThat(c.status()).isEqualTo(200);
        assertThat(c.json().at("/reservation/released").asText()).isEqualTo("6");
        assertThat(balance(account, "AAPL").get("reserved").asText()).isEqualTo("0");
        assertThat(fill(id, "f-2", "1", "190.00", "0").status()).isEqualTo(422);
    }

    @Test
    void anOverdraftExemptAccountIsHeldWithoutCover() {
        String account = "HOUSE-DESK";
        Reply r =
                place(
                        "bp-house",
                        order("bp-house", account, "AAPL", "BUY", "LIMIT", "1", "187.25"));
        assertThat(r.status()).as(r.raw()).isEqualTo(201);
        JsonNode b = balance(account, "USD");
        assertThat(b.get("posted").asText()).isEqualTo("0.00");
        assertThat(b.get("reserved").asText()).isEqualTo("187.44");
        assertThat(b.get("available").asText()).isEqualTo("-187.44");
    }
}
