package io.streamledger.command.fills;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.streamledger.aws.ledger.LedgerItemCodec;
import io.streamledger.command.idempotency.IdempotencyStore;
import io.streamledger.command.testing.CommandFixture;
import io.streamledger.command.testing.CommandFixture.Reply;
import io.streamledger.command.testing.JobPostings;
import io.streamledger.local.LocalDynamoDbExtension;
import io.streamledger.model.keys.ReservationKey;
import io.streamledger.model.keys.ReversalKey;
import io.streamledger.model.ledger.LedgerIds;
import io.streamledger.model.ledger.LedgerSchema;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.DeleteItemRequest;
import software.amazon.awssdk.services.dynamodb.model.GetItemRequest;

/**
 * Trade busts and durable reversals over HTTP (CS04/CS11, AP08/AP10/AP12): a busted fill leaves
 * balances, reservation and order as if it had not happened, once; the reversal record outlives the
 * AP08 request record (31 days later a reversal still works and a second is refused); a trade
 * posting written by the posting job's own code reverses over the ledger route.
 */
class FillBustITCase {

    @RegisterExtension static LocalDynamoDbExtension local = new LocalDynamoDbExtension();

    static CommandFixture f;
    static JobPostings job;

    @BeforeAll
    static void start() {
        f = new CommandFixture(local.endpoint());
        job = new JobPostings(f.client, f.prefix);
    }

    @AfterAll
    static void stop() {
        f.close();
    }

    @Test
    void aBustedFillLeavesBalancesReservationAndOrderAsIfItHadNotHappenedOnce() {
        String account = "BUST-OPEN";
        f.fund(CommandFixture.KEY_A, account, "currency", "USD", "1000.00");
        String id = place("bust-open-1", account, "2");
        JsonNode usd0 = balance(account, "USD");
        assertThat(usd0.get("reserved").asText()).isEqualTo("374.87");
        assertThat(fill(id, "f-1", "1", "187.00", "0.50").status()).isEqualTo(201);

        // not posted yet: a precise, retryable 409 that leaves no request record
        Reply early = bust(id, "f-1");
        assertThat(early.status()).as(early.raw()).isEqualTo(409);
        assertThat(early.json().at("/error/code").asText()).isEqualTo("FILL_NOT_POSTED");
        assertThat(early.header("Retry-After")).isEqualTo("1");
        assertThat(requestRecord(BustService.requestKey(id, "f-1"))).isNull();

        String txnId = job.post(id, "f-1");
        assertThat(balance(account, "USD").get("posted").asText()).isEqualTo("812.50");
        assertThat(balance(account, "AAPL").get("posted").asText()).isEqualTo("1");

        Reply busted = bust(id, "f-1");
        assertThat(busted.status()).as(busted.raw()).isEqualTo(201);
        System.out.println("bust capacity: " + busted.header("X-Consumed-Capacity"));
        assertThat(busted.json().at("/bust/originalTxnId").asText()).isEqualTo(txnId);
        assertThat(busted.json().at("/order/status").asText()).isEqualTo("ACCEPTED");
        assertThat(new BigDecimal(busted.json().at("/reservation/reheld").asText()))
                .isEqualByComparingTo("187.50");
        JsonNode usd = balance(account, "USD");
        for (String field : new String[] {"posted", "reserved", "pending", "available"}) {
            assertThat(usd.get(field).asText()).as(field).isEqualTo(usd0.get(field).asText());
        }
        JsonNode aapl = balance(account, "AAPL");
        assertThat(new BigDecimal(aapl.get("posted").asText())).isZero();
        assertThat(new BigDecimal(aapl.get("available").asText())).isZero();
        JsonNode order = f.get("/v1/orders/" + id, CommandFixture.KEY_A).json().get("order");
        assertThat(order.get("status").asText()).isEqualTo("ACCEPTED");
        assertThat(new BigDecimal(order.get("filledQuantity").asText())).isZero();
        assertThat(new BigDecimal(order.get("remainingQuantity").asText()))
                .isEqualByComparingTo("2");
        Map<String, AttributeValue> res = reservation(account, id);
        assertThat(res.get(LedgerSchema.RESERVATION_STATE).s()).isEqualTo("OPEN");
        assertThat(new BigDecimal(res.get(LedgerSchema.CONSUMED).n())).isZero();
        assertThat(
                        f.get(
                                        "/v1/accounts/" + account + "/orders?status=ACCEPTED",
                                        CommandFixture.KEY_A)
                                .raw())
                .contains(id);

        // once: a retry replays the first answer, a reversal of the same fill is refused, and so
        // is a bust after its request record is gone (the durable reversal record decides)
        Reply replay = bust(id, "f-1");
        assertThat(replay.status()).isEqualTo(201);
        assertThat(replay.header("Idempotent-Replayed")).isEqualTo("true");
        Reply reversal = reverse("corr-open-1", LedgerIds.tradeSourceId(id + ":f-1"), "");
        assertThat(reversal.status()).as(reversal.raw()).isEqualTo(409);
        assertThat(reversal.json().at("/error/code").asText()).isEqualTo("ALREADY_REVERSED");
        deleteRequestRecord(BustService.requestKey(id, "f-1"));
        Reply again = bust(id, "f-1");
        assertThat(again.status()).as(again.raw()).isEqualTo(409);
        assertThat(again.json().at("/error/code").asText()).isEqualTo("ALREADY_REVERSED");
        assertThat(balance(account, "USD").get("available").asText())
                .isEqualTo(usd0.get("available").asText());

        // the order fills again as if the busted fill had never been
        assertThat(fill(id, "f-2", "2", "187.25", "0.10").status()).isEqualTo(201);
        assertThat(balance(account, "USD").get("reserved").asText()).isEqualTo("0.00");
    }

