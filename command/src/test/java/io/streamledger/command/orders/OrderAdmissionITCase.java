package io.streamledger.command.orders;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.streamledger.aws.items.Av;
import io.streamledger.command.api.Fields;
import io.streamledger.command.api.StrictJson;
import io.streamledger.command.config.DeterministicIds;
import io.streamledger.command.dynamo.CapacityMeter;
import io.streamledger.command.idempotency.Fingerprint;
import io.streamledger.command.idempotency.RequestState;
import io.streamledger.command.outbox.OutboxItems;
import io.streamledger.command.testing.CommandFixture;
import io.streamledger.command.testing.CommandFixture.Reply;
import io.streamledger.local.LocalDynamoDbExtension;
import io.streamledger.model.table.Attr;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ScanRequest;

/** accepted_order_v1 through every state of the AP08 machine (CS01/CS02, AP17) over HTTP. */
class OrderAdmissionITCase {

    @RegisterExtension static LocalDynamoDbExtension local = new LocalDynamoDbExtension();

    static CommandFixture f;

    @BeforeAll
    static void start() {
        f = new CommandFixture(local.endpoint());
        // admission reserves buying power (AP12): the accounts start funded
        f.fundUsd("ACC1");
        f.fundUsd("ACC-STORM");
    }

    @AfterAll
    static void stop() {
        f.close();
    }

    private static String fingerprintOf(String tenant, String body) {
        PlaceOrderCommand cmd =
                PlaceOrderCommand.parse(Fields.of(StrictJson.parseObject(body.getBytes())));
        return Fingerprint.of(
                cmd.canonical(),
                tenant,
                PlaceOrderCommand.OPERATION,
                PlaceOrderCommand.SCHEMA_VERSION);
    }

    private static int count(String table) {
        return f.client.scan(ScanRequest.builder().tableName(table).build()).count();
    }

    @Test
    void acceptedOrderWritesOrderSentinelOutboxAndCompletedRecordAtomically() {
        String body = CommandFixture.order("c-accept-1", "ACC1", "10");
        Reply r = f.post("/v1/orders", CommandFixture.KEY_A, "k-accept-1", body);

        assertThat(r.status()).as(r.raw()).isEqualTo(201);
        JsonNode order = r.json().get("order");
        String orderId = order.get("orderId").asText();
        assertThat(orderId)
                .isEqualTo(DeterministicIds.orderId(CommandFixture.TENANT_A, "c-accept-1"));
        assertThat(order.get("status").asText()).isEqualTo("ACCEPTED");
        assertThat(order.get("limitPrice").asText()).isEqualTo("187.25");
        assertThat(r.header("X-Consumed-Capacity")).startsWith("total=");
        assertThat(r.json().at("/meta/consumedCapacity/total").asDouble()).isPositive();

        var tables = f.service.tables();
        Map<String, AttributeValue> orderItem =
                f.service
                        .ddb()
                        .getStrong(
                                tables.orders(),
                                OrderItems.key(CommandFixture.TENANT_A, orderId),
                                new CapacityMeter());
        assertThat(orderItem).isNotNull();
        assertThat(orderItem.get(Attr.GSI1PK).s()).isEqualTo("TEN#tenantA#ACCT#ACC1");
        assertThat(orderItem.get(Attr.GSI2PK).s())
                .isEqualTo("TEN#tenantA#ACCT#ACC1#STATUS#ACCEPTED");
        Map<String, AttributeValue> sentinel =
                f.service
                        .ddb()
                        .getStrong(
                                tables.orders(),
                                OrderItems.sentinelKey(CommandFixture.TENANT_A, "c-accept-1"),
                                new CapacityMeter());
        assertThat(sentinel.get(Attr.ORDER_ID).s()).isEqualTo(orderId);
        String eventId = DeterministicIds.eventId(orderId, OrderService.EVENT_ORDER_ACCEPTED, 1);
        Map<String, AttributeValue> outbox =
                f.service
                        .ddb()
                        .getStrong(tables.context(), OutboxItems.key(eventId), new CapacityMeter());
        assertThat(outbox.get(Attr.STATE).s()).isEqualTo("READY");
        assertThat(outbox.get(Attr.READY_PK).s()).startsWith("SERVICE#command#READY#");
        assertThat(outbox.get(Attr.READY_SK).s()).startsWith("DUE#").endsWith("#" + eventId);
        assertThat(outbox.get(Attr.PAYLOAD).m().get("quantity").n()).isEqualTo("10");
        var rec =
                f.service.store().read(CommandFixture.TENANT_A, "k-accept-1", new CapacityMeter());
        assertThat(rec.state()).isEqualTo(RequestState.COMPLETED);
        assertThat(rec.response().status()).isEqualTo(201);

        Reply get = f.get("/v1/orders/" + orderId, CommandFixture.KEY_A);
        assertThat(get.status()).isEqualTo(200);
        assertThat(get.json().get("order")).isEqualTo(order);
    }

