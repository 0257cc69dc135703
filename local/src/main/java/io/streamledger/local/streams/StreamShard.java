package io.streamledger.local.streams;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import javax.annotation.Nullable;

/**
 * One shard of a stream: an append-only run of records addressed by absolute position, trimmed at
 * the head by retention and closed (ending sequence number set) on rollover or disable (CS07). Not
 * thread-safe; {@link LocalDynamoDbStreams} guards it.
 */
final class StreamShard {
    private final String shardId;
    private final @Nullable String parentShardId;
    private final long startingSequence;
    private final List<StreamEntry> records = new ArrayList<>();

    /** Absolute position of records.get(0); grows as retention trims the head. */
    private long base;

    private long lastTrimmedSequence = -1;
    private @Nullable Long endingSequence;
    private @Nullable Instant closedAt;

    StreamShard(String shardId, @Nullable String parentShardId, long startingSequence) {
        this.shardId = shardId;
        this.parentShardId = parentShardId;
        this.startingSequence = startingSequence;
    }

    String shardId() {
        return shardId;
    }

    @Nullable
    String parentShardId() {
        return parentShardId;
    }

    long startingSequence() {
        return startingSequence;
    }

    @Nullable
    Long endingSequence() {
        return endingSequence;
    }

    boolean isClosed() {
        return endingSequence != null;
    }

    /** Records appended so far, trimmed ones included. */
    long appendedCount() {
        return base + records.size();
    }

    /** Absolute position of the oldest readable record. */
    long firstPosition() {
        return base;
    }

    /** Absolute position after the newest record. */
    long endPosition() {
        return base + records.size();
    }

    long lastTrimmedSequence() {
        return lastTrimmedSequence;
    }

    void append(StreamEntry entry) {
        if (isClosed()) {
            throw new IllegalStateException("append to closed shard " + shardId);
        }
        records.add(entry);
    }

    /** Closes the shard; its ending number is its last record's, or {@code emptyEnd} if none. */
    void close(long emptyEnd, Instant now) {
        if (isClosed()) {
            return;
        }
        endingSequence = records.isEmpty() ? emptyEnd : records.get(records.size() - 1).sequence();
        closedAt = now;
    }

    /** Drops records appended before {@code cutoff}. */
    void trimBefore(Instant cutoff) {
        int n = 0;
        while (n < records.size() && records.get(n).appendedAt().isBefore(cutoff)) {
            n++;
        }
        if (n > 0) {
            lastTrimmedSequence = records.get(n - 1).sequence();
            records.subList(0, n).clear();
            base += n;
        }
    }

    /** Drops the oldest records beyond {@code max} readable ones (memory bound). */
    void trimToSize(int max) {
        int n = records.size() - max;
        if (n > 0) {
            lastTrimmedSequence = records.get(n - 1).sequence();
            records.subList(0, n).clear();
            base += n;
        }
    }

    /** True once the shard is closed, fully trimmed and older than retention: it is gone. */
    boolean expired(Instant cutoff) {
        return isClosed() && records.isEmpty() && closedAt != null && closedAt.isBefore(cutoff);
    }

    /** Records in [from, from + limit), positions absolute; {@code from >= firstPosition()}. */
    List<StreamEntry> read(long from, int limit) {
        int start = (int) (from - base);
        int end = (int) Math.min(records.size(), (long) start + limit);
        return start >= end ? List.of() : new ArrayList<>(records.subList(start, end));
    }

    /**
     * Position of the first record whose sequence is {@code >= sequence} (or {@code >}), i.e. the
     * position an AT_/AFTER_SEQUENCE_NUMBER iterator starts from.
     */
    long positionOf(long sequence, boolean after) {
        int lo = 0;
        int hi = records.size();
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            long s = records.get(mid).sequence();
            if (s < sequence || (after && s == sequence)) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return base + lo;
    }
}
