package io.streamledger.command.fills;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.streamledger.command.config.DeterministicIds;
import io.streamledger.command.dynamo.CapacityMeter;
import io.streamledger.command.orders.OrderItems;
import io.streamledger.command.outbox.OutboxItems;
import io.streamledger.command.testing.CommandFixture;
import io.streamledger.command.testing.CommandFixture.Reply;
import io.streamledger.local.LocalDynamoDbExtension;
import io.streamledger.model.table.Attr;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/** CS04/CS05: fills advance the order atomically, never over-fill, and replay by fillId. */
class FillAdmissionITCase {

    @RegisterExtension static LocalDynamoDbExtension local = new LocalDynamoDbExtension();

    static CommandFixture f;

    @BeforeAll
    static void start() {
        f = new CommandFixture(local.endpoint());
        // admission reserves buying power (AP12): the accounts start funded
        f.fundUsd("ACC-F1");
        f.fundUsd("ACC-F");
        f.fundUsd("ACC-RACE");
        f.fundUsd("ACC-SEQ");
        f.fundUsd("ACC-SEQ-CU");
        f.fundUsd("ACC-SEQ-OTHER");
    }

    @AfterAll
    static void stop() {
        f.close();
    }

    private static String newOrder(String clientOrderId, String account, String qty) {
        return f.place(clientOrderId, account, qty);
    }

    private static String fill(String fillId, String qty, String price) {
        return "{\"fillId\":\""
                + fillId
                + "\",\"quantity\":\""
                + qty
                + "\",\"price\":\""
                + price
                + "\",\"fee\":\"0.35\",\"executedAt\":\"2026-11-30T10:00:0"
                + (Math.abs(fillId.hashCode()) % 10)
                + ".123Z\"}";
    }

    private static Map<String, AttributeValue> orderItem(String orderId) {
        return f.service
                .ddb()
                .getStrong(
                        f.service.tables().orders(),
                        OrderItems.key(CommandFixture.TENANT_A, orderId),
                        new CapacityMeter());
    }

    @Test
    void fillsMoveStatusAndSparseMembershipAndWriteTradeAndEvent() {
        String orderId = newOrder("c-fill-1", "ACC-F1", "10");
        Reply p =
                f.post(
                        "/v1/orders/" + orderId + "/fills",
                        CommandFixture.KEY_A,
                        null,
                        fill("f-1", "4", "187.10"));
        assertThat(p.status()).as(p.raw()).isEqualTo(201);
        assertThat(p.json().at("/order/status").asText()).isEqualTo("PARTIALLY_FILLED");
        assertThat(p.json().at("/order/remainingQuantity").asText()).isEqualTo("6");
        assertThat(p.json().at("/trade/price").asText()).isEqualTo("187.10");
        Map<String, AttributeValue> o = orderItem(orderId);
        assertThat(o.get(Attr.GSI2PK).s())
                .isEqualTo("TEN#tenantA#ACCT#ACC-F1#STATUS#PARTIALLY_FILLED");
        assertThat(o.get(Attr.VERSION).n()).isEqualTo("2");

        String tradeId = orderId + ":f-1";
        var event =
                f.service
                        .ddb()
                        .getStrong(
                                f.service.tables().context(),
                                OutboxItems.key(
                                        DeterministicIds.eventId(tradeId, "TradeExecuted", 1)),
                                new CapacityMeter());
        assertThat(event.get(Attr.EVENT_TYPE).s()).isEqualTo("TradeExecuted");
        Map<String, AttributeValue> payload = event.get(Attr.PAYLOAD).m();
        assertThat(new BigDecimal(payload.get("price").n())).isEqualByComparingTo("187.10");
        assertThat(new BigDecimal(payload.get("quantity").n())).isEqualByComparingTo("4");
        assertThat(payload.get("currency").s()).isEqualTo("USD");
        assertThat(new BigDecimal(payload.get("fee").n())).isEqualByComparingTo("0.35");
        assertThat(payload.get("accountId").s()).isEqualTo("ACC-F1");
        assertThat(payload.get("symbol").s()).isEqualTo("AAPL");
        assertThat(payload.get("side").s()).isEqualTo("BUY");

        Reply last =
                f.post(
                        "/v1/orders/" + orderId + "/fills",
                        CommandFixture.KEY_A,
                        null,
                        fill("f-2", "6", "187.20"));
        assertThat(last.json().at("/order/status").asText()).isEqualTo("FILLED");
        Map<String, AttributeValue> done = orderItem(orderId);
        assertThat(done).doesNotContainKeys(Attr.GSI2PK, Attr.GSI2SK);
        assertThat(
                        f.get(
                                        "/v1/accounts/ACC-F1/orders?status=PARTIALLY_FILLED",
                                        CommandFixture.KEY_A)
                                .json()
                                .get("orders"))
                .isEmpty();

        Reply over =
                f.post(
                        "/v1/orders/" + orderId + "/fills",
                        CommandFixture.KEY_A,
                        null,
                        fill("f-3", "1", "187.20"));
        assertThat(over.status()).isEqualTo(422);
        assertThat(over.json().at("/error/code").asText()).isEqualTo("ORDER_NOT_FILLABLE");

        Reply byOrder = f.get("/v1/orders/" + orderId + "/trades", CommandFixture.KEY_A);
        assertThat(byOrder.json().get("trades")).hasSize(2);
        Reply byAccount = f.get("/v1/accounts/ACC-F1/trades", CommandFixture.KEY_A);
        assertThat(byAccount.json().get("trades")).hasSize(2);
        Reply bySymbol = f.get("/v1/symbols/AAPL/trades", CommandFixture.KEY_A);
        assertThat(bySymbol.json().get("trades").size()).isGreaterThanOrEqualTo(2);
        assertThat(f.get("/v1/symbols/AAPL/trades", CommandFixture.KEY_B).json().get("trades"))
                .isEmpty();
    }

