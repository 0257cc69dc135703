package io.streamledger.model.change;

import java.util.Objects;

/**
 * Where a record was read: the stream/Kinesis shard id and the record's sequence number there.
 *
 * @param shardId shard id, e.g. {@code shardId-00000001700000000000-abcdef01}
 * @param sequenceNumber sequence number within the shard
 */
public record SourcePosition(String shardId, String sequenceNumber) {
    public SourcePosition {
        Objects.requireNonNull(shardId, "shardId");
        Objects.requireNonNull(sequenceNumber, "sequenceNumber");
    }
}
