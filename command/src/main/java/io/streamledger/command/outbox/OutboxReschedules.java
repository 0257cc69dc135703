package io.streamledger.command.outbox;

import io.streamledger.aws.items.Av;
import io.streamledger.aws.update.Condition;
import io.streamledger.aws.update.ConditionalUpdate;
import io.streamledger.command.config.Schema;
import io.streamledger.command.outbox.RelayCapacity.Use;
import io.streamledger.model.keys.OutboxReadyKey;
import io.streamledger.model.table.Attr;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import software.amazon.awssdk.services.dynamodb.model.ReturnValue;

/**
 * AP16 step 5, READY → READY: a deliberate move of a READY event to a new dueAt under the current
 * shard map, conditioned on its state and version; the READY index key changes, so the index pays
 * one delete and one put (AMP18).
 */
final class OutboxReschedules {

    private final RelayContext ctx;

    OutboxReschedules(RelayContext ctx) {
        this.ctx = ctx;
    }

    /** False when the event is no longer READY at {@code expectedVersion}. */
    boolean reschedule(String eventId, long expectedVersion, Instant due) {
        Instant at = due.truncatedTo(ChronoUnit.MILLIS);
        OutboxReadyKey ready = Schema.ready(OutboxItems.SERVICE, at, eventId);
        ConditionalUpdate update =
                ConditionalUpdate.builder()
                        .set(Schema.READY_PK, Av.s(ready.pk()))
                        .set(Schema.READY_SK, Av.s(ready.sk()))
                        .set(OutboxItems.A_DUE, Av.n(at.toEpochMilli()))
                        .set(Attr.HASH_VERSION, Av.n(Schema.READY_SHARDS.hashVersion()))
                        .set(Attr.SHARD_MAP_VERSION, Av.n(Schema.READY_SHARDS.shardMapVersion()))
                        .increment(OutboxItems.A_VERSION, Av.n(1))
                        .when(Condition.eq(OutboxItems.A_STATE, Av.s(OutboxState.READY.name())))
                        .when(Condition.eq(OutboxItems.A_VERSION, Av.n(expectedVersion)))
                        .build();
        if (ctx.transition(eventId, update, Use.RESCHEDULE, ReturnValue.NONE) == null) {
            return false;
        }
        ctx.counters.rescheduled.increment();
        return true;
    }
}
