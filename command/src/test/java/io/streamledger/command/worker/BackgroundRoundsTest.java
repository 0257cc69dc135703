package io.streamledger.command.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/** The background schedule of the AP16 relay and AP18 repair worker (CS02/CS03). */
class BackgroundRoundsTest {

    @Test
    void aFailedRoundIsLoggedAndTheNextRoundStillRuns() throws InterruptedException {
        AtomicInteger calls = new AtomicInteger();
        CountDownLatch thirdRound = new CountDownLatch(3);
        AtomicReference<Thread> thread = new AtomicReference<>();
        try (BackgroundRounds rounds = BackgroundRounds.start("rounds-test", 1)) {
            rounds.every(
                    Duration.ZERO,
                    Duration.ofMillis(1),
                    () -> {
                        thread.set(Thread.currentThread());
                        calls.incrementAndGet();
                        thirdRound.countDown();
                        throw new IllegalStateException("round fails on purpose");
                    },
                    LoggerFactory.getLogger(BackgroundRoundsTest.class),
                    "test round failed; next round retries");
            assertTrue(thirdRound.await(30, TimeUnit.SECONDS), "rounds stopped after a failure");
        }
        assertEquals("rounds-test", thread.get().getName());
        assertTrue(thread.get().isDaemon());
        int afterClose = calls.get();
        thread.get().join(TimeUnit.SECONDS.toMillis(10));
        assertEquals(afterClose, calls.get(), "a round ran after close()");
    }
}
