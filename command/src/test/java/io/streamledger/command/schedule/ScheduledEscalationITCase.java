package io.streamledger.command.schedule;

import static org.assertj.core.api.Assertions.assertThat;

import io.streamledger.aws.items.BreakItems;
import io.streamledger.aws.items.BreakStatus;
import io.streamledger.aws.items.BreakView;
import io.streamledger.command.ops.BreakRepository;
import io.streamledger.command.testing.CommandFixture;
import io.streamledger.command.testing.MutableClock;
import io.streamledger.command.worker.TenantDirectory;
import io.streamledger.local.LocalDynamoDbExtension;
import io.streamledger.model.table.Attr;
import io.streamledger.model.table.Tables;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * AP15 escalation on schedule: an OPEN break past its due time is escalated by exactly one of two
 * instances (the lease holder), to the configured owner, audited as the scheduler; a break not yet
 * due waits for its due time on the driven clock.
 */
class ScheduledEscalationITCase {

    @RegisterExtension static LocalDynamoDbExtension local = new LocalDynamoDbExtension();

    static final TenantDirectory TENANTS = () -> List.of(CommandFixture.TENANT_A);

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

    /** A detected break as the break sink stores it: OPEN, version 1, due an hour later. */
    private static void detected(String id, Instant at) {
        BreakItems.NewBreak b =
                new BreakItems.NewBreak(
                        CommandFixture.TENANT_A,
                        "B-1",
                        id,
                        "TXN_UNBALANCED",
                        "LEDGER_CHECK",
                        "txn " + id,
                        "finance-ops",
                        at,
                        at.plus(Duration.ofHours(1)),
                        "{}");
        Map<String, AttributeValue> item =
                new HashMap<>(BreakItems.key(CommandFixture.TENANT_A, "B-1", id));
        item.putAll(BreakItems.attributes(b));
        item.put(Attr.VERSION, AttributeValue.fromN("1"));
        f.client.putItem(
                r ->
                        r.tableName(f.service.tables().naming().physicalName(Tables.RECONCILIATION))
                                .item(item));
    }

    private static BreakView view(BreakRepository repo, String id) {
        return repo.get(CommandFixture.TENANT_A, "B-1", id).orElseThrow();
    }

    @Test
    void overdueBreaksAreEscalatedOnceByTheLeaseHolder() {
        detected("overdue", clock.instant().minus(Duration.ofHours(3)));
        detected("later", clock.instant());
        DutyMetrics ma = DutyMetrics.inMemory();
        DutyMetrics mb = DutyMetrics.inMemory();
        TimeDrivenDuties.Settings settings = TimeDrivenDuties.Settings.defaults();
        try (TimeDrivenDuties a =
                        TimeDrivenDuties.create(f.service, TENANTS, "sched-a", ma, settings);
                TimeDrivenDuties b =
                        TimeDrivenDuties.create(f.service, TENANTS, "sched-b", mb, settings)) {
            BreakRepository repo = f.service.breakRepository();
            assertThat(a.escalation().runOnce()).isEqualTo(1);
            assertThat(b.escalation().runOnce()).as("B stands by").isZero();
            BreakView overdue = view(repo, "overdue");
            assertThat(overdue.status()).isEqualTo(BreakStatus.ESCALATED);
            assertThat(overdue.owner()).isEqualTo(settings.escalationOwner());
            assertThat(view(repo, "later").status()).isEqualTo(BreakStatus.OPEN);

            clock.advance(Duration.ofMinutes(61));
            a.escalation().runOnce();
            b.escalation().runOnce();
            assertThat(view(repo, "later").status()).isEqualTo(BreakStatus.ESCALATED);
            assertThat(ma.snapshot().get("escalations")).isEqualTo(2L);
            assertThat(mb.snapshot().get("escalations")).isEqualTo(0L);
        }
    }
}