    @Test
    void aCompletedOrderReopensHoldingOnlyWhatTheBustedFillConsumed() {
        String account = "BUST-DONE";
        f.fund(CommandFixture.KEY_A, account, "currency", "USD", "1000.00");
        String id = place("bust-done-1", account, "1");
        assertThat(fill(id, "f-1", "1", "187.00", "0.10").status()).isEqualTo(201);
        job.post(id, "f-1");
        // 187.44 held; 187.10 consumed, 0.34 released at completion and spendable since
        assertThat(balance(account, "USD").get("available").asText()).isEqualTo("812.90");
        Reply busted = bust(id, "f-1");
        assertThat(busted.status()).as(busted.raw()).isEqualTo(201);
        JsonNode usd = balance(account, "USD");
        assertThat(usd.get("posted").asText()).isEqualTo("1000.00");
        assertThat(usd.get("reserved").asText()).isEqualTo("187.10");
        assertThat(usd.get("available").asText()).isEqualTo("812.90");
        assertThat(busted.json().at("/order/status").asText()).isEqualTo("ACCEPTED");
        Map<String, AttributeValue> res = reservation(account, id);
        assertThat(res.get(LedgerSchema.RESERVATION_STATE).s()).isEqualTo("OPEN");
        assertThat(new BigDecimal(res.get(LedgerSchema.AMOUNT).n())).isEqualByComparingTo("187.10");
        Reply cancel = f.post("/v1/orders/" + id + "/cancel", CommandFixture.KEY_A, null, "{}");
        assertThat(cancel.status()).as(cancel.raw()).isEqualTo(200);
        assertThat(new BigDecimal(cancel.json().at("/reservation/released").asText()))
                .isEqualByComparingTo("187.10");
        assertThat(balance(account, "USD").get("available").asText()).isEqualTo("1000.00");
        assertThat(balance(account, "USD").get("reserved").asText()).isEqualTo("0.00");
    }

    @Test
    void aReversal31DaysLaterStillWorksAndASecondOneIsRefused() {
        String account = "REV-LATE";
        Reply dep =
                f.post(
                        "/v1/ledger/transactions",
                        CommandFixture.KEY_A,
                        null,
                        "{\"sourceId\":\"dep-late\",\"postings\":["
                                + "{\"accountId\":\"SYS-BANK\",\"currency\":\"USD\",\"amount\":\"-300.00\"},"
                                + "{\"accountId\":\""
                                + account
                                + "\",\"currency\":\"USD\",\"amount\":\"300.00\"}]}");
        assertThat(dep.status()).as(dep.raw()).isEqualTo(201);
        String postedAt = dep.json().at("/transaction/recordedAt").asText();
        f.clock.advance(Duration.ofDays(31));
        // TTL has removed the AP08 record by now (cleanup only): nothing of the guard was on it
        deleteRequestRecord("LEDGER:dep-late");
        Reply unknown = reverse("rev-late-0", "dep-late", "");
        assertThat(unknown.status()).isEqualTo(422);
        assertThat(unknown.json().at("/error/code").asText()).isEqualTo("ORIGINAL_NOT_FOUND");
        String where =
                ",\"originalPostedAt\":\""
                        + postedAt
                        + "\",\"originalAccounts\":[\"SYS-BANK\",\""
                        + account
                        + "\"]";
        Reply rev = reverse("rev-late-1", "dep-late", where);
        assertThat(rev.status()).as(rev.raw()).isEqualTo(201);
        System.out.println("reversal capacity: " + rev.header("X-Consumed-Capacity"));
        assertThat(rev.json().at("/transaction/postings").size()).isEqualTo(2);
        assertThat(new BigDecimal(balance(account, "USD").get("posted").asText())).isZero();
        Reply second = reverse("rev-late-2", "dep-late", where);
        assertThat(second.status()).as(second.raw()).isEqualTo(409);
        assertThat(second.json().at("/error/code").asText()).isEqualTo("ALREADY_REVERSED");
        Map<String, AttributeValue> record =
                f.client
                        .getItem(
                                GetItemRequest.builder()
                                        .tableName(f.service.tables().ledger())
                                        .key(
                                                LedgerItemCodec.key(
                                                        new ReversalKey(
                                                                CommandFixture.TENANT_A,
                                                                LedgerIds.txnId(
                                                                        CommandFixture.TENANT_A,
                                                                        "dep-late"))))
                                        .consistentRead(true)
                                        .build())
                        .item();
        assertThat(record.get(LedgerSchema.REVERSED_BY).s())
                .isEqualTo(rev.json().at("/transaction/txnId").asText());
        assertThat(record).doesNotContainKey(IdempotencyStore.A_EXPIRES);
    }

