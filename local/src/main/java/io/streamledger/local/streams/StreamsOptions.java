package io.streamledger.local.streams;

import java.time.Clock;
import java.time.Duration;
import java.util.Objects;

/**
 * Settings of the local DynamoDB Streams: shard count, rollover, transaction shuffling, retention
 * and iterator lifetime on an injectable clock (CS01: a transaction's items may interleave).
 *
 * @param shardsPerTable open shards per stream; an item's shard is a stable hash of its key
 * @param maxRecordsPerShard close a shard and open a child after this many records; 0 = never
 * @param shuffleTransactions append a transaction's changes in a random order, as AWS may
 * @param seed seed of the shuffle's Random, so a failing test can be replayed
 * @param clock time source for retention, iterator expiry and stream labels
 * @param retention how long records stay readable (AWS: 24 hours)
 * @param iteratorLifetime how long a shard iterator stays valid (AWS: 15 minutes)
 * @param maxRetainedPerShard readable records kept per shard; older ones are trimmed early (a
 *     memory bound for long local runs; reading them gives TrimmedDataAccessException)
 */
public record StreamsOptions(
        int shardsPerTable,
        int maxRecordsPerShard,
        boolean shuffleTransactions,
        long seed,
        Clock clock,
        Duration retention,
        Duration iteratorLifetime,
        int maxRetainedPerShard) {

    public static final int DEFAULT_SHARDS = 2;
    public static final int DEFAULT_MAX_RETAINED_PER_SHARD = 500_000;
    public static final Duration AWS_RETENTION = Duration.ofHours(24);
    public static final Duration AWS_ITERATOR_LIFETIME = Duration.ofMinutes(15);

    public StreamsOptions {
        if (shardsPerTable < 1 || shardsPerTable > 64) {
            throw new IllegalArgumentException("shardsPerTable must be 1..64: " + shardsPerTable);
        }
        if (maxRecordsPerShard < 0) {
            throw new IllegalArgumentException("maxRecordsPerShard must be >= 0");
        }
        if (maxRetainedPerShard < 1) {
            throw new IllegalArgumentException("maxRetainedPerShard must be >= 1");
        }
        Objects.requireNonNull(clock, "clock");
        Objects.requireNonNull(retention, "retention");
        Objects.requireNonNull(iteratorLifetime, "iteratorLifetime");
    }

    /** The same options on another clock (the endpoint's). */
    public StreamsOptions withClock(Clock other) {
        return new StreamsOptions(
                shardsPerTable,
                maxRecordsPerShard,
                shuffleTransactions,
                seed,
                other,
                retention,
                iteratorLifetime,
                maxRetainedPerShard);
    }

    public static StreamsOptions defaults() {
        return builder().build();
    }

    public static Builder builder() {
        return new Builder();
    }

    /** Fluent builder with AWS's defaults. */
    public static final class Builder {
        private int shardsPerTable = DEFAULT_SHARDS;
        private int maxRecordsPerShard;
        private boolean shuffleTransactions;
        private long seed = 42L;
        private Clock clock = Clock.systemUTC();
        private Duration retention = AWS_RETENTION;
        private Duration iteratorLifetime = AWS_ITERATOR_LIFETIME;
        private int maxRetainedPerShard = DEFAULT_MAX_RETAINED_PER_SHARD;

        public Builder shardsPerTable(int n) {
            this.shardsPerTable = n;
            return this;
        }

        public Builder maxRecordsPerShard(int n) {
            this.maxRecordsPerShard = n;
            return this;
        }

        public Builder shuffleTransactions(boolean on) {
            this.shuffleTransactions = on;
            return this;
        }

        public Builder seed(long seed) {
            this.seed = seed;
            return this;
        }

        public Builder clock(Clock clock) {
            this.clock = clock;
            return this;
        }

        public Builder retention(Duration retention) {
            this.retention = retention;
            return this;
        }

        public Builder iteratorLifetime(Duration lifetime) {
            this.iteratorLifetime = lifetime;
            return this;
        }

        public Builder maxRetainedPerShard(int n) {
            this.maxRetainedPerShard = n;
            return this;
        }

        public StreamsOptions build() {
            return new StreamsOptions(
                    shardsPerTable,
                    maxRecordsPerShard,
                    shuffleTransactions,
                    seed,
                    clock,
                    retention,
                    iteratorLifetime,
                    maxRetainedPerShard);
        }
    }
}
