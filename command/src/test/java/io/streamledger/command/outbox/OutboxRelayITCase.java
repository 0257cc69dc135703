package io.streamledger.command.outbox;

import static org.assertj.core.api.Assertions.assertThat;

import io.streamledger.command.dynamo.CapacityMeter;
import io.streamledger.command.testing.CommandFixture;
import io.streamledger.local.LocalDynamoDbExtension;
import io.streamledger.local.kinesis.KinesisLocalExtension;
import io.streamledger.model.change.OutboxEvent;
import io.streamledger.model.change.OutboxEventCodec;
import io.streamledger.model.table.Attr;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ScanRequest;
import software.amazon.awssdk.services.kinesis.KinesisClient;
import software.amazon.awssdk.services.kinesis.model.Record;
import software.amazon.awssdk.services.kinesis.model.Shard;
import software.amazon.awssdk.services.kinesis.model.ShardIteratorType;

/** The AP16 relay lifecycle against the local endpoint and kinesis-local (CS03). */
class OutboxRelayITCase {

    @RegisterExtension static LocalDynamoDbExtension local = new LocalDynamoDbExtension();
    @RegisterExtension static KinesisLocalExtension kinesis = new KinesisLocalExtension();

    static CommandFixture f;
    static KinesisClient kc;
    static final String STREAM = "outbox-events";

    @BeforeAll
    static void start() {
        f = new CommandFixture(local.endpoint());
        // admission reserves buying power (AP12): the accounts start funded
        f.fundUsd("ACC-OUT");
        kinesis.kinesis().createStream(STREAM, 2);
        kc = kinesis.kinesis().client();
    }

    @AfterAll
    static void stop() {
        f.close();
    }

    private static String placeOrder(String clientOrderId) {
        var r =
                f.post(
                        "/v1/orders",
                        CommandFixture.KEY_A,
                        "k-" + clientOrderId,
                        CommandFixture.order(clientOrderId, "ACC-OUT", "1"));
        assertThat(r.status()).isEqualTo(201);
        return r.json().at("/order/orderId").asText();
    }

    private static Map<String, AttributeValue> outbox(String orderId) {
        String eventId =
                io.streamledger.command.config.DeterministicIds.eventId(
                        orderId, "OrderAccepted", 1);
        return f.service
                .ddb()
                .getStrong(
                        f.service.tables().context(),
                        OutboxItems.key(eventId),
                        new CapacityMeter());
    }

    private static void drainReady() {
        // earlier tests' events must not leak into the counts of a later one
        relay("drain", new Publisher.Ack("0", "drain")).pollOnce();
    }

    private static OutboxRelay relayStatic(String owner, Publisher p) {
        return new OutboxRelay(
                f.service.ddb(),
                f.service.tables().context(),
                owner,
                f.clock,
                p,
                Duration.ofSeconds(10),
                1000,
                Duration.ofSeconds(1),
                Duration.ofSeconds(60));
    }

    private static OutboxRelay relay0(String owner, Publisher p) {
        return relayStatic(owner, p);
    }

    private static OutboxRelay relay(String owner, Publisher.Ack ack) {
        return relayStatic(owner, (k, d) -> ack);
    }

    private static List<Record> readStream() {
        List<Record> all = new ArrayList<>();
        for (Shard s : kc.listShards(b -> b.streamName(STREAM)).shards()) {
            String it =
                    kc.getShardIterator(
                                    b ->
                                            b.streamName(STREAM)
                                                    .shardId(s.shardId())
                                                    .shardIteratorType(
                                                            ShardIteratorType.TRIM_HORIZON))
                            .shardIterator();
            for (int i = 0; i < 5 && it != null; i++) {
                String cur = it;
                var r = kc.getRecords(b -> b.shardIterator(cur).limit(1000));
                all.addAll(r.records());
                it = r.records().isEmpty() ? null : r.nextShardIterator();
            }
        }
        return all;
    }

    @Test
    void publishesToKinesisByAggregateAndStoresTheSequenceNumber() {
        List<String> orders =
                List.of(placeOrder("c-out-1"), placeOrder("c-out-2"), placeOrder("c-out-3"));
        OutboxRelay relay = relay0("relay-k", new KinesisPublisher(kc, STREAM));
        assertThat(relay.pollOnce()).isGreaterThanOrEqualTo(3);

        Map<String, String> seqByAggregate = new HashMap<>();
        for (Record r : readStream()) {
            OutboxEvent e = OutboxEventCodec.fromJson(r.data().asString(StandardCharsets.UTF_8));
            assertThat(r.partitionKey()).isEqualTo(e.aggregateId());
            seqByAggregate.put(e.aggregateId(), r.sequenceNumber());
        }
        for (String orderId : orders) {
            Map<String, AttributeValue> item = outbox(orderId);
            assertThat(item.get(Attr.STATE).s()).isEqualTo("COMPLETED");
            assertThat(item).doesNotContainKeys(Attr.READY_PK, Attr.READY_SK, Attr.LEASE_UNTIL);
            assertThat(item.get(OutboxItems.A_ACK).s()).isEqualTo(seqByAggregate.get(orderId));
        }
    }

