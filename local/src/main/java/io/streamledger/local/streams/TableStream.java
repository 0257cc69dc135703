package io.streamledger.local.streams;

import com.fasterxml.jackson.databind.node.ArrayNode;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.annotation.Nullable;

/**
 * One stream of one table (a table gets a new stream, with a new label, each time its stream is
 * re-enabled): its view type, shards in creation order and the open shard of each hash slot (CS07).
 * Not thread-safe; {@link LocalDynamoDbStreams} guards it.
 */
final class TableStream {
    enum Status {
        ENABLED,
        DISABLED
    }

    private final String arn;
    private final String label;
    private final String tableName;
    private final ViewType viewType;
    private final @Nullable ArrayNode keySchema;
    private final Instant createdAt;
    private final Map<String, StreamShard> shards = new LinkedHashMap<>();
    private final StreamShard[] openBySlot;
    private Status status = Status.ENABLED;

    TableStream(
            String arn,
            String label,
            String tableName,
            ViewType viewType,
            @Nullable ArrayNode keySchema,
            Instant createdAt,
            int slots) {
        this.arn = arn;
        this.label = label;
        this.tableName = tableName;
        this.viewType = viewType;
        this.keySchema = keySchema;
        this.createdAt = createdAt;
        this.openBySlot = new StreamShard[slots];
    }

    String arn() {
        return arn;
    }

    String label() {
        return label;
    }

    String tableName() {
        return tableName;
    }

    ViewType viewType() {
        return viewType;
    }

    @Nullable
    ArrayNode keySchema() {
        return keySchema;
    }

    Instant createdAt() {
        return createdAt;
    }

    Status status() {
        return status;
    }

    void markDisabled() {
        status = Status.DISABLED;
    }

    int slots() {
        return openBySlot.length;
    }

    @Nullable
    StreamShard open(int slot) {
        return openBySlot[slot];
    }

    void setOpen(int slot, StreamShard shard) {
        openBySlot[slot] = shard;
        shards.put(shard.shardId(), shard);
    }

    @Nullable
    StreamShard shard(String shardId) {
        return shards.get(shardId);
    }

    /** All shards in creation order (shard ids increase with creation). */
    List<StreamShard> shards() {
        return new ArrayList<>(shards.values());
    }

    void forget(StreamShard shard) {
        shards.remove(shard.shardId());
    }
}
