package io.streamledger.command.outbox;

import io.streamledger.aws.items.Av;
import io.streamledger.command.config.Schema;
import io.streamledger.command.dynamo.CapacityMeter;
import io.streamledger.command.outbox.RelayCapacity.Use;
import io.streamledger.model.keys.OutboxReadyKey;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executor;
import javax.annotation.Nullable;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;

/**
 * Discovery of due READY events (AP16 before step 2): one eventual Query cursor per IDX17 shard
 * with {@code SK < DUE#<now+1ms>}, merged by (dueAt, eventId) in {@link ReadyCursors}.
 */
final class ReadyQueue {

    private final RelayContext ctx;
    private final int pageSize;
    private final Executor reads;

    ReadyQueue(RelayContext ctx, int pageSize, Executor reads) {
        this.ctx = ctx;
        this.pageSize = pageSize;
        this.reads = reads;
    }

    /** Cursors over everything due at {@code now}. */
    ReadyCursors due(Instant now) {
        // every key due at or before now sorts below "DUE#<now+1ms>#!"
        Instant bound = now.plusMillis(1);
        return new ReadyCursors(
                Schema.READY_SHARDS.shardCount(),
                (shard, start) -> page(shard, bound, start),
                reads);
    }

    private ReadyCursors.Page page(
            int shard, Instant bound, @Nullable Map<String, AttributeValue> start) {
        String pk = Schema.readyPk(OutboxItems.SERVICE, shard);
        String below = new OutboxReadyKey(OutboxItems.SERVICE, shard, bound, "!").sk();
        CapacityMeter meter = new CapacityMeter();
        QueryResponse r =
                ctx.ddb.query(
                        QueryRequest.builder()
                                .tableName(ctx.table)
                                .indexName(Schema.READY_INDEX)
                                .keyConditionExpression("#pk = :pk AND #sk < :bound")
                                .expressionAttributeNames(
                                        Map.of("#pk", Schema.READY_PK, "#sk", Schema.READY_SK))
                                .expressionAttributeValues(
                                        Map.of(":pk", Av.s(pk), ":bound", Av.s(below)))
                                .exclusiveStartKey(start)
                                .limit(pageSize),
                        meter);
        ctx.capacity.add(Use.READY_QUERY, meter);
        List<OutboxReadyKey> keys = new ArrayList<>(r.items().size());
        for (Map<String, AttributeValue> k : r.items()) {
            keys.add(OutboxReadyKey.parse(k.get(Schema.READY_PK).s(), k.get(Schema.READY_SK).s()));
        }
        boolean more = r.hasLastEvaluatedKey() && !r.lastEvaluatedKey().isEmpty();
        return new ReadyCursors.Page(keys, more ? r.lastEvaluatedKey() : null);
    }
}
