package io.streamledger.command.schedule;

import io.streamledger.command.worker.BackgroundRounds;
import io.streamledger.command.worker.TenantDirectory;
import io.streamledger.model.keys.DutyLeaseKey;
import java.time.Duration;
import java.util.Optional;
import javax.annotation.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs one {@link TimedDuty} on schedule in the service process: each round visits every tenant of
 * the {@link TenantDirectory} and every shard of the duty, works the shards whose lease this
 * instance holds and stands by for the others. A failed shard is logged and retried next round.
 */
public final class DutyScheduler implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(DutyScheduler.class);

    private final TimedDuty duty;
    private final TenantDirectory tenants;
    private final DutyLeases leases;
    @Nullable private BackgroundRounds rounds;

    public DutyScheduler(TimedDuty duty, TenantDirectory tenants, DutyLeases leases) {
        this.duty = duty;
        this.tenants = tenants;
        this.leases = leases;
    }

    /** One round; returns how many tenant shards this instance worked. */
    public int runOnce() {
        int worked = 0;
        for (String tenant : tenants.tenants()) {
            for (int shard = 0; shard < duty.shards(); shard++) {
                Optional<DutyLeases.Held> held =
                        leases.hold(new DutyLeaseKey(tenant, duty.name(), shard));
                if (held.isEmpty()) {
                    continue;
                }
                DutyLeases.Held h = held.get();
                try {
                    duty.runShard(tenant, shard, () -> leases.mayAct(h));
                    worked++;
                } catch (RuntimeException e) {
                    LOG.warn(
                            "{} of {} shard {} failed; next round retries",
                            duty.name(),
                            tenant,
                            shard,
                            e);
                }
            }
        }
        return worked;
    }

    /** Runs rounds {@code interval} apart in the background until {@link #close()}. */
    public DutyScheduler start(Duration interval) {
        rounds = BackgroundRounds.start("duty-" + duty.name(), 1);
        rounds.every(
                Duration.ZERO,
                interval,
                this::runOnce,
                LOG,
                duty.name() + " round failed; next round retries");
        return this;
    }

    public TimedDuty duty() {
        return duty;
    }

    @Override
    public void close() {
        if (rounds != null) {
            rounds.close();
        }
    }
}