    @Test
    void retriedFillReturnsTheRecordedEffectAndChangedFillIsConflict() {
        String orderId = newOrder("c-fill-retry", "ACC-F", "10");
        Reply first =
                f.post(
                        "/v1/orders/" + orderId + "/fills",
                        CommandFixture.KEY_A,
                        null,
                        fill("f-r", "3", "10.00"));
        Reply again =
                f.post(
                        "/v1/orders/" + orderId + "/fills",
                        CommandFixture.KEY_A,
                        null,
                        fill("f-r", "3", "10.00"));
        assertThat(again.status()).isEqualTo(201);
        assertThat(again.data()).isEqualTo(first.data());
        assertThat(again.header("Idempotent-Replayed")).isEqualTo("true");
        assertThat(orderItem(orderId).get(OrderItems.A_FILLED).n()).isEqualTo("3");
        Reply changed =
                f.post(
                        "/v1/orders/" + orderId + "/fills",
                        CommandFixture.KEY_A,
                        null,
                        fill("f-r", "4", "10.00"));
        assertThat(changed.status()).isEqualTo(409);
    }

    @Test
    void overfillIsRejectedAndBadAmountsAre400() {
        String orderId = newOrder("c-fill-over", "ACC-F", "5");
        Reply over =
                f.post(
                        "/v1/orders/" + orderId + "/fills",
                        CommandFixture.KEY_A,
                        null,
                        fill("f-o", "6", "10.00"));
        assertThat(over.status()).isEqualTo(422);
        assertThat(over.json().at("/error/code").asText()).isEqualTo("OVERFILL");
        assertThat(
                        f.post(
                                        "/v1/orders/" + orderId + "/fills",
                                        CommandFixture.KEY_A,
                                        null,
                                        fill("f-b", "1", "10.001"))
                                .status())
                .isEqualTo(400);
        assertThat(
                        f.post(
                                        "/v1/orders/" + orderId + "/fills",
                                        CommandFixture.KEY_A,
                                        null,
                                        fill("f-b", "-1", "10.00"))
                                .status())
                .isEqualTo(400);
        assertThat(
                        f.post(
                                        "/v1/orders/" + orderId + "/fills",
                                        CommandFixture.KEY_A,
                                        null,
                                        fill("f#b", "1", "10.00"))
                                .status())
                .isEqualTo(400);
        assertThat(
                        f.post(
                                        "/v1/orders/nope/fills",
                                        CommandFixture.KEY_A,
                                        null,
                                        fill("f-b", "1", "10.00"))
                                .status())
                .isEqualTo(404);
        assertThat(orderItem(orderId).get(OrderItems.A_FILLED).n()).isEqualTo("0");
    }

    @Test
    void thirtyTwoConcurrentFillsNeverOverfill() throws Exception {
        String orderId = newOrder("c-fill-race", "ACC-RACE", "20");
        ExecutorService pool = Executors.newFixedThreadPool(32);
        List<Callable<Reply>> calls = new ArrayList<>();
        for (int i = 0; i < 32; i++) {
            String fillId = "race-" + i;
            calls.add(
                    () -> {
                        for (int attempt = 0; attempt < 100; attempt++) {
                            Reply r =
                                    f.post(
                                            "/v1/orders/" + orderId + "/fills",
                                            CommandFixture.KEY_A,
                                            null,
                                            fill(fillId, "1", "10.00"));
                            if (r.status() == 503
                                    || (r.status() == 409 && r.header("Retry-After") != null)) {
                                Thread.sleep(10);
                                continue;
                            }
                            return r;
                        }
                        throw new AssertionError("fill never decided");
                    });
        }
        int accepted = 0;
        int rejected = 0;
        try {
            for (Future<Reply> fu : pool.invokeAll(calls)) {
                Reply r = fu.get();
                if (r.status() == 201) {
                    accepted++;
                } else {
                    assertThat(r.status()).as(r.raw()).isEqualTo(422);
                    rejected++;
                }
            }
        } finally {
            pool.shutdownNow();
        }
        assertThat(accepted).isEqualTo(20);
        assertThat(rejected).isEqualTo(12);
        Map<String, AttributeValue> o = orderItem(orderId);
        assertThat(o.get(OrderItems.A_FILLED).n()).isEqualTo("20");
        assertThat(o.get(OrderItems.A_REMAINING).n()).isEqualTo("0");
        assertThat(o.get(Attr.STATUS).s()).isEqualTo("FILLED");
        assertThat(o.get(Attr.VERSION).n()).isEqualTo("21");
        JsonNode trades =
                f.get("/v1/orders/" + orderId + "/trades?limit=100", CommandFixture.KEY_A)
                        .json()
                        .get("trades");
        assertThat(trades).hasSize(20);
    }

