package io.streamledger.command.schedule;

import java.util.function.BooleanSupplier;

/**
 * A duty the service runs on time over every tenant's shards, one instance per shard by a {@link
 * DutyLeases} lease: DAY/GTD expiry ({@link OrderExpiryDuty}), AP15 escalation ({@link
 * BreakEscalationDuty}). Every effect is a conditional write, so a shard worked twice (a lease lost
 * mid-round) changes nothing twice.
 */
public interface TimedDuty {
    /** The duty's name in its lease keys and metrics, e.g. {@code order-expiry}. */
    String name();

    /** Shards per tenant (the duty's queue partitions; 1 for a tenant-wide duty). */
    int shards();

    /** Works one tenant shard; stops early once {@code stillHeld} turns false. */
    void runShard(String tenant, int shard, BooleanSupplier stillHeld);
}
