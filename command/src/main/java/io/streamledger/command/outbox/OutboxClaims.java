package io.streamledger.command.outbox;

import io.streamledger.aws.items.Av;
import io.streamledger.aws.update.Condition;
import io.streamledger.aws.update.ConditionalUpdate;
import io.streamledger.command.config.Schema;
import io.streamledger.command.outbox.RelayCapacity.Use;
import java.time.Instant;
import java.util.Map;
import javax.annotation.Nullable;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ReturnValue;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemResponse;

/**
 * AP16 step 2, READY → IN_FLIGHT: a conditional claim on state, due time and an absent or expired
 * lease sets owner, lease and attempt, removes the IDX17 READY keys and adds the OUTBOX-LEASE
 * entry, so an owner that dies is found by its lease expiry ({@link LeaseRecovery}).
 */
final class OutboxClaims {

    private final RelayContext ctx;

    OutboxClaims(RelayContext ctx) {
        this.ctx = ctx;
    }

    /** The claim; null when another relay claimed it first or it is no longer READY and due. */
    @Nullable
    InFlight claim(String eventId) {
        Instant now = ctx.now();
        Instant until = ctx.lease.until(now);
        AttributeValue nowMillis = Av.n(now.toEpochMilli());
        ConditionalUpdate.Builder update =
                ConditionalUpdate.builder()
                        .set(OutboxItems.A_STATE, Av.s(OutboxState.IN_FLIGHT.name()))
                        .set(OutboxItems.A_OWNER, Av.s(ctx.owner))
                        .set(OutboxItems.A_LEASE, Av.n(until.toEpochMilli()))
                        .increment(OutboxItems.A_ATTEMPT, Av.n(1))
                        .increment(OutboxItems.A_VERSION, Av.n(1))
                        .remove(Schema.READY_PK, Schema.READY_SK)
                        .when(Condition.eq(OutboxItems.A_STATE, Av.s(OutboxState.READY.name())))
                        .when(Condition.le(OutboxItems.A_DUE, nowMillis))
                        .when(
                                Condition.or(
                                        Condition.notExists(OutboxItems.A_LEASE),
                                        Condition.le(OutboxItems.A_LEASE, nowMillis)));
        OutboxItems.leaseEntry(eventId, until).forEach(update::set);
        long t0 = System.nanoTime();
        try {
            UpdateItemResponse r =
                    ctx.transition(eventId, update.build(), Use.CLAIM, ReturnValue.ALL_NEW);
            if (r == null) {
                ctx.counters.claimLost.increment();
                return null;
            }
            ctx.counters.claimed.increment();
            Map<String, AttributeValue> item = r.attributes();
            return new InFlight(eventId, (int) Av.lng(item, OutboxItems.A_ATTEMPT, 0), item);
        } finally {
            ctx.counters.claimNanos.add(System.nanoTime() - t0);
        }
    }
}