    @Test
    void failedPublishGoesBackToReadyWithBackoffAndANewDueAt() {
        drainReady();
        String orderId = placeOrder("c-out-fail");
        AtomicInteger calls = new AtomicInteger();
        OutboxRelay relay =
                relay0(
                        "relay-f",
                        (k, d) -> {
                            if (calls.getAndIncrement() == 0) {
                                throw new IllegalStateException("broker unavailable");
                            }
                            return new Publisher.Ack("seq-2", "shard-0");
                        });
        assertThat(relay.pollOnce()).isZero();
        Map<String, AttributeValue> item = outbox(orderId);
        assertThat(item.get(Attr.STATE).s()).isEqualTo("READY");
        assertThat(item.get(OutboxItems.A_LAST_ERROR).s()).contains("broker unavailable");
        assertThat(item.get(Attr.READY_PK)).isNotNull();
        assertThat(Long.parseLong(item.get(OutboxItems.A_DUE).n())).isGreaterThan(f.clock.millis());
        assertThat(relay.pollOnce()).as("not due before its backoff").isZero();
        f.clock.advance(Duration.ofSeconds(3));
        assertThat(relay.pollOnce()).isEqualTo(1);
        item = outbox(orderId);
        assertThat(item.get(Attr.STATE).s()).isEqualTo("COMPLETED");
        assertThat(item.get(OutboxItems.A_ATTEMPT).n()).isEqualTo("2");
    }

    @Test
    void expiredLeaseReturnsToReadyAndTheOldOwnerCannotComplete() {
        drainReady();
        String orderId = placeOrder("c-out-lease");
        OutboxRelay a = relay("relay-a", new Publisher.Ack("never", "x"));
        OutboxRelay b = relay("relay-b", new Publisher.Ack("seq-b", "shard-b"));
        String eventId = Av(outbox(orderId));
        OutboxRelay.InFlight held = a.claim(eventId); // relay A claims, then stalls
        assertThat(held).isNotNull();
        assertThat(b.claim(eventId)).as("no second owner while the lease lives").isNull();
        assertThat(b.recoverExpiredLeases()).isZero();
        f.clock.advance(Duration.ofSeconds(11));
        assertThat(b.recoverExpiredLeases()).isEqualTo(1);
        assertThat(b.pollOnce()).isEqualTo(1);
        assertThat(a.complete(held, new Publisher.Ack("late", "x"))).isFalse();
        Map<String, AttributeValue> item = outbox(orderId);
        assertThat(item.get(Attr.STATE).s()).isEqualTo("COMPLETED");
        assertThat(item.get(OutboxItems.A_ACK).s()).isEqualTo("seq-b");
        assertThat(item.get(Attr.LEASE_OWNER).s()).isEqualTo("relay-b");
        assertThat(a.metrics().get("completeLost")).isEqualTo(1);
    }

    private static String Av(Map<String, AttributeValue> item) {
        return item.get(Attr.EVENT_ID).s();
    }

    @Test
    void twoRelaysNeverBothOwnAnEvent() throws Exception {
        drainReady();
        for (int i = 0; i < 40; i++) {
            placeOrder("c-out-race-" + i);
        }
        Map<String, List<String>> publishedBy = new ConcurrentHashMap<>();
        Publisher recording =
                (key, data) -> {
                    OutboxEvent e =
                            OutboxEventCodec.fromJson(new String(data, StandardCharsets.UTF_8));
                    publishedBy
                            .computeIfAbsent(
                                    e.eventId(),
                                    k -> java.util.Collections.synchronizedList(new ArrayList<>()))
                            .add(Thread.currentThread().getName());
                    return new Publisher.Ack("seq-" + e.eventId(), "s");
                };
        OutboxRelay a =
                new OutboxRelay(
                        f.service.ddb(),
                        f.service.tables().context(),
                        "race-a",
                        f.clock,
                        recording,
                        Duration.ofSeconds(30),
                        5,
                        Duration.ofSeconds(1),
                        Duration.ofSeconds(60));
        OutboxRelay b =
                new OutboxRelay(
                        f.service.ddb(),
                        f.service.tables().context(),
                        "race-b",
                        f.clock,
                        recording,
                        Duration.ofSeconds(30),
                        5,
                        Duration.ofSeconds(1),
                        Duration.ofSeconds(60));
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            List<Future<Integer>> runs = new ArrayList<>();
            for (OutboxRelay r : List.of(a, b)) {
                runs.add(
                        pool.submit(
                                () -> {
                                    int total = 0;
                                    for (int round = 0; round < 50; round++) {
                                        int n = r.pollOnce();
                                        total += n;
                                        if (n == 0 && r.due().isEmpty()) {
                                            break;
                                        }
                                    }
                                    return total;
                                }));
            }
            int total = runs.get(0).get() + runs.get(1).get();
            assertThat(total).isEqualTo(40);
        } finally {
            pool.shutdownNow();
        }
        assertThat(publishedBy).hasSize(40);
        assertThat(publishedBy.values()).allSatisfy(owners -> assertThat(owners).hasSize(1));
        assertThat(a.metrics().get("claimed") + b.metrics().get("claimed")).isEqualTo(40);
        var inFlight =
                f.client.scan(
                        ScanRequest.builder()
                                .tableName(f.service.tables().context())
                                .filterExpression("#s <> :c")
                                .expressionAttributeNames(Map.of("#s", "state"))
                                .expressionAttributeValues(
                                        Map.of(":c", AttributeValue.fromS("COMPLETED")))
                                .build());
        assertThat(inFlight.count()).isZero();
    }
}
