package io.streamledger.command.orders;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.streamledger.command.dynamo.CapacityMeter;
import io.streamledger.command.testing.CommandFixture;
import io.streamledger.command.testing.CommandFixture.Reply;
import io.streamledger.local.LocalDynamoDbExtension;
import io.streamledger.model.calendar.ExchangeCalendar;
import io.streamledger.model.calendar.ExchangeCalendars;
import io.streamledger.model.keys.OrderExpiryKey;
import io.streamledger.model.table.Attr;
import java.math.BigDecimal;
import java.time.DayOfWeek;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * Time in force over HTTP (CS04/CS11, AP08/AP12): a DAY order expires at its venue's session close
 * after its acceptance (model {@code ExchangeCalendar}), a GTD order at its date's close, decided
 * by the service clock in the expiry's conditional write; the expiry releases what its reservation
 * still holds, once, and no execution after the close is admitted. An open DAY/GTD order carries
 * its ORDER-EXPIRY due-time entry; the transaction that closes the order removes it.
 */
class OrderExpiryITCase {

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

    static final ExchangeCalendar XNYS = ExchangeCalendars.DEFAULT.forCurrency("USD");

    private static Map<String, AttributeValue> item(String orderId) {
        return f.service
                .ddb()
                .getStrong(
                        f.service.tables().orders(),
                        OrderItems.key(CommandFixture.TENANT_A, orderId),
                        new CapacityMeter());
    }

    private static String dayOrder(String clientOrderId, String account, String tif) {
        return "{\"clientOrderId\":\""
                + clientOrderId
                + "\",\"accountId\":\""
                + account
                + "\",\"symbol\":\"AAPL\",\"side\":\"BUY\",\"type\":\"LIMIT\",\"quantity\":\"10\","
                + "\"limitPrice\":\"100.00\",\"currency\":\"USD\""
                + (tif == null ? "" : ",\"timeInForce\":\"" + tif + "\"")
                + "}";
    }

    private static Reply fill(String orderId, String fillId, String qty, Instant at) {
        return f.fill(orderId, fillId, qty, "100.00", "0", at.toString());
    }

    private static Reply expire(String orderId) {
        return f.post("/v1/orders/" + orderId + "/expire", CommandFixture.KEY_A, null, "{}");
    }

    private static JsonNode cash(String account) {
        Reply r = f.get("/v1/accounts/" + account + "/balances", CommandFixture.KEY_A);
        assertThat(r.status()).isEqualTo(200);
        for (JsonNode b : r.json().get("balances")) {
            if ("USD".equals(b.path("currency").asText(null))) {
                return b;
            }
        }
        throw new AssertionError("no USD balance for " + account);
    }

