package io.streamledger.aws.shard;

import io.streamledger.model.shard.ShardMapState;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * The hot path's view of a {@link ShardMapState} (AP09/AP13): the first call loads it, later calls
 * return the cached state at once and refresh it in the background once it is older than {@code
 * refresh}; past {@code maxStaleness} (refresh failing) a call reloads in line and fails if that
 * fails, so no writer routes by a map older than a reshard's lead.
 */
public final class ShardMapCache implements AutoCloseable {

    private final Callable<ShardMapState> loader;
    private final long refreshNanos;
    private final long maxStaleNanos;
    private final LongSupplier nanoTime;
    private final AtomicBoolean refreshing = new AtomicBoolean();
    private final AtomicLong loads = new AtomicLong();
    private final AtomicLong failures = new AtomicLong();
    private final ExecutorService refresher;
    private volatile ShardMapState state;
    private volatile long loadedAt;

    public ShardMapCache(
            Callable<ShardMapState> loader,
            Duration refresh,
            Duration maxStaleness,
            LongSupplier nanoTime) {
        if (refresh.isNegative() || refresh.isZero() || maxStaleness.compareTo(refresh) <= 0) {
            throw new IllegalArgumentException(
                    "need 0 < refresh < maxStaleness, got " + refresh + " / " + maxStaleness);
        }
        this.loader = loader;
        this.refreshNanos = refresh.toNanos();
        this.maxStaleNanos = maxStaleness.toNanos();
        this.nanoTime = nanoTime;
        this.refresher =
                Executors.newSingleThreadExecutor(
                        r -> {
                            Thread t = new Thread(r, "shard-map-refresh");
                            t.setDaemon(true);
                            return t;
                        });
    }

    /** A cache of {@code store} refreshed every {@code refresh}, stale after three refreshes. */
    public static ShardMapCache of(ShardMapStore store, Duration refresh) {
        return new ShardMapCache(store::load, refresh, refresh.multipliedBy(3), System::nanoTime);
    }

    /** The state to route by now. */
    public ShardMapState current() {
        ShardMapState s = state;
        long age = s == null ? Long.MAX_VALUE : nanoTime.getAsLong() - loadedAt;
        if (s == null || age > maxStaleNanos) {
            return loadNow();
        }
        if (age > refreshNanos && refreshing.compareAndSet(false, true)) {
            refresher.execute(
                    () -> {
                        try {
                            loadNow();
                        } catch (RuntimeException e) {
                            failures.incrementAndGet(); // the next call past maxStaleness fails
                        } finally {
                            refreshing.set(false);
                        }
                    });
        }
        return s;
    }

    /** Loads in line (also: an operator's explicit refresh). */
    public synchronized ShardMapState loadNow() {
        try {
            ShardMapState s = loader.call();
            loadedAt = nanoTime.getAsLong();
            state = s;
            loads.incrementAndGet();
            return s;
        } catch (Exception e) {
            throw new IllegalStateException("shard-map state could not be read", e);
        }
    }

    /** Loads so far (initial, refreshes). */
    public long loads() {
        return loads.get();
    }

    /** Background refreshes that failed. */
    public long failures() {
        return failures.get();
    }

    @Override
    public void close() {
        refresher.shutdownNow();
    }
}
