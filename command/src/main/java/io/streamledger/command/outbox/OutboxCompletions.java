package io.streamledger.command.outbox;

import io.streamledger.aws.items.Av;
import io.streamledger.aws.update.Condition;
import io.streamledger.aws.update.ConditionalUpdate;
import io.streamledger.command.outbox.RelayCapacity.Use;
import java.time.Duration;
import java.time.Instant;
import software.amazon.awssdk.services.dynamodb.model.ReturnValue;

/**
 * AP16 step 3, IN_FLIGHT → COMPLETED: only the lease owner of the attempt stores the broker's
 * acknowledgement and completion time; the lease and its OUTBOX-LEASE entry go, and the item gets
 * its TTL {@code retention} later (cleanup only: nothing reads a COMPLETED item to decide).
 */
final class OutboxCompletions {

    private final RelayContext ctx;
    private final Duration retention;

    OutboxCompletions(RelayContext ctx, Duration retention) {
        this.ctx = ctx;
        this.retention = retention;
    }

    /** True when this relay completed the event; false when its lease was lost meanwhile. */
    boolean complete(InFlight f, Publisher.Ack ack) {
        Instant now = ctx.now();
        ConditionalUpdate update =
                ConditionalUpdate.builder()
                        .set(OutboxItems.A_STATE, Av.s(OutboxState.COMPLETED.name()))
                        .set(OutboxItems.A_ACK, Av.s(ack.sequenceNumber()))
                        .set(
                                OutboxItems.A_ACK_SHARD,
                                Av.s(ack.shardId() == null ? "" : ack.shardId()))
                        .set(OutboxItems.A_COMPLETED, Av.s(now.toString()))
                        .set(OutboxItems.A_EXPIRES_AT, Av.n(now.plus(retention).getEpochSecond()))
                        .increment(OutboxItems.A_VERSION, Av.n(1))
                        .remove(OutboxItems.A_LEASE)
                        .remove(OutboxItems.LEASE_ENTRY)
                        .when(inFlightOf(ctx.owner, f.attempt()))
                        .build();
        long t0 = System.nanoTime();
        try {
            if (ctx.transition(f.eventId(), update, Use.COMPLETE, ReturnValue.NONE) == null) {
                // the lease expired and the event was re-queued: the publication may repeat,
                // which consumers absorb through their AP09 inbox
                ctx.counters.completeLost.increment();
                return false;
            }
            ctx.counters.completed.increment();
            return true;
        } finally {
            ctx.counters.completeNanos.add(System.nanoTime() - t0);
        }
    }

    /** Still IN_FLIGHT under the lease of {@code owner} for attempt {@code attempt}. */
    static Condition inFlightOf(String owner, int attempt) {
        return Condition.and(
                Condition.eq(OutboxItems.A_STATE, Av.s(OutboxState.IN_FLIGHT.name())),
                Condition.eq(OutboxItems.A_OWNER, Av.s(owner)),
                Condition.eq(OutboxItems.A_ATTEMPT, Av.n(attempt)));
    }
}
