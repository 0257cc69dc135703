package io.streamledger.aws.shard;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.streamledger.model.shard.ShardMap;
import io.streamledger.model.shard.ShardMapState;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** The hot path's cached shard-map state (AP09/AP13): one read, refreshes, a staleness bound. */
class ShardMapCacheTest {

    private final AtomicLong nanos = new AtomicLong();
    private final AtomicInteger reads = new AtomicInteger();
    private final AtomicReference<ShardMapState> durable =
            new AtomicReference<>(ShardMapState.initial(ShardMap.INBOX));
    private final AtomicReference<RuntimeException> failure = new AtomicReference<>();

    private ShardMapCache cache() {
        return new ShardMapCache(
                () -> {
                    reads.incrementAndGet();
                    if (failure.get() != null) {
                        throw failure.get();
                    }
                    return durable.get();
                },
                Duration.ofSeconds(5),
                Duration.ofSeconds(15),
                nanos::get);
    }

    @Test
    void readsOnceThenServesFromMemoryUntilTheRefreshInterval() {
        try (ShardMapCache c = cache()) {
            for (int i = 0; i < 1000; i++) {
                assertThat(c.current()).isEqualTo(durable.get());
            }
            assertThat(reads).hasValue(1);
        }
    }

    @Test
    void pastTheStalenessBoundTheNextCallSeesTheNewStateOrFails() {
        try (ShardMapCache c = cache()) {
            c.current();
            Instant now = Instant.parse("2026-12-01T00:00:00Z");
            durable.set(durable.get().start(17, now.plusSeconds(60), now, Duration.ofSeconds(30)));
            nanos.addAndGet(Duration.ofSeconds(16).toNanos());
            assertThat(c.current().current().shardCount()).isEqualTo(17);

            failure.set(new IllegalStateException("endpoint down"));
            nanos.addAndGet(Duration.ofSeconds(16).toNanos());
            assertThatThrownBy(c::current).hasMessageContaining("could not be read");
        }
    }

    @Test
    void refreshIntervalMustBeBelowTheStalenessBound() {
        assertThatThrownBy(
                        () ->
                                new ShardMapCache(
                                        () -> null,
                                        Duration.ofSeconds(5),
                                        Duration.ofSeconds(5),
                                        System::nanoTime))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void theSourceShipsToATaskByJavaSerialization() throws Exception {
        java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
        try (java.io.ObjectOutputStream out = new java.io.ObjectOutputStream(bytes)) {
            out.writeObject(
                    ShardMapSource.checkpoints(
                            io.streamledger.aws.client.DynamoDbClientConfig.local(
                                    "http://127.0.0.1:1"),
                            "Projection",
                            Duration.ofSeconds(5)));
            out.writeObject(ShardMapSource.fixed(ShardMap.PROJECTION_CHECKPOINTS));
        }
        try (java.io.ObjectInputStream in =
                new java.io.ObjectInputStream(
                        new java.io.ByteArrayInputStream(bytes.toByteArray()))) {
            in.readObject();
            ShardMapSource fixed = (ShardMapSource) in.readObject();
            assertThat(fixed.get())
                    .isEqualTo(ShardMapState.initial(ShardMap.PROJECTION_CHECKPOINTS));
        }
    }
}
