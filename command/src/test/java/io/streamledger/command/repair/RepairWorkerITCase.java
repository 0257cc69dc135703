package io.streamledger.command.repair;

import static org.assertj.core.api.Assertions.assertThat;

import io.streamledger.command.api.Fields;
import io.streamledger.command.api.StrictJson;
import io.streamledger.command.config.DeterministicIds;
import io.streamledger.command.dynamo.CapacityMeter;
import io.streamledger.command.idempotency.Claim;
import io.streamledger.command.idempotency.Fingerprint;
import io.streamledger.command.idempotency.IdempotencyRecord;
import io.streamledger.command.idempotency.RequestState;
import io.streamledger.command.orders.OrderItems;
import io.streamledger.command.orders.PlaceOrderCommand;
import io.streamledger.command.testing.CommandFixture;
import io.streamledger.command.testing.CommandFixture.Reply;
import io.streamledger.local.LocalDynamoDbExtension;
import io.streamledger.local.fault.FaultKind;
import io.streamledger.local.fault.FaultRule;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * AP18 repair of crashed and ambiguous AP08 requests, and store faults that leave state consistent.
 */
class RepairWorkerITCase {

    @RegisterExtension static LocalDynamoDbExtension local = new LocalDynamoDbExtension();

    static CommandFixture f;

    @BeforeAll
    static void start() {
        f = new CommandFixture(local.endpoint());
        // admission reserves buying power (AP12): the accounts start funded
        f.fundUsd("ACC-R");
    }

    @AfterAll
    static void stop() {
        f.close();
    }

    @AfterEach
    void clearFaults() {
        local.endpoint().faults().clear();
    }

    private static IdempotencyRepairWorker worker(String owner) {
        return f.service.repairWorker(
                () -> List.of(CommandFixture.TENANT_A, CommandFixture.TENANT_B), owner);
    }

    private static Claim claimOnly(String key, String body, String owner) {
        PlaceOrderCommand cmd =
                PlaceOrderCommand.parse(Fields.of(StrictJson.parseObject(body.getBytes())));
        String fp =
                Fingerprint.of(
                        cmd.canonical(),
                        CommandFixture.TENANT_A,
                        PlaceOrderCommand.OPERATION,
                        PlaceOrderCommand.SCHEMA_VERSION);
        return f.service
                .store()
                .claim(
                        CommandFixture.TENANT_A,
                        key,
                        PlaceOrderCommand.OPERATION,
                        fp,
                        owner,
                        Fingerprint.canonicalJson(cmd.canonical()),
                        DeterministicIds.orderId(CommandFixture.TENANT_A, cmd.clientOrderId()),
                        new CapacityMeter());
    }

    private static IdempotencyRecord record(String key) {
        return f.service.store().read(CommandFixture.TENANT_A, key, new CapacityMeter());
    }

    private static boolean orderExists(String clientOrderId) {
        return f.service
                        .ddb()
                        .getStrong(
                                f.service.tables().orders(),
                                OrderItems.key(
                                        CommandFixture.TENANT_A,
                                        DeterministicIds.orderId(
                                                CommandFixture.TENANT_A, clientOrderId)),
                                new CapacityMeter())
                != null;
    }

    @Test
    void crashBetweenClaimAndCompletionIsRepairedByReattempt() {
        String body = CommandFixture.order("c-crash", "ACC-R", "9");
        claimOnly("k-crash", body, "crashed-process");
        IdempotencyRepairWorker w = worker("repair-1");
        assertThat(w.pollOnce()).as("not due while the lease lives").isZero();
        assertThat(record("k-crash").state()).isEqualTo(RequestState.IN_PROGRESS);

        f.clock.advance(f.service.config().lease().plusSeconds(1));
        assertThat(w.pollOnce()).isEqualTo(1);
        assertThat(w.count(RepairOutcome.COMPLETED)).isEqualTo(1);
        IdempotencyRecord rec = record("k-crash");
        assertThat(rec.state()).isEqualTo(RequestState.COMPLETED);
        assertThat(rec.response().status()).isEqualTo(201);
        assertThat(orderExists("c-crash")).isTrue();
        // the client's retry gets the repaired result; the record left the repair queue
        Reply retry = f.post("/v1/orders", CommandFixture.KEY_A, "k-crash", body);
        assertThat(retry.status()).isEqualTo(201);
        assertThat(retry.header("Idempotent-Replayed")).isEqualTo("true");
        assertThat(w.pollOnce()).isZero();
    }

    @Test
    void repairRequiredWithEffectPresentCompletesFromEvidence() throws Exception {
        String body = CommandFixture.order("c-evidence", "ACC-R", "2");
        Reply first = f.post("/v1/orders", CommandFixture.KEY_A, "k-ev-1", body);
        assertThat(first.status()).isEqualTo(201);
        Claim second = claimOnly("k-ev-2", body, "ambiguous-process");
        assertThat(
                        f.service
                                .store()
                                .markRepairRequired(
                                        second,
                                        "timeout after commit?",
                                        Duration.ZERO,
                                        new CapacityMeter()))
                .isTrue();
        f.clock.advance(Duration.ofMillis(10));

        IdempotencyRepairWorker w = worker("repair-2");
        assertThat(w.repairOne(CommandFixture.TENANT_A, "k-ev-2"))
                .isEqualTo(RepairOutcome.COMPLETED);
        IdempotencyRecord rec = record("k-ev-2");
        assertThat(rec.state()).isEqualTo(RequestState.COMPLETED);
        assertThat(StrictJson.MAPPER.readTree(rec.response().body()).at("/order/orderId"))
                .isEqualTo(first.json().at("/order/orderId"));
    }

