package io.streamledger.command.schedule;

import static org.assertj.core.api.Assertions.assertThat;

import io.streamledger.aws.ledger.LedgerItemCodec;
import io.streamledger.command.config.DeterministicIds;
import io.streamledger.command.dynamo.CapacityMeter;
import io.streamledger.command.orders.CancelService;
import io.streamledger.command.orders.OrderItems;
import io.streamledger.command.outbox.OutboxItems;
import io.streamledger.command.testing.CommandFixture;
import io.streamledger.command.testing.CommandFixture.Reply;
import io.streamledger.command.testing.MutableClock;
import io.streamledger.command.worker.TenantDirectory;
import io.streamledger.local.LocalDynamoDbExtension;
import io.streamledger.model.keys.ReservationKey;
import io.streamledger.model.ledger.LedgerSchema;
import io.streamledger.model.table.Attr;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * DAY expiry that happens (CS04/CS11, AP12): two scheduler instances over one service, a driven
 * clock from Thursday 2027-02-11 across a session close, the Presidents' Day holiday (Monday
 * 2027-02-15) and the switch to daylight saving (Sunday 2027-03-14, the close moves from 21:00 to
 * 20:00 UTC). The clock runs ahead of real time: the local endpoint deletes TTL-expired items on
 * its own clock, and an AP08 record must outlive the test. Every DAY order expires at its venue
 * close plus the grace, never before, by exactly one instance (the other stands by on the lease);
 * each hold is released once, each OrderExpired event written once.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ScheduledExpiryITCase {

    @RegisterExtension static LocalDynamoDbExtension local = new LocalDynamoDbExtension();

    static final String ACCOUNT = "SCHED-1";
    static final String FUNDED = "100000.00";
    static final TenantDirectory TENANTS =
            () -> List.of(CommandFixture.TENANT_A, CommandFixture.TENANT_B);

    static MutableClock clock;
    static CommandFixture f;
    static DutyMetrics metricsA;
    static DutyMetrics metricsB;
    static TimeDrivenDuties a;
    static TimeDrivenDuties b;
    static Duration grace;

    @BeforeAll
    static void start() {
        clock = new MutableClock(Instant.parse("2027-02-11T15:00:00Z"));
        f = new CommandFixture(local.endpoint(), clock, UnaryOperator.identity());
        f.fund(CommandFixture.KEY_A, ACCOUNT, "currency", "USD", FUNDED);
        metricsA = DutyMetrics.inMemory();
        metricsB = DutyMetrics.inMemory();
        TimeDrivenDuties.Settings settings = TimeDrivenDuties.Settings.defaults();
        grace = settings.expiryGrace();
        a = TimeDrivenDuties.create(f.service, TENANTS, "sched-a", metricsA, settings);
        b = TimeDrivenDuties.create(f.service, TENANTS, "sched-b", metricsB, settings);
    }

    @AfterAll
    static void stop() {
        a.close();
        b.close();
        f.close();
    }

    /** Places tenant A's 10 @ 100.00 DAY BUY (1,001.00 held); returns its orderId. */
    private static String dayOrder(String clientOrderId) {
        Reply r =
                f.post(
                        "/v1/orders",
                        CommandFixture.KEY_A,
                        "k-" + clientOrderId,
                        CommandFixture.order(clientOrderId, ACCOUNT, "10")
                                .replace("187.25", "100.00")
                                .replace("}", ",\"timeInForce\":\"DAY\"}"));
        assertThat(r.status()).as(r.raw()).isEqualTo(201);
        return r.json().at("/order/orderId").asText();
    }

    private static Map<String, AttributeValue> order(String orderId) {
        return f.service
                .ddb()
                .getStrong(
                        f.service.tables().orders(),
                        OrderItems.key(CommandFixture.TENANT_A, orderId),
                        new CapacityMeter());
    }

    private static String status(String orderId) {
        return order(orderId).get(Attr.STATUS).s();
    }

    private static Instant expiresAt(String orderId) {
        return Instant.ofEpochMilli(
                Long.parseLong(order(orderId).get(OrderItems.A_EXPIRES_AT_MS).n()));
    }

    /** One round of each instance: A first, so A holds the leases and B stands by. */
    private static void rounds() {
        a.expiry().runOnce();
        b.expiry().runOnce();
    }

    private static long expired() {
        return metricsA.snapshot().get("expired").longValue()
                + metricsB.snapshot().get("expired").longValue();
    }

    @Test
    @Order(1)
    void dayOrdersExpireAtTheVenueCloseAcrossAHolidayAndADaylightSavingChangeOnce() {
        List<String> orders = new ArrayList<>();

        // a session close: Thursday 16:00 New York = 21:00 UTC
        String thursday = dayOrder("sched-thu");
        orders.add(thursday);
        Instant close = Instant.parse("2027-02-11T21:00:00Z");
        assertThat(expiresAt(thursday)).isEqualTo(close);
        clock.advanceTo(close.minusMillis(1));
        rounds();
        assertThat(status(thursday)).isEqualTo("ACCEPTED");
        clock.advanceTo(close.plus(grace).minusMillis(1));
        rounds();
        assertThat(status(thursday))
                .as("not before the grace that covers the clock skew")
                .isEqualTo("ACCEPTED");
        clock.advanceTo(close.plus(grace));
        rounds();
        assertThat(status(thursday)).isEqualTo("EXPIRED");
        assertThat(order(thursday)).doesNotContainKeys(Attr.EXPIRY_PK, Attr.EXPIRY_SK);
        assertThat(metricsA.snapshot().get("expired")).isEqualTo(1L);
        assertThat(metricsB.snapshot().get("expiryDue"))
                .as("B stood by: A holds every shard's lease")
                .isEqualTo(0L);
        assertThat(f.balance(ACCOUNT, "USD").get("reserved").asText()).isEqualTo("0.00");

        // a holiday: accepted Friday after the close, Monday is Presidents' Day, due Tuesday
        clock.advanceTo(Instant.parse("2027-02-12T22:00:00Z"));
        String friday = dayOrder("sched-fri");
        orders.add(friday);
        Instant tuesdayClose = Instant.parse("2027-02-16T21:00:00Z");
        assertThat(expiresAt(friday)).isEqualTo(tuesdayClose);
        clock.advanceTo(Instant.parse("2027-02-15T21:00:00Z").plus(grace));
        rounds();
        assertThat(status(friday)).as("no session on the holiday").isEqualTo("ACCEPTED");
        assertThat(f.balance(ACCOUNT, "USD").get("reserved").asText()).isEqualTo("1001.00");
        clock.advanceTo(tuesdayClose.plus(grace));
        rounds();
        assertThat(status(friday)).isEqualTo("EXPIRED");

        // daylight saving from Sunday 2027-03-14: Monday's close is 16:00 EDT = 20:00 UTC
        clock.advanceTo(Instant.parse("2027-03-12T22:00:00Z"));
        String weekend = dayOrder("sched-dst-fri");
        orders.add(weekend);
        clock.advanceTo(Instant.parse("2027-03-15T19:00:00Z"));
        String monday = dayOrder("sched-dst-mon");
        orders.add(monday);
        Instant edtClose = Instant.parse("2027-03-15T20:00:00Z");
        assertThat(expiresAt(weekend)).isEqualTo(edtClose);
        assertThat(expiresAt(monday)).isEqualTo(edtClose);
        assertThat(f.balance(ACCOUNT, "USD").get("reserved").asText()).isEqualTo("2002.00");
        clock.advanceTo(edtClose.plus(grace));
        rounds();
        assertThat(status(weekend)).isEqualTo("EXPIRED");
        assertThat(status(monday))
                .as("expired an hour before the old fixed 21:00 UTC")
                .isEqualTo("EXPIRED");

        // once: more rounds, B taking over after A's leases lapse, and a client's own call
        clock.advance(Duration.ofMinutes(5));
        b.expiry().runOnce();
        a.expiry().runOnce();
        rounds();
        assertThat(expired()).isEqualTo(orders.size());
        for (String id : orders) {
            Reply again = f.post("/v1/orders/" + id + "/expire", CommandFixture.KEY_A, null, "{}");
            assertThat(again.status()).as(again.raw()).isEqualTo(200);
            assertThat(again.header("Idempotent-Replayed")).isEqualTo("true");
            Map<String, AttributeValue> res =
                    f.service
                            .ddb()
                            .getStrong(
                                    f.service.tables().ledger(),
                                    LedgerItemCodec.key(
                                            new ReservationKey(
                                                    CommandFixture.TENANT_A, ACCOUNT, id)),
                                    new CapacityMeter());
            assertThat(res.get(LedgerSchema.RESERVATION_STATE).s()).isEqualTo("RELEASED");
            assertThat(event(id, 2)).as("OrderExpired of " + id).isNotNull();
            assertThat(event(id, 3)).as("no second OrderExpired of " + id).isNull();
        }
        var cash = f.balance(ACCOUNT, "USD");
        assertThat(cash.get("reserved").asText()).isEqualTo("0.00");
        assertThat(cash.get("available").asText()).isEqualTo(FUNDED);
    }

    @Test
    @Order(2)
    void runningInTheBackgroundOneInstanceExpiresWhatIsDue() {
        clock.advanceTo(Instant.parse("2027-03-16T14:00:00Z"));
        String id = dayOrder("sched-bg");
        TimeDrivenDuties.Settings fast =
                new TimeDrivenDuties.Settings(
                        TimeDrivenDuties.Settings.defaults().lease(),
                        Duration.ofMillis(20),
                        grace,
                        Duration.ofMinutes(1),
                        "ops",
                        Duration.ofSeconds(2),
                        true,
                        false,
                        false);
        DutyMetrics m1 = DutyMetrics.inMemory();
        DutyMetrics m2 = DutyMetrics.inMemory();
        try (TimeDrivenDuties one =
                        TimeDrivenDuties.create(f.service, TENANTS, "bg-1", m1, fast).start();
                TimeDrivenDuties two =
                        TimeDrivenDuties.create(f.service, TENANTS, "bg-2", m2, fast).start()) {
            clock.advanceTo(expiresAt(id).plus(grace));
            await(() -> "EXPIRED".equals(status(id)));
            await(() -> expiredBy(m1) + expiredBy(m2) == 1);
        }
        assertThat(expiredBy(m1) + expiredBy(m2)).isEqualTo(1);
        assertThat(Math.min(expiredBy(m1), expiredBy(m2))).as("one instance did it").isZero();
        assertThat(f.balance(ACCOUNT, "USD").get("reserved").asText()).isEqualTo("0.00");
    }

    private static long expiredBy(DutyMetrics m) {
        return m.snapshot().get("expired").longValue();
    }

    private static Map<String, AttributeValue> event(String orderId, long version) {
        return f.service
                .ddb()
                .getStrong(
                        f.service.tables().context(),
                        OutboxItems.key(
                                DeterministicIds.eventId(
                                        orderId, CancelService.EVENT_ORDER_EXPIRED, version)),
                        new CapacityMeter());
    }

    /** Waits on state the background duties change; the bound only turns a hang into a failure. */
    private static void await(BooleanSupplier done) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!done.getAsBoolean()) {
            assertThat(System.nanoTime()).as("state not reached in 30 s").isLessThan(deadline);
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(10));
        }
    }
}
