package io.streamledger.command.orders;

import static org.assertj.core.api.Assertions.assertThat;

import io.streamledger.aws.items.Av;
import io.streamledger.aws.ledger.LedgerItemCodec;
import io.streamledger.command.api.Fields;
import io.streamledger.command.api.StrictJson;
import io.streamledger.command.config.DeterministicIds;
import io.streamledger.command.dynamo.CapacityMeter;
import io.streamledger.command.dynamo.TransactionCapacity;
import io.streamledger.command.idempotency.Claim;
import io.streamledger.command.idempotency.Fingerprint;
import io.streamledger.command.idempotency.IdempotencyStore;
import io.streamledger.command.outbox.OutboxItems;
import io.streamledger.command.testing.CommandFixture;
import io.streamledger.command.testing.CommandFixture.Reply;
import io.streamledger.local.LocalDynamoDbExtension;
import io.streamledger.model.keys.AuthorityKey;
import io.streamledger.model.keys.ReservationKey;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * AMP14: the measured consumed capacity (ReturnConsumedCapacity=INDEXES) of the accepted_order_v1
 * transaction equals the seed's formula applied to the real item sizes, extended by the AP12
 * authority hold and the order's reservation item (CS11).
 */
class AcceptedOrderCapacityITCase {

    @RegisterExtension static LocalDynamoDbExtension local = new LocalDynamoDbExtension();

    /** Real sizes of the four targets and the measured units of one accepted order. */
    record Measured(
            int order,
            int sentinel,
            int outbox,
            int requestBefore,
            int requestAfter,
            int authorityBefore,
            int authorityAfter,
            int reservation,
            CapacityMeter tx) {}

    private static Measured acceptOne(CommandFixture f, String clientOrderId) {
        f.fundUsd("ACC-CAP");
        String body = CommandFixture.order(clientOrderId, "ACC-CAP", "100");
        PlaceOrderCommand cmd =
                PlaceOrderCommand.parse(Fields.of(StrictJson.parseObject(body.getBytes())));
        String tenant = CommandFixture.TENANT_A;
        String fp =
                Fingerprint.of(
                        cmd.canonical(),
                        tenant,
                        PlaceOrderCommand.OPERATION,
                        PlaceOrderCommand.SCHEMA_VERSION);
        String orderId = DeterministicIds.orderId(tenant, clientOrderId);
        Claim claim =
                f.service
                        .store()
                        .claim(
                                tenant,
                                "k-" + clientOrderId,
                                PlaceOrderCommand.OPERATION,
                                fp,
                                "owner-1",
                                Fingerprint.canonicalJson(cmd.canonical()),
                                orderId,
                                new CapacityMeter());
        var t = f.service.tables();
        CapacityMeter read = new CapacityMeter();
        int requestBefore =
                Av.itemSize(
                        f.service
                                .ddb()
                                .getStrong(
                                        t.idempotency(),
                                        IdempotencyStore.key(tenant, claim.requestKey()),
                                        read));

        Map<String, AttributeValue> authorityKey =
                LedgerItemCodec.key(AuthorityKey.cash(tenant, cmd.accountId(), "USD"));
        int authorityBefore =
                Av.itemSize(f.service.ddb().getStrong(t.ledger(), authorityKey, read));

        CapacityMeter tx = new CapacityMeter();
        f.service.orders().accept(claim, cmd, tx);

        Map<String, AttributeValue> order =
                f.service.ddb().getStrong(t.orders(), OrderItems.key(tenant, orderId), read);
        Map<String, AttributeValue> sentinel =
                f.service
                        .ddb()
                        .getStrong(t.orders(), OrderItems.sentinelKey(tenant, clientOrderId), read);
        Map<String, AttributeValue> outbox =
                f.service
                        .ddb()
                        .getStrong(
                                t.context(),
                                OutboxItems.key(
                                        DeterministicIds.eventId(
                                                orderId, OrderService.EVENT_ORDER_ACCEPTED, 1)),
                                read);
        Map<String, AttributeValue> request =
                f.service
                        .ddb()
                        .getStrong(
                                t.idempotency(),
                                IdempotencyStore.key(tenant, claim.requestKey()),
                                read);
        int authorityAfter = Av.itemSize(f.service.ddb().getStrong(t.ledger(), authorityKey, read));
        Map<String, AttributeValue> reservation =
                f.service
                        .ddb()
                        .getStrong(
                                t.ledger(),
                                LedgerItemCodec.key(
                                        new ReservationKey(tenant, cmd.accountId(), orderId)),
                                read);
        Measured m =
                new Measured(
                        Av.itemSize(order),
                        Av.itemSize(sentinel),
                        Av.itemSize(outbox),
                        requestBefore,
                        Av.itemSize(request),
                        authorityBefore,
                        authorityAfter,
                        Av.itemSize(reservation),
                        tx);
        System.out.printf(
                "accepted_order_v1 real sizes (bytes): order=%d sentinel=%d outbox=%d request(before/after)=%d/%d authority(before/after)=%d/%d reservation=%d; measured %s%n",
                m.order(),
                m.sentinel(),
                m.outbox(),
                m.requestBefore(),
                m.requestAfter(),
                m.authorityBefore(),
                m.authorityAfter(),
                m.reservation(),
                tx.headerValue());
        return m;
    }

