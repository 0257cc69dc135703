package io.streamledger.command.schedule;

import io.streamledger.command.ops.BreakRepository;
import io.streamledger.command.ops.OpsActor;
import java.util.function.BooleanSupplier;

/**
 * AP15 escalation on schedule: an OPEN break past its due time becomes ESCALATED with a new owner,
 * through the repository's conditional escalate (status and version as read, audited as {@code
 * scheduler:<instance>}), tenant by tenant; one call is bounded, so a backlog drains over rounds.
 */
public final class BreakEscalationDuty implements TimedDuty {

    public static final String NAME = "break-escalation";

    private final BreakRepository breaks;
    private final String newOwner;
    private final OpsActor actor;
    private final DutyMetrics metrics;

    public BreakEscalationDuty(
            BreakRepository breaks, String newOwner, String instance, DutyMetrics metrics) {
        this.breaks = breaks;
        this.newOwner = newOwner;
        this.actor = new OpsActor("scheduler", instance);
        this.metrics = metrics;
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public int shards() {
        return 1;
    }

    @Override
    public void runShard(String tenant, int shard, BooleanSupplier stillHeld) {
        if (stillHeld.getAsBoolean()) {
            metrics.escalated(breaks.escalateOverdue(tenant, newOwner, actor));
        }
    }
}