    /** Posts until decided: 503 ORDER_BUSY and 409 + Retry-After are "try again". */
    private static Reply postUntilDecided(String orderId, String body) throws InterruptedException {
        for (int attempt = 0; attempt < 100; attempt++) {
            Reply r = f.post("/v1/orders/" + orderId + "/fills", CommandFixture.KEY_A, null, body);
            if (r.status() == 503 || (r.status() == 409 && r.header("Retry-After") != null)) {
                Thread.sleep(10);
                continue;
            }
            return r;
        }
        throw new AssertionError("fill never decided");
    }

    @Test
    void concurrentFillsOfOneAccountGetGaplessExecutionSequencesAndAReplayKeepsItsNumber()
            throws Exception {
        String first = newOrder("c-seq-1", "ACC-SEQ", "50");
        String second = newOrder("c-seq-2", "ACC-SEQ", "50");
        String other = newOrder("c-seq-3", "ACC-SEQ-OTHER", "50");
        ExecutorService pool = Executors.newFixedThreadPool(12);
        List<Callable<Reply>> calls = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
            String orderId = i % 2 == 0 ? first : second;
            String fillId = "seq-" + i;
            calls.add(() -> postUntilDecided(orderId, fill(fillId, "1", "10.00")));
        }
        List<Long> sequences = new ArrayList<>();
        try {
            for (Future<Reply> fu : pool.invokeAll(calls)) {
                Reply r = fu.get();
                assertThat(r.status()).as(r.raw()).isEqualTo(201);
                sequences.add(r.json().at("/trade/accountExecSeq").asLong());
            }
        } finally {
            pool.shutdownNow();
        }
        // one number per fill, none skipped, none twice (CS07)
        assertThat(sequences)
                .containsExactlyInAnyOrder(1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L, 9L, 10L, 11L, 12L);
        // another account counts on its own
        Reply alone = postUntilDecided(other, fill("seq-x", "1", "10.00"));
        assertThat(alone.json().at("/trade/accountExecSeq").asLong()).isEqualTo(1L);

        // the TradeExecuted event carries the same number as the trade
        Reply replay = postUntilDecided(first, fill("seq-0", "1", "10.00"));
        assertThat(replay.header("Idempotent-Replayed")).isEqualTo("true");
        long seq = replay.json().at("/trade/accountExecSeq").asLong();
        assertThat(seq).isEqualTo(sequences.get(0));
        var event =
                f.service
                        .ddb()
                        .getStrong(
                                f.service.tables().context(),
                                OutboxItems.key(
                                        DeterministicIds.eventId(
                                                first + ":seq-0", "TradeExecuted", 1)),
                                new CapacityMeter());
        assertThat(event.get(Attr.PAYLOAD).m().get(Attr.ACCOUNT_EXEC_SEQ).n())
                .isEqualTo(Long.toString(seq));
        // the replay assigned no new number: the next fill of the account is 13
        Reply next = postUntilDecided(second, fill("seq-next", "1", "10.00"));
        assertThat(next.json().at("/trade/accountExecSeq").asLong()).isEqualTo(13L);
    }

    @Test
    void theExecutionSequenceCostsOneStrongCounterReadAndOneTransactionalCounterWrite()
            throws Exception {
        String orderId = newOrder("c-seq-cu", "ACC-SEQ-CU", "50");
        postUntilDecided(orderId, fill("cu-1", "1", "10.00"));
        JsonNode cc =
                postUntilDecided(orderId, fill("cu-2", "1", "10.00"))
                        .json()
                        .at("/meta/consumedCapacity");
        // Orders base: amount-validation read 1 + order read 1 + order advance 2 (transactional)
        // + counter read 1 + counter advance 2 (transactional) = 7 (4 without the sequence)
        String orders = f.service.tables().orders();
        assertThat(cc.at("/byTarget/" + orders).asDouble()).isEqualTo(7.0);
    }
}