    private static long expected(Measured m, int gsiEntries) {
        // a Put's write size is the larger of the old and the new item (DynamoDB write rule)
        return TransactionCapacity.totalUnits(
                List.of(
                        m.order(),
                        m.sentinel(),
                        m.outbox(),
                        Math.max(m.requestBefore(), m.requestAfter()),
                        Math.max(m.authorityBefore(), m.authorityAfter()),
                        m.reservation()),
                gsiEntries);
    }

    @Test
    void seedRouteMeasuresExactlyTheAmp14Formula() {
        try (CommandFixture f =
                new CommandFixture(local.endpoint(), c -> c.withRepairIndexOnClaim(false))) {
            Measured m = acceptOne(f, "c-cap-seed");
            // 6 base targets x2 (the seed's 4 + the AP12 authority hold + the reservation)
            // + order GSI1 + order GSI2 + READY GSI3 inserts
            assertThat(m.tx().total()).isEqualByComparingTo(BigDecimal.valueOf(expected(m, 3)));
            assertThat(m.tx().indexUnits()).isEqualByComparingTo("3");
            var t = f.service.tables();
            assertThat(m.tx().byTarget())
                    .containsKeys(
                            t.orders() + ".GSI1", t.orders() + ".GSI2", t.context() + ".GSI3");
            assertThat(m.tx().byTarget()).doesNotContainKey(t.idempotency() + ".GSI1");
        }
    }

    @Test
    void defaultRouteAddsOnlyTheRepairQueueDelete() {
        try (CommandFixture f = new CommandFixture(local.endpoint())) {
            Measured m = acceptOne(f, "c-cap-default");
            // the claim sat in the IDX19 repair queue; completion removes it: one GSI delete more
            assertThat(m.tx().total()).isEqualByComparingTo(BigDecimal.valueOf(expected(m, 4)));
            assertThat(m.tx().byTarget().get(f.service.tables().idempotency() + ".GSI1"))
                    .isEqualByComparingTo("1");
        }
    }

    @Test
    void everyWriteResponseStatesItsCapacityInHeaderAndBody() {
        try (CommandFixture f = new CommandFixture(local.endpoint())) {
            f.fundUsd("ACC-CAP");
            Reply r =
                    f.post(
                            "/v1/orders",
                            CommandFixture.KEY_A,
                            "k-cap-http",
                            CommandFixture.order("c-cap-http", "ACC-CAP", "1"));
            assertThat(r.status()).isEqualTo(201);
            String header = r.header("X-Consumed-Capacity");
            BigDecimal total = r.json().at("/meta/consumedCapacity/total").decimalValue();
            assertThat(header)
                    .startsWith("total=" + total.stripTrailingZeros().toPlainString() + ";");
            // claim (1 base + 1 repair-index put) + the transaction
            assertThat(total).isGreaterThan(BigDecimal.valueOf(12));
            Reply replay =
                    f.post(
                            "/v1/orders",
                            CommandFixture.KEY_A,
                            "k-cap-http",
                            CommandFixture.order("c-cap-http", "ACC-CAP", "1"));
            assertThat(replay.header("X-Consumed-Capacity")).isNotNull();
        }
    }
}
