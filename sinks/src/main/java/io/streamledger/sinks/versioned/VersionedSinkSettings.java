package io.streamledger.sinks.versioned;

import java.io.Serializable;
import java.util.Objects;
import software.amazon.awssdk.services.dynamodb.model.ReturnConsumedCapacity;

/**
 * The versioned sink's own settings beyond AsyncSinkBase's buffering (seed CS06 guard, limits on
 * retries and concurrency); validated by {@link VersionedDynamoDbSinkBuilder}.
 */
public final class VersionedSinkSettings implements Serializable {
    private static final long serialVersionUID = 1L;

    private final WriteGuard guard;
    private final ReturnConsumedCapacity consumedCapacity;
    private final int maxConcurrentWritesPerBatch;
    private final int maxRetries;
    private final long retryBaseDelayMillis;
    private final long retryMaxDelayMillis;
    private final boolean flushOnCheckpoint;

    VersionedSinkSettings(
            WriteGuard guard,
            ReturnConsumedCapacity consumedCapacity,
            int maxConcurrentWritesPerBatch,
            int maxRetries,
            long retryBaseDelayMillis,
            long retryMaxDelayMillis,
            boolean flushOnCheckpoint) {
        this.guard = Objects.requireNonNull(guard);
        this.consumedCapacity = Objects.requireNonNull(consumedCapacity);
        this.maxConcurrentWritesPerBatch = maxConcurrentWritesPerBatch;
        this.maxRetries = maxRetries;
        this.retryBaseDelayMillis = retryBaseDelayMillis;
        this.retryMaxDelayMillis = retryMaxDelayMillis;
        this.flushOnCheckpoint = flushOnCheckpoint;
    }

    public WriteGuard guard() {
        return guard;
    }

    public ReturnConsumedCapacity consumedCapacity() {
        return consumedCapacity;
    }

    public int maxConcurrentWritesPerBatch() {
        return maxConcurrentWritesPerBatch;
    }

    public int maxRetries() {
        return maxRetries;
    }

    public long retryBaseDelayMillis() {
        return retryBaseDelayMillis;
    }

    public long retryMaxDelayMillis() {
        return retryMaxDelayMillis;
    }

    public boolean flushOnCheckpoint() {
        return flushOnCheckpoint;
    }
}
