package io.streamledger.command.worker;

import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;

/**
 * Daemon threads that run a background worker's rounds at a fixed delay (the AP16 outbox relay of
 * CS03 and the AP18 repair worker of CS02): a failed round is logged and the next one retries, and
 * {@link #close()} interrupts the rounds and waits briefly for them to stop.
 */
public final class BackgroundRounds implements AutoCloseable {
    private static final long STOP_WAIT_SECONDS = 5;

    private final ScheduledExecutorService scheduler;

    private BackgroundRounds(ScheduledExecutorService scheduler) {
        this.scheduler = scheduler;
    }

    /** A pool of {@code threads} daemon threads, each named {@code threadName}. */
    public static BackgroundRounds start(String threadName, int threads) {
        return new BackgroundRounds(
                Executors.newScheduledThreadPool(
                        threads,
                        r -> {
                            Thread t = new Thread(r, threadName);
                            t.setDaemon(true);
                            return t;
                        }));
    }

    /**
     * Runs {@code round} after {@code initialDelay}, then {@code interval} after each one ends; a
     * RuntimeException is logged as {@code failure} on the caller's logger and does not stop the
     * schedule.
     */
    public void every(
            Duration initialDelay, Duration interval, Runnable round, Logger log, String failure) {
        scheduler.scheduleWithFixedDelay(
                () -> {
                    try {
                        round.run();
                    } catch (RuntimeException e) {
                        log.warn(failure, e);
                    }
                },
                initialDelay.toMillis(),
                interval.toMillis(),
                TimeUnit.MILLISECONDS);
    }

    @Override
    public void close() {
        scheduler.shutdownNow();
        try {
            scheduler.awaitTermination(STOP_WAIT_SECONDS, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