    @Test
    void aTradePostingWrittenByThePostingJobReversesOverTheLedgerRoute() {
        String account = "REV-TRADE";
        f.fund(CommandFixture.KEY_A, account, "currency", "USD", "1000.00");
        String id = place("rev-trade-1", account, "1");
        assertThat(fill(id, "f-1", "1", "187.00", "0.35").status()).isEqualTo(201);
        String source = LedgerIds.tradeSourceId(id + ":f-1");
        Reply early = reverse("corr-trade-0", source, "");
        assertThat(early.status()).as(early.raw()).isEqualTo(409);
        assertThat(early.json().at("/error/code").asText()).isEqualTo("ORIGINAL_NOT_POSTED");
        String txnId = job.post(id, "f-1");
        f.clock.advance(Duration.ofDays(31));
        Reply rev = reverse("corr-trade-1", source, "");
        assertThat(rev.status()).as(rev.raw()).isEqualTo(201);
        assertThat(rev.json().at("/transaction/reversalOfTxnId").asText()).isEqualTo(txnId);
        // client cash/securities, clearing cash/securities, client fee, two fee-income lines
        assertThat(rev.json().at("/transaction/postings").size()).isEqualTo(7);
        JsonNode usd = balance(account, "USD");
        assertThat(usd.get("posted").asText()).isEqualTo("1000.00");
        assertThat(new BigDecimal(balance(account, "AAPL").get("posted").asText())).isZero();
        BigDecimal cash = BigDecimal.ZERO;
        int house = 0;
        for (JsonNode p : rev.json().at("/transaction/postings")) {
            house += p.get("accountId").asText().startsWith("HOUSE-") ? 1 : 0;
            if (p.has("currency")) {
                cash = cash.add(new BigDecimal(p.get("amount").asText()));
            }
        }
        assertThat(house).isEqualTo(4);
        assertThat(cash).isZero();
        Reply bust = bust(id, "f-1");
        assertThat(bust.status()).as(bust.raw()).isEqualTo(409);
        assertThat(bust.json().at("/error/code").asText()).isEqualTo("ALREADY_REVERSED");
    }

    // ------------------------------------------------------------------ helpers

    static String place(String clientOrderId, String account, String qty) {
        return f.place(clientOrderId, account, qty);
    }

    static Reply fill(String orderId, String fillId, String qty, String price, String fee) {
        return f.fill(orderId, fillId, qty, price, fee, "2026-11-30T10:00:00Z");
    }

    static Reply bust(String orderId, String fillId) {
        return f.post(
                "/v1/orders/" + orderId + "/fills/" + fillId + "/bust",
                CommandFixture.KEY_A,
                null,
                "{}");
    }

    static Reply reverse(String sourceId, String reversalOf, String extra) {
        return f.post(
                "/v1/ledger/transactions",
                CommandFixture.KEY_A,
                null,
                "{\"sourceId\":\""
                        + sourceId
                        + "\",\"reversalOf\":\""
                        + reversalOf
                        + "\""
                        + extra
                        + "}");
    }

    static JsonNode balance(String account, String asset) {
        return f.balance(account, asset);
    }

    static Map<String, AttributeValue> reservation(String account, String orderId) {
        return f.client
                .getItem(
                        GetItemRequest.builder()
                                .tableName(f.service.tables().ledger())
                                .key(
                                        LedgerItemCodec.key(
                                                new ReservationKey(
                                                        CommandFixture.TENANT_A, account, orderId)))
                                .consistentRead(true)
                                .build())
                .item();
    }

    static Map<String, AttributeValue> requestRecord(String requestKey) {
        Map<String, AttributeValue> item =
                f.client
                        .getItem(
                                GetItemRequest.builder()
                                        .tableName(f.service.tables().idempotency())
                                        .key(
                                                IdempotencyStore.key(
                                                        CommandFixture.TENANT_A, requestKey))
                                        .consistentRead(true)
                                        .build())
                        .item();
        return item == null || item.isEmpty() ? null : item;
    }

    static void deleteRequestRecord(String requestKey) {
        f.client.deleteItem(
                DeleteItemRequest.builder()
                        .tableName(f.service.tables().idempotency())
                        .key(IdempotencyStore.key(CommandFixture.TENANT_A, requestKey))
                        .build());
    }
}
