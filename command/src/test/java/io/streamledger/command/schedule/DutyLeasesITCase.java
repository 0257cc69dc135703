package io.streamledger.command.schedule;

import static org.assertj.core.api.Assertions.assertThat;

import io.streamledger.command.testing.CommandFixture;
import io.streamledger.command.testing.MutableClock;
import io.streamledger.local.LocalDynamoDbExtension;
import io.streamledger.model.keys.DutyLeaseKey;
import io.streamledger.model.lease.LeaseTiming;
import java.time.Duration;
import java.time.Instant;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * One instance per duty shard (the AP08 lease pattern): a second instance stands by until the
 * holder's lease ended by the stated clock skew, the holder stops acting the skew before its end,
 * renewals keep the fence and a take-over bumps it.
 */
class DutyLeasesITCase {

    @RegisterExtension static LocalDynamoDbExtension local = new LocalDynamoDbExtension();

    static final LeaseTiming TIMING =
            new LeaseTiming(Duration.ofSeconds(30), Duration.ofSeconds(2));

    static MutableClock clock;
    static CommandFixture f;

    @BeforeAll
    static void start() {
        clock = new MutableClock(Instant.parse("2027-01-04T10:00:00Z"));
        f = new CommandFixture(local.endpoint(), clock, UnaryOperator.identity());
    }

    @AfterAll
    static void stop() {
        f.close();
    }

    private static DutyLeases instance(String name, DutyMetrics metrics) {
        return new DutyLeases(
                f.service.ddb(), f.service.tables().idempotency(), clock, TIMING, name, metrics);
    }

    @Test
    void aStandbyTakesOverOnlyOnceTheLeaseEndedByTheClockSkew() {
        DutyMetrics ma = DutyMetrics.inMemory();
        DutyLeases a = instance("inst-a", ma);
        DutyLeases b = instance("inst-b", DutyMetrics.inMemory());
        DutyLeaseKey key = new DutyLeaseKey(CommandFixture.TENANT_A, "test-duty", 0);

        DutyLeases.Held first = a.hold(key).orElseThrow();
        assertThat(first.fence()).isEqualTo(1);
        assertThat(first.until()).isEqualTo(clock.instant().plus(TIMING.ttl()));
        assertThat(b.hold(key)).as("held by A").isEmpty();

        // A renews a third into its lease: same fence, later end
        clock.advance(TIMING.renewEvery());
        DutyLeases.Held renewed = a.hold(key).orElseThrow();
        assertThat(renewed.fence()).isEqualTo(1);
        assertThat(renewed.until()).isAfter(first.until());
        assertThat(a.mayAct(first)).as("superseded by the renewal").isFalse();
        assertThat(a.mayAct(renewed)).isTrue();

        // A stops acting the skew before the end; B waits the skew after it
        clock.advanceTo(renewed.until().minus(TIMING.maxClockSkew()));
        assertThat(a.mayAct(renewed)).isFalse();
        clock.advanceTo(renewed.until().plus(TIMING.maxClockSkew()).minusMillis(1));
        assertThat(b.hold(key)).isEmpty();
        clock.advance(Duration.ofMillis(1));
        DutyLeases.Held taken = b.hold(key).orElseThrow();
        assertThat(taken.fence()).isEqualTo(2);
        assertThat(a.hold(key)).as("A lost it to B").isEmpty();
        assertThat(b.heldCount("test-duty")).isEqualTo(1);
        assertThat(a.heldCount("test-duty")).isZero();
    }
}
