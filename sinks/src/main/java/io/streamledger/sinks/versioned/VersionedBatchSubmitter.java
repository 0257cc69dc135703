package io.streamledger.sinks.versioned;

import io.streamledger.aws.error.DynamoDbErrorClassifier;
import io.streamledger.aws.error.ErrorClass;
import io.streamledger.aws.retry.RetryPolicy;
import io.streamledger.sinks.client.ItemWriteClient;
import io.streamledger.sinks.error.VersionedSinkException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.flink.connector.base.sink.writer.ResultHandler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sends one flush of versioned writes (seed CS06/AP13): coalesce per item, issue guarded
 * single-item calls with bounded concurrency, count conditional failures as stale, and hand back
 * only the retryable remainder after a jittered backoff; any fatal error fails the request.
 */
public final class VersionedBatchSubmitter implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(VersionedBatchSubmitter.class);

    private final ItemWriteClient client;
    private final ItemRequestFactory requests;
    private final VersionedSinkMetrics metrics;
    private final RetryPolicy backoff;
    private final int maxConcurrentWrites;
    private final int maxRetries;
    private final ScheduledExecutorService retryTimer;

    public VersionedBatchSubmitter(
            ItemWriteClient client, VersionedSinkSettings settings, VersionedSinkMetrics metrics) {
        this.client = client;
        this.requests = new ItemRequestFactory(settings.guard(), settings.consumedCapacity());
        this.metrics = metrics;
        this.backoff =
                RetryPolicy.halfJitter(
                        settings.maxRetries() + 1,
                        Duration.ofMillis(settings.retryBaseDelayMillis()),
                        Duration.ofMillis(settings.retryMaxDelayMillis()));
        this.maxConcurrentWrites = settings.maxConcurrentWritesPerBatch();
        this.maxRetries = settings.maxRetries();
        this.retryTimer =
                Executors.newSingleThreadScheduledExecutor(
                        r -> {
                            Thread t = new Thread(r, "versioned-dynamodb-sink-retry");
                            t.setDaemon(true);
                            return t;
                        });
    }

    /** Sends {@code batch}; reports through {@code handler} exactly once. */
    public void submit(List<VersionedWrite> batch, ResultHandler<VersionedWrite> handler) {
        WriteCoalescer.Result coalesced =
                WriteCoalescer.coalesce(batch, requests.guard().strategy());
        metrics.coalesced(coalesced.superseded());
        new Round(coalesced.writes(), handler).drain();
    }

    @Override
    public void close() {
        retryTimer.shutdownNow();
        client.close();
    }

    private CompletableFuture<Double> send(VersionedWrite write) {
        try {
            if (requests.guard().strategy() == GuardStrategy.CREATE_ONCE) {
                return client.putItem(requests.putItem(write));
            }
            return client.updateItem(requests.updateItem(write));
        } catch (RuntimeException e) {
            // a request we cannot even build (bad key, reserved attribute) is fatal by the
            // classifier
            return CompletableFuture.failedFuture(e);
        }
    }

    /** One pass over a coalesced batch; at most {@code maxConcurrentWrites} calls at a time. */
    private final class Round {
        private final List<VersionedWrite> writes;
        private final ResultHandler<VersionedWrite> handler;
        private final double[] units;
        private final Throwable[] errors;
        private final AtomicInteger active = new AtomicInteger();
        private final AtomicInteger finished = new AtomicInteger();
        private final AtomicInteger work = new AtomicInteger();
        private int next; // guarded by the work counter: only the draining thread touches it

        Round(List<VersionedWrite> writes, ResultHandler<VersionedWrite> handler) {
            this.writes = writes;
            this.handler = handler;
            this.units = new double[writes.size()];
            this.errors = new Throwable[writes.size()];
        }

        /** Starts calls while lanes are free; re-entrant calls just ask the drainer to loop. */
        void drain() {
            if (writes.isEmpty()) {
                handler.complete();
                return;
            }
            if (work.getAndIncrement() != 0) {
                return;
            }
            do {
                while (next < writes.size() && active.get() < maxConcurrentWrites) {
                    int index = next++;
                    active.incrementAndGet();
                    send(writes.get(index)).whenComplete((u, err) -> onResult(index, u, err));
                }
            } while (work.decrementAndGet() != 0);
        }

        private void onResult(int index, Double writeUnits, Throwable err) {
            if (err != null) {
                errors[index] = err;
            } else {
                units[index] = writeUnits == null ? 0.0 : writeUnits;
            }
            active.decrementAndGet();
            if (finished.incrementAndGet() == writes.size()) {
                settle();
            } else {
                drain();
            }
        }

        private void settle() {
            List<VersionedWrite> retry = new ArrayList<>();
            Throwable fatal = null;
            VersionedWrite fatalWrite = null;
            int fatalCount = 0;
            for (int i = 0; i < writes.size(); i++) {
                Throwable err = errors[i];
                if (err == null) {
                    metrics.applied(units[i]);
                    continue;
                }
                ErrorClass outcome = DynamoDbErrorClassifier.classify(err);
                switch (outcome) {
                    case CONDITION_FAILED:
                        metrics.stale();
                        break;
                    case RETRYABLE:
                        retry.add(writes.get(i).nextAttempt());
                        break;
                    default:
                        fatalCount++;
                        if (fatal == null) {
                            fatal = DynamoDbErrorClassifier.unwrap(err);
                            fatalWrite = writes.get(i);
                        }
                }
            }
            if (fatal != null) {
                metrics.fatal(fatalCount);
                handler.completeExceptionally(
                        new VersionedSinkException(
                                "fatal DynamoDB error for "
                                        + fatalWrite
                                        + " ("
                                        + fatalCount
                                        + " fatal in this flush): "
                                        + DynamoDbErrorClassifier.describe(fatal),
                                fatal));
                return;
            }
            if (retry.isEmpty()) {
                handler.complete();
                return;
            }
            int attempt = retry.stream().mapToInt(VersionedWrite::attempt).max().orElse(1);
            if (attempt > maxRetries) {
                metrics.fatal(retry.size());
                Throwable last = firstRetryableError();
                handler.completeExceptionally(
                        new VersionedSinkException(
                                "gave up on "
                                        + retry.size()
                                        + " writes after "
                                        + maxRetries
                                        + " retries; last error: "
                                        + DynamoDbErrorClassifier.describe(last),
                                DynamoDbErrorClassifier.unwrap(last)));
                return;
            }
            metrics.retries(retry.size());
            long delay = backoff.delayMillis(attempt);
            LOG.debug("retrying {} of {} writes in {} ms", retry.size(), writes.size(), delay);
            try {
                retryTimer.schedule(
                        () -> handler.retryForEntries(retry), delay, TimeUnit.MILLISECONDS);
            } catch (RejectedExecutionException closed) {
                // the writer is closing; the entries come back from the last checkpoint on restart
                LOG.debug("writer closed; dropping retry of {} writes", retry.size());
            }
        }

        private Throwable firstRetryableError() {
            for (Throwable err : errors) {
                if (err != null) {
                    return err;
                }
            }
            throw new IllegalStateException("no error recorded for a retried write");
        }
    }
}