    @Test
    void operationWithoutSafeReattemptIsEscalated() {
        Claim c =
                f.service
                        .store()
                        .claim(
                                CommandFixture.TENANT_A,
                                "RESERVE:r-esc",
                                "Reserve",
                                "fp",
                                "p1",
                                "{\"reservationId\":\"r-esc\"}",
                                "r-esc",
                                new CapacityMeter());
        f.service.store().markRepairRequired(c, "ambiguous", Duration.ZERO, new CapacityMeter());
        f.clock.advance(Duration.ofMillis(10));
        IdempotencyRepairWorker w = worker("repair-3");
        assertThat(w.repairOne(CommandFixture.TENANT_A, "RESERVE:r-esc"))
                .isEqualTo(RepairOutcome.ESCALATED);
        IdempotencyRecord rec = record("RESERVE:r-esc");
        assertThat(rec.state()).isEqualTo(RequestState.REPAIR_REQUIRED);
        assertThat(rec.repairReason()).startsWith("ESCALATED");
        assertThat(rec.repairCount()).isEqualTo(1);
        assertThat(w.repairOne(CommandFixture.TENANT_A, "RESERVE:r-esc"))
                .as("requeued far out")
                .isEqualTo(RepairOutcome.SKIPPED);
    }

    @Test
    void oneRepairLeasePerRecord() throws Exception {
        String body = CommandFixture.order("c-two-workers", "ACC-R", "1");
        claimOnly("k-two", body, "crashed");
        f.clock.advance(f.service.config().lease().plusSeconds(1));
        IdempotencyRepairWorker a = worker("wa");
        IdempotencyRepairWorker b = worker("wb");
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            List<Callable<RepairOutcome>> calls =
                    List.of(
                            () -> a.repairOne(CommandFixture.TENANT_A, "k-two"),
                            () -> b.repairOne(CommandFixture.TENANT_A, "k-two"));
            var outcomes =
                    pool.invokeAll(calls).stream()
                            .map(
                                    fu -> {
                                        try {
                                            return fu.get();
                                        } catch (Exception e) {
                                            throw new IllegalStateException(e);
                                        }
                                    })
                            .toList();
            assertThat(outcomes).containsOnlyOnce(RepairOutcome.COMPLETED);
            assertThat(outcomes).containsAnyOf(RepairOutcome.LEASE_LOST, RepairOutcome.SKIPPED);
        } finally {
            pool.shutdownNow();
        }
        assertThat(record("k-two").attempt()).isEqualTo(2);
    }

    @Test
    void throttlingIsRetriedAndPersistentFailureLeavesARepairableRecord() {
        var faults = local.endpoint().faults();
        faults.add(FaultRule.throttle().operation("TransactWriteItems").count(2));
        Reply ok =
                f.post(
                        "/v1/orders",
                        CommandFixture.KEY_A,
                        "k-throttle",
                        CommandFixture.order("c-throttle", "ACC-R", "1"));
        assertThat(ok.status()).as(ok.raw()).isEqualTo(201);
        assertThat(f.service.ddb().retrying().retries()).isGreaterThanOrEqualTo(2);

        long before = f.service.ddb().retrying().retries();
        faults.add(FaultRule.of(FaultKind.TRANSACTION_CONFLICT).count(2));
        Reply conflicted =
                f.post(
                        "/v1/orders",
                        CommandFixture.KEY_A,
                        "k-conflict",
                        CommandFixture.order("c-conflict", "ACC-R", "1"));
        assertThat(conflicted.status()).as(conflicted.raw()).isEqualTo(201);
        assertThat(f.service.ddb().retrying().retries() - before).isGreaterThanOrEqualTo(2);
        assertThat(record("k-conflict").state()).isEqualTo(RequestState.COMPLETED);

        faults.add(FaultRule.internalError().operation("TransactWriteItems").count(1000));
        String body = CommandFixture.order("c-500", "ACC-R", "1");
        Reply failed = f.post("/v1/orders", CommandFixture.KEY_A, "k-500", body);
        assertThat(failed.status()).isEqualTo(503);
        assertThat(failed.header("Retry-After")).isNotNull();
        assertThat(record("k-500").state()).isEqualTo(RequestState.REPAIR_REQUIRED);
        assertThat(orderExists("c-500")).isFalse();
        Reply duringRepair = f.post("/v1/orders", CommandFixture.KEY_A, "k-500", body);
        assertThat(duringRepair.status()).isEqualTo(409);
        assertThat(duringRepair.json().at("/error/code").asText())
                .isEqualTo("REQUEST_UNDER_REPAIR");

        faults.clear();
        f.clock.advance(f.service.config().repairDelay().plusSeconds(1));
        assertThat(worker("repair-5").repairOne(CommandFixture.TENANT_A, "k-500"))
                .isEqualTo(RepairOutcome.COMPLETED);
        Reply after = f.post("/v1/orders", CommandFixture.KEY_A, "k-500", body);
        assertThat(after.status()).isEqualTo(201);
        assertThat(orderExists("c-500")).isTrue();
    }
}