    @Test
    void completedRequestReplaysTheStoredResponse() {
        String body = CommandFixture.order("c-replay", "ACC1", "5");
        Reply first = f.post("/v1/orders", CommandFixture.KEY_A, "k-replay", body);
        Reply again = f.post("/v1/orders", CommandFixture.KEY_A, "k-replay", body);
        assertThat(first.status()).isEqualTo(201);
        assertThat(again.status()).isEqualTo(201);
        assertThat(again.data()).isEqualTo(first.data());
        assertThat(again.header("Idempotent-Replayed")).isEqualTo("true");
        assertThat(first.header("Idempotent-Replayed")).isEqualTo("false");
        // numerically equal amounts are the same command: 5 == 5.000
        Reply normalised =
                f.post(
                        "/v1/orders",
                        CommandFixture.KEY_A,
                        "k-replay",
                        CommandFixture.order("c-replay", "ACC1", "5.000"));
        assertThat(normalised.status()).isEqualTo(201);
        assertThat(normalised.data()).isEqualTo(first.data());
    }

    @Test
    void sameKeyDifferentCommandIsConflict() {
        assertThat(
                        f.post(
                                        "/v1/orders",
                                        CommandFixture.KEY_A,
                                        "k-mismatch",
                                        CommandFixture.order("c-mm", "ACC1", "5"))
                                .status())
                .isEqualTo(201);
        Reply r =
                f.post(
                        "/v1/orders",
                        CommandFixture.KEY_A,
                        "k-mismatch",
                        CommandFixture.order("c-mm", "ACC1", "6"));
        assertThat(r.status()).isEqualTo(409);
        assertThat(r.json().at("/error/code").asText()).isEqualTo("IDEMPOTENCY_KEY_REUSED");
    }

    @Test
    void liveInProgressGetsRetryGuidanceAndExpiredLeaseIsTakenOverOnce() {
        String body = CommandFixture.order("c-lease", "ACC1", "7");
        String fp = fingerprintOf(CommandFixture.TENANT_A, body);
        int outboxBefore = count(f.service.tables().context());
        // an attempt that claimed and then stopped (crash between claim and completion)
        f.service
                .store()
                .claim(
                        CommandFixture.TENANT_A,
                        "k-lease",
                        PlaceOrderCommand.OPERATION,
                        fp,
                        "crashed-owner",
                        "{}",
                        DeterministicIds.orderId(CommandFixture.TENANT_A, "c-lease"),
                        new CapacityMeter());

        Reply busy = f.post("/v1/orders", CommandFixture.KEY_A, "k-lease", body);
        assertThat(busy.status()).isEqualTo(409);
        assertThat(busy.json().at("/error/code").asText()).isEqualTo("REQUEST_IN_PROGRESS");
        assertThat(Long.parseLong(busy.header("Retry-After"))).isBetween(1L, 5L);
        assertThat(count(f.service.tables().context()))
                .as("no effect written")
                .isEqualTo(count(f.service.tables().context()));

        f.clock.advance(f.service.config().lease().plusSeconds(1));
        Reply taken = f.post("/v1/orders", CommandFixture.KEY_A, "k-lease", body);
        assertThat(taken.status()).as(taken.raw()).isEqualTo(201);
        var rec = f.service.store().read(CommandFixture.TENANT_A, "k-lease", new CapacityMeter());
        assertThat(rec.state()).isEqualTo(RequestState.COMPLETED);
        assertThat(rec.attempt()).isEqualTo(2);
        assertThat(f.post("/v1/orders", CommandFixture.KEY_A, "k-lease", body).data())
                .isEqualTo(taken.data());
    }

    @Test
    void sentinelLoserReturnsExistingOrderOrConflict() {
        String body = CommandFixture.order("c-sentinel", "ACC1", "3");
        Reply first = f.post("/v1/orders", CommandFixture.KEY_A, "k-sent-1", body);
        Reply sameCommandOtherKey = f.post("/v1/orders", CommandFixture.KEY_A, "k-sent-2", body);
        assertThat(sameCommandOtherKey.status()).isEqualTo(201);
        assertThat(sameCommandOtherKey.json().at("/order/orderId"))
                .isEqualTo(first.json().at("/order/orderId"));

        Reply otherCommand =
                f.post(
                        "/v1/orders",
                        CommandFixture.KEY_A,
                        "k-sent-3",
                        CommandFixture.order("c-sentinel", "ACC1", "4"));
        assertThat(otherCommand.status()).isEqualTo(409);
        assertThat(otherCommand.json().at("/error/code").asText())
                .isEqualTo("CLIENT_ORDER_ID_CONFLICT");
        // the conflict is the durable result of k-sent-3
        Reply replay =
                f.post(
                        "/v1/orders",
                        CommandFixture.KEY_A,
                        "k-sent-3",
                        CommandFixture.order("c-sentinel", "ACC1", "4"));
        assertThat(replay.status()).isEqualTo(409);
        assertThat(replay.data()).isEqualTo(otherCommand.data());
    }