    @Test
    void aDayOrderExpiresAtTheCloseAndReleasesItsRemainderOnce() {
        String account = "TIF-DAY";
        f.fund(CommandFixture.KEY_A, account, "currency", "USD", "2000.00");
        Reply placed =
                f.post(
                        "/v1/orders",
                        CommandFixture.KEY_A,
                        "k-tif-day",
                        dayOrder("tif-day", account, "DAY"));
        assertThat(placed.status()).as(placed.raw()).isEqualTo(201);
        String id = placed.json().at("/order/orderId").asText();
        Instant expiresAt = Instant.parse(placed.json().at("/order/expiresAt").asText());
        assertThat(placed.json().at("/order/timeInForce").asText()).isEqualTo("DAY");
        assertThat(expiresAt).isEqualTo(XNYS.nextCloseAfter(f.clock.instant()));
        assertThat(expiresAt.atZone(XNYS.zone()).toLocalTime())
                .isIn(XNYS.close(), XNYS.halfDayClose());
        assertThat(item(id).get(Attr.EXPIRY_SK).s())
                .isEqualTo(OrderExpiryKey.forOrder(CommandFixture.TENANT_A, id, expiresAt).sk());
        // 1,000.00 notional + 1.00 fee estimate
        assertThat(cash(account).get("reserved").asText()).isEqualTo("1001.00");

        // not due yet: refused without a request record, so the same call works later
        Reply early = expire(id);
        assertThat(early.status()).isEqualTo(409);
        assertThat(early.json().at("/error/code").asText()).isEqualTo("ORDER_NOT_EXPIRED");

        assertThat(fill(id, "f-1", "4", expiresAt.minusSeconds(60)).status()).isEqualTo(201);
        // no execution after the close belongs to the order
        Reply late = fill(id, "f-2", "1", expiresAt);
        assertThat(late.status()).isEqualTo(422);
        assertThat(late.json().at("/error/code").asText()).isEqualTo("ORDER_EXPIRED");

        f.clock.advance(Duration.between(f.clock.instant(), expiresAt).plusSeconds(1));
        Reply expired = expire(id);
        assertThat(expired.status()).as(expired.raw()).isEqualTo(200);
        assertThat(expired.json().at("/order/status").asText()).isEqualTo("EXPIRED");
        assertThat(item(id)).doesNotContainKeys(Attr.EXPIRY_PK, Attr.EXPIRY_SK, Attr.GSI2PK);
        // reserved 1001.00, the fill consumed 400.00: the rest goes back
        assertThat(new BigDecimal(expired.json().at("/reservation/released").asText()))
                .isEqualByComparingTo("601.00");
        JsonNode b = cash(account);
        assertThat(b.get("reserved").asText()).isEqualTo("0.00");
        assertThat(b.get("available").asText()).isEqualTo("1600.00");

        // AP08: the same expiry replays; the order is closed for cancels and fills
        assertThat(expire(id).data()).isEqualTo(expired.data());
        assertThat(cash(account).get("reserved").asText()).isEqualTo("0.00");
        Reply cancel = f.post("/v1/orders/" + id + "/cancel", CommandFixture.KEY_A, null, "{}");
        assertThat(cancel.status()).isEqualTo(409);
        assertThat(fill(id, "f-3", "1", expiresAt.minusSeconds(30)).status()).isEqualTo(422);
        Reply read = f.get("/v1/orders/" + id, CommandFixture.KEY_A);
        assertThat(read.json().at("/order/status").asText()).isEqualTo("EXPIRED");
    }

    @Test
    void aGoodTillCancelledOrderNeverExpires() {
        String account = "TIF-GTC";
        f.fund(CommandFixture.KEY_A, account, "currency", "USD", "2000.00");
        Reply placed =
                f.post(
                        "/v1/orders",
                        CommandFixture.KEY_A,
                        "k-tif-gtc",
                        dayOrder("tif-gtc", account, null));
        assertThat(placed.status()).as(placed.raw()).isEqualTo(201);
        assertThat(placed.json().at("/order/expiresAt").isMissingNode()).isTrue();
        String id = placed.json().at("/order/orderId").asText();
        assertThat(item(id)).doesNotContainKeys(Attr.EXPIRY_PK, Attr.EXPIRY_SK);
        f.clock.advance(Duration.ofDays(3));
        Reply r = expire(id);
        assertThat(r.status()).isEqualTo(409);
        assertThat(r.json().at("/error/code").asText()).isEqualTo("ORDER_NOT_EXPIRED");
        assertThat(fill(id, "f-1", "10", f.clock.instant()).status()).isEqualTo(201);
    }

