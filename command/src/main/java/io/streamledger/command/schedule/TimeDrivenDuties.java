package io.streamledger.command.schedule;

import io.streamledger.command.config.CommandService;
import io.streamledger.command.outbox.OutboxRelay;
import io.streamledger.command.outbox.Publisher;
import io.streamledger.command.repair.IdempotencyRepairWorker;
import io.streamledger.command.worker.TenantDirectory;
import io.streamledger.model.lease.LeaseTiming;
import java.time.Duration;
import java.util.Objects;
import javax.annotation.Nullable;

/**
 * The command service's time-driven duties in one place (DESIGN "Operations"): DAY/GTD expiry on
 * the venue calendar, AP15 escalation of overdue breaks, each one active instance per tenant shard
 * by a lease, the AP18 repair worker, all over the same {@link TenantDirectory}, and, where events
 * are relayed, the AP16 outbox relay with its lease recovery.
 */
public final class TimeDrivenDuties implements AutoCloseable {

    /**
     * @param lease the duties' lease and the clock skew it tolerates
     * @param expiryInterval rounds of the expiry scheduler
     * @param expiryGrace how long after a close an order is expired (at least the clock skew)
     * @param escalationInterval rounds of the escalation scheduler
     * @param escalationOwner who an escalated break is assigned to
     * @param repairInterval rounds of the AP18 repair worker
     * @param expiry run the expiry scheduler
     * @param escalation run the escalation scheduler
     * @param repair run the repair worker
     */
    public record Settings(
            LeaseTiming lease,
            Duration expiryInterval,
            Duration expiryGrace,
            Duration escalationInterval,
            String escalationOwner,
            Duration repairInterval,
            boolean expiry,
            boolean escalation,
            boolean repair) {
        public Settings {
            Objects.requireNonNull(escalationOwner, "escalationOwner");
            if (expiryGrace.compareTo(lease.maxClockSkew()) < 0) {
                throw new IllegalArgumentException(
                        "expiry grace "
                                + expiryGrace
                                + " must cover the clock skew "
                                + lease.maxClockSkew());
            }
        }

        /** 30 s leases with the stated 2 s skew, expiry every 5 s, escalation every minute. */
        public static Settings defaults() {
            return new Settings(
                    new LeaseTiming(Duration.ofSeconds(30), LeaseTiming.DEFAULT_MAX_CLOCK_SKEW),
                    Duration.ofSeconds(5),
                    LeaseTiming.DEFAULT_MAX_CLOCK_SKEW,
                    Duration.ofMinutes(1),
                    "ops-escalations",
                    Duration.ofSeconds(2),
                    true,
                    true,
                    true);
        }

        public Settings with(boolean expiry, boolean escalation, boolean repair) {
            return new Settings(
                    lease,
                    expiryInterval,
                    expiryGrace,
                    escalationInterval,
                    escalationOwner,
                    repairInterval,
                    expiry,
                    escalation,
                    repair);
        }
    }

    /** The relay's IN_FLIGHT lease, its batch and re-queue backoff, its recovery pass. */
    static final Duration RELAY_LEASE = Duration.ofSeconds(30);

    static final int RELAY_BATCH = 100;
    static final Duration RELAY_RECOVERY_EVERY = Duration.ofSeconds(30);

    private final CommandService service;
    private final String instance;
    private final DutyMetrics metrics;
    private final Settings settings;
    private final DutyScheduler expiry;
    private final DutyScheduler escalation;
    private final IdempotencyRepairWorker repair;
    @Nullable private OutboxRelay relay;
    private boolean started;

    private TimeDrivenDuties(
            CommandService service,
            String instance,
            DutyMetrics metrics,
            Settings settings,
            DutyScheduler expiry,
            DutyScheduler escalation,
            IdempotencyRepairWorker repair) {
        this.service = service;
        this.instance = instance;
        this.metrics = metrics;
        this.settings = settings;
        this.expiry = expiry;
        this.escalation = escalation;
        this.repair = repair;
    }

    /** The duties over {@code service}'s tables, not yet started. */
    public static TimeDrivenDuties create(
            CommandService service,
            TenantDirectory tenants,
            String instance,
            DutyMetrics metrics,
            Settings settings) {
        DutyLeases leases =
                new DutyLeases(
                        service.ddb(),
                        service.tables().idempotency(),
                        service.config().clock(),
                        settings.lease(),
                        instance,
                        metrics);
        OrderExpiryDuty expiryDuty =
                new OrderExpiryDuty(
                        service.ddb(),
                        service.tables().orders(),
                        service.config().clock(),
                        settings.expiryGrace(),
                        service.orderExpirer(),
                        metrics);
        BreakEscalationDuty escalationDuty =
                new BreakEscalationDuty(
                        service.breakRepository(), settings.escalationOwner(), instance, metrics);
        metrics.leasesHeld(OrderExpiryDuty.NAME, () -> leases.heldCount(OrderExpiryDuty.NAME));
        metrics.leasesHeld(
                BreakEscalationDuty.NAME, () -> leases.heldCount(BreakEscalationDuty.NAME));
        return new TimeDrivenDuties(
                service,
                instance,
                metrics,
                settings,
                new DutyScheduler(expiryDuty, tenants, leases),
                new DutyScheduler(escalationDuty, tenants, leases),
                service.repairWorker(tenants, instance));
    }

    /** Starts the duties the settings turn on. */
    public TimeDrivenDuties start() {
        if (settings.expiry()) {
            expiry.start(settings.expiryInterval());
        }
        if (settings.escalation()) {
            escalation.start(settings.escalationInterval());
        }
        if (settings.repair()) {
            repair.start(settings.repairInterval());
        }
        started = true;
        return this;
    }

    /**
     * Starts the AP16 relay publishing to {@code publisher}, rounds {@code pollInterval} apart and
     * lease recovery every 30 s, its lease tolerating the duties' clock skew.
     */
    public OutboxRelay startRelay(Publisher publisher, Duration pollInterval) {
        OutboxRelay r =
                new OutboxRelay(
                                service.ddb(),
                                service.tables().context(),
                                instance,
                                service.config().clock(),
                                publisher,
                                OutboxRelay.Settings.of(
                                                RELAY_LEASE,
                                                RELAY_BATCH,
                                                Duration.ofSeconds(1),
                                                Duration.ofMinutes(5))
                                        .withLease(
                                                new LeaseTiming(
                                                        RELAY_LEASE,
                                                        settings.lease().maxClockSkew())))
                        .start(pollInterval, RELAY_RECOVERY_EVERY);
        metrics.outboxLeasesRecovered(() -> r.metrics().get("leasesRecovered"));
        relay = r;
        return r;
    }

    public DutyScheduler expiry() {
        return expiry;
    }

    public DutyScheduler escalation() {
        return escalation;
    }

    public IdempotencyRepairWorker repair() {
        return repair;
    }

    /** What runs, for a start-up line. */
    public String describe() {
        return "expiry "
                + onOff(settings.expiry())
                + ", escalation "
                + onOff(settings.escalation())
                + ", repair "
                + onOff(settings.repair());
    }

    private static String onOff(boolean b) {
        return b ? "on" : "off";
    }

    @Override
    public void close() {
        if (relay != null) {
            relay.close();
        }
        if (started) {
            expiry.close();
            escalation.close();
            repair.close();
        }
    }
}