    @Test
    void sixtyFourConcurrentIdenticalRequestsMakeExactlyOneOrder() throws Exception {
        String body = CommandFixture.order("c-storm", "ACC-STORM", "1");
        ExecutorService pool = Executors.newFixedThreadPool(64);
        try {
            List<Callable<Reply>> calls = new ArrayList<>();
            for (int i = 0; i < 64; i++) {
                calls.add(
                        () -> {
                            for (int attempt = 0; attempt < 50; attempt++) {
                                Reply r =
                                        f.post("/v1/orders", CommandFixture.KEY_A, "k-storm", body);
                                if (r.status() == 409
                                        && "REQUEST_IN_PROGRESS"
                                                .equals(r.json().at("/error/code").asText())) {
                                    assertThat(r.header("Retry-After")).isNotNull();
                                    Thread.sleep(
                                            20); // retry guidance honoured (shortened for the test)
                                    continue;
                                }
                                return r;
                            }
                            throw new AssertionError("never completed");
                        });
            }
            Set<JsonNode> bodies = new HashSet<>();
            for (Future<Reply> fu : pool.invokeAll(calls)) {
                Reply r = fu.get();
                assertThat(r.status()).as(r.raw()).isEqualTo(201);
                bodies.add(r.data());
            }
            assertThat(bodies).hasSize(1);
        } finally {
            pool.shutdownNow();
        }
        var items =
                f.client.query(
                        q ->
                                q.tableName(f.service.tables().orders())
                                        .indexName("GSI1")
                                        .keyConditionExpression("GSI1PK = :p")
                                        .expressionAttributeValues(
                                                Map.of(":p", Av.s("TEN#tenantA#ACCT#ACC-STORM"))));
        assertThat(items.count()).isEqualTo(1);
    }

    @Test
    void badInputIs400AndWritesNothing() {
        int before = count(f.service.tables().idempotency()) + count(f.service.tables().orders());
        String good = CommandFixture.order("c-bad", "ACC1", "1");
        Map<String, String> cases = new java.util.LinkedHashMap<>();
        cases.put("{\"clientOrderId\":", "MALFORMED_JSON");
        cases.put(good.replace("}", ",\"extra\":1}"), "UNKNOWN_FIELD");
        cases.put(good.replace("\"side\":\"BUY\",", ""), "MISSING_FIELD");
        cases.put(good.replace("\"187.25\"", "187.2500000000000001"), "SCALE_EXCEEDS_POLICY");
        cases.put(good.replace("\"187.25\"", "\"1.8725e2\""), "INVALID_AMOUNT");
        cases.put(good.replace("\"USD\"", "\"XYZ\""), "UNKNOWN_CURRENCY");
        cases.put(good.replace("\"quantity\":\"1\"", "\"quantity\":\"0\""), "NOT_POSITIVE");
        cases.put(good.replace("\"c-bad\"", "\"c#bad\""), "INVALID_ID");
        cases.put(good.replace("\"ACC1\"", "\"A#1\""), "INVALID_ID");
        cases.put("[1,2]", "MALFORMED_JSON");
        cases.put(good + "{}", "MALFORMED_JSON");
        for (Map.Entry<String, String> c : cases.entrySet()) {
            Reply r = f.post("/v1/orders", CommandFixture.KEY_A, "k-bad", c.getKey());
            assertThat(r.status()).as(c.getKey() + " -> " + r.raw()).isEqualTo(400);
            assertThat(r.json().at("/error/code").asText()).as(c.getKey()).isEqualTo(c.getValue());
            assertThat(r.json().at("/error/message").asText()).isNotBlank();
        }
        String huge = good.replace("}", ",\"pad\":\"" + "x".repeat(70_000) + "\"}");
        assertThat(f.post("/v1/orders", CommandFixture.KEY_A, "k-bad", huge).status())
                .isEqualTo(413);
        assertThat(f.post("/v1/orders", CommandFixture.KEY_A, null, good).status()).isEqualTo(400);
        assertThat(f.post("/v1/orders", CommandFixture.KEY_A, "k#bad", good).status())
                .isEqualTo(400);
        assertThat(f.post("/v1/orders", null, "k-bad", good).status()).isEqualTo(401);
        assertThat(f.post("/v1/orders", "wrong-key", "k-bad", good).status()).isEqualTo(401);
        assertThat(count(f.service.tables().idempotency()) + count(f.service.tables().orders()))
                .as("nothing written")
                .isEqualTo(before);
    }
}
