package io.streamledger.command.outbox;

import io.streamledger.aws.items.Av;
import io.streamledger.aws.update.Condition;
import io.streamledger.command.config.Schema;
import io.streamledger.command.dynamo.CapacityMeter;
import io.streamledger.command.outbox.RelayCapacity.Use;
import io.streamledger.model.keys.OutboxLeaseKey;
import io.streamledger.model.table.Attr;
import io.streamledger.model.table.Tables;
import java.time.Instant;
import java.util.Map;
import javax.annotation.Nullable;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;
import software.amazon.awssdk.services.dynamodb.model.ReturnValue;

/**
 * AP16 step 4 for a dead owner, IN_FLIGHT → READY by lease expiry: one eventual Query per shard of
 * the sparse OUTBOX-LEASE queue for leases that ended at least the stated clock skew ago ({@code
 * model} {@code LeaseTiming}), each moved back conditionally on still being IN_FLIGHT under such a
 * lease. The queue holds only IN_FLIGHT items, so what a round reads depends on how many leases
 * expired, never on how many events were ever published.
 */
final class LeaseRecovery {

    private static final String INDEX = Tables.CONTEXT.gsi("GSI4").orElseThrow().indexName();

    private final RelayContext ctx;
    private final int pageSize;

    LeaseRecovery(RelayContext ctx, int pageSize) {
        this.ctx = ctx;
        this.pageSize = pageSize;
    }

    /** One pass over every shard; returns how many events went back to READY. */
    int recoverExpired() {
        Instant now = ctx.now();
        Instant cutoff = ctx.lease.expiredBy(now);
        int recovered = 0;
        for (int shard = 0; shard < Schema.READY_SHARDS.shardCount(); shard++) {
            Map<String, AttributeValue> start = null;
            do {
                QueryResponse r = expiredPage(shard, cutoff, start);
                for (Map<String, AttributeValue> k : r.items()) {
                    OutboxLeaseKey lease =
                            OutboxLeaseKey.parse(
                                    k.get(Attr.LEASE_PK).s(), k.get(Attr.LEASE_SK).s());
                    if (recover(lease.eventId(), now, cutoff)) {
                        recovered++;
                    }
                }
                start =
                        r.hasLastEvaluatedKey() && !r.lastEvaluatedKey().isEmpty()
                                ? r.lastEvaluatedKey()
                                : null;
            } while (start != null);
        }
        return recovered;
    }

    private QueryResponse expiredPage(
            int shard, Instant cutoff, @Nullable Map<String, AttributeValue> start) {
        CapacityMeter meter = new CapacityMeter();
        QueryResponse r =
                ctx.ddb.query(
                        QueryRequest.builder()
                                .tableName(ctx.table)
                                .indexName(INDEX)
                                .keyConditionExpression("#pk = :pk AND #sk < :bound")
                                .expressionAttributeNames(
                                        Map.of("#pk", Attr.LEASE_PK, "#sk", Attr.LEASE_SK))
                                .expressionAttributeValues(
                                        Map.of(
                                                ":pk",
                                                Av.s(
                                                        OutboxLeaseKey.partition(
                                                                OutboxItems.SERVICE, shard)),
                                                ":bound",
                                                Av.s(OutboxLeaseKey.expiredBound(cutoff))))
                                .exclusiveStartKey(start)
                                .limit(pageSize),
                        meter);
        ctx.capacity.add(Use.LEASE_RECOVERY, meter);
        return r;
    }

    /** Back to READY, due now, if still IN_FLIGHT under a lease that ended by {@code cutoff}. */
    private boolean recover(String eventId, Instant now, Instant cutoff) {
        boolean moved =
                ctx.transition(
                                eventId,
                                OutboxItems.backToReady(eventId, now, "lease expired")
                                        .when(
                                                Condition.eq(
                                                        OutboxItems.A_STATE,
                                                        Av.s(OutboxState.IN_FLIGHT.name())))
                                        .when(
                                                Condition.le(
                                                        OutboxItems.A_LEASE,
                                                        Av.n(cutoff.toEpochMilli())))
                                        .build(),
                                Use.REQUEUE,
                                ReturnValue.NONE)
                        != null;
        if (moved) {
            ctx.counters.leasesRecovered.increment();
        }
        return moved;
    }
}