    @Test
    void aGoodTillDateOrderExpiresAtItsDatesCloseAndLeavesTheQueueWhenFilled() {
        String account = "TIF-GTD";
        f.fund(CommandFixture.KEY_A, account, "currency", "USD", "2000.00");
        LocalDate date = XNYS.sessionDate(f.clock.instant().plus(Duration.ofDays(7)));
        Reply placed =
                f.post(
                        "/v1/orders",
                        CommandFixture.KEY_A,
                        "k-tif-gtd",
                        gtd("tif-gtd", account, date.toString()));
        assertThat(placed.status()).as(placed.raw()).isEqualTo(201);
        String id = placed.json().at("/order/orderId").asText();
        assertThat(placed.json().at("/order/timeInForce").asText()).isEqualTo("GTD");
        assertThat(Instant.parse(placed.json().at("/order/expiresAt").asText()))
                .isEqualTo(XNYS.sessionClose(date).orElseThrow());
        assertThat(item(id)).containsKeys(Attr.EXPIRY_PK, Attr.EXPIRY_SK);

        // the fill that completes the order takes it out of the due-time queue with IDX03
        assertThat(fill(id, "f-gtd", "10", f.clock.instant()).status()).isEqualTo(201);
        Map<String, AttributeValue> filled = item(id);
        assertThat(filled.get(Attr.STATUS).s()).isEqualTo("FILLED");
        assertThat(filled).doesNotContainKeys(Attr.EXPIRY_PK, Attr.EXPIRY_SK, Attr.GSI2PK);
    }

    @Test
    void aCancelledDayOrderLeavesTheQueue() {
        String account = "TIF-CXL";
        f.fund(CommandFixture.KEY_A, account, "currency", "USD", "2000.00");
        Reply placed =
                f.post(
                        "/v1/orders",
                        CommandFixture.KEY_A,
                        "k-tif-cxl",
                        dayOrder("tif-cxl", account, "DAY"));
        String id = placed.json().at("/order/orderId").asText();
        assertThat(item(id)).containsKeys(Attr.EXPIRY_PK, Attr.EXPIRY_SK);
        assertThat(
                        f.post("/v1/orders/" + id + "/cancel", CommandFixture.KEY_A, null, "{}")
                                .status())
                .isEqualTo(200);
        assertThat(item(id)).doesNotContainKeys(Attr.EXPIRY_PK, Attr.EXPIRY_SK);
    }

    @Test
    void goodTillDateNeedsATradingDayWhoseSessionIsStillAhead() {
        f.fund(CommandFixture.KEY_A, "TIF-BAD", "currency", "USD", "2000.00");
        Reply missing =
                f.post(
                        "/v1/orders",
                        CommandFixture.KEY_A,
                        "k-gtd-none",
                        dayOrder("gtd-none", "TIF-BAD", "GTD"));
        assertThat(missing.status()).isEqualTo(400);
        assertThat(missing.json().at("/error/code").asText()).isEqualTo("MISSING_FIELD");
        LocalDate saturday = f.clock.instant().atZone(XNYS.zone()).toLocalDate();
        while (saturday.getDayOfWeek() != DayOfWeek.SATURDAY) {
            saturday = saturday.plusDays(1);
        }
        Reply weekend =
                f.post(
                        "/v1/orders",
                        CommandFixture.KEY_A,
                        "k-gtd-sat",
                        gtd("gtd-sat", "TIF-BAD", saturday.toString()));
        assertThat(weekend.status()).isEqualTo(400);
        assertThat(weekend.json().at("/error/code").asText()).isEqualTo("NOT_A_TRADING_DAY");
        LocalDate past = XNYS.sessionDate(f.clock.instant().minus(Duration.ofDays(7)));
        Reply passed =
                f.post(
                        "/v1/orders",
                        CommandFixture.KEY_A,
                        "k-gtd-past",
                        gtd("gtd-past", "TIF-BAD", past.toString()));
        assertThat(passed.status()).isEqualTo(422);
        assertThat(passed.json().at("/error/code").asText()).isEqualTo("EXPIRE_DATE_PASSED");
        Reply dayWithDate =
                f.post(
                        "/v1/orders",
                        CommandFixture.KEY_A,
                        "k-day-date",
                        dayOrder("day-date", "TIF-BAD", "DAY")
                                .replace("}", ",\"expireDate\":\"" + past + "\"}"));
        assertThat(dayWithDate.status()).isEqualTo(400);
        assertThat(cash("TIF-BAD").get("reserved").asText()).isEqualTo("0.00");
    }

    private static String gtd(String clientOrderId, String account, String date) {
        return dayOrder(clientOrderId, account, "GTD")
                .replace("}", ",\"expireDate\":\"" + date + "\"}");
    }
}
