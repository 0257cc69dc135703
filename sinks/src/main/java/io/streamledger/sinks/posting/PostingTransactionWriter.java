package io.streamledger.sinks.posting;

import io.streamledger.aws.error.ErrorClass;
import io.streamledger.aws.error.RecordFailurePolicy;
import io.streamledger.aws.ledger.LedgerItemCodec;
import io.streamledger.aws.metrics.ApTag;
import io.streamledger.aws.metrics.DynamoDbMetricsRecorder;
import io.streamledger.aws.retry.RetryPolicy;
import io.streamledger.aws.retry.Retrying;
import io.streamledger.aws.shard.ShardMapCache;
import io.streamledger.aws.shard.ShardMapStore;
import io.streamledger.model.deadletter.DeadLetterReason;
import io.streamledger.model.keys.MonthCounterKey;
import io.streamledger.model.ledger.LedgerSchema;
import io.streamledger.model.ledger.PostingSequence;
import io.streamledger.operators.posting.PostingLane;
import io.streamledger.operators.posting.PostingOutcome;
import io.streamledger.operators.posting.PostingPlan;
import io.streamledger.operators.posting.PostingRejectedException;
import io.streamledger.operators.posting.PostingState;
import io.streamledger.operators.posting.PostingStatus;
import io.streamledger.operators.posting.PostingTransactionPlan;
import io.streamledger.operators.posting.TradeFill;
import io.streamledger.sinks.metrics.FlinkMetricsBackend;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.time.YearMonth;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import org.apache.flink.api.connector.sink2.SinkWriter;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.MetricGroup;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BatchGetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.BatchGetItemResponse;
import software.amazon.awssdk.services.dynamodb.model.KeysAndAttributes;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItemsRequest;
import software.amazon.awssdk.services.dynamodb.model.TransactionCanceledException;

/**
 * Writes posting transactions (AP09 + AP10 + AP12) in lane order: the fills of one {@link
 * PostingLane} (tenant + house shard of the client account) run one after another (per-lane tail
 * future), different lanes concurrently up to {@code capacity}. Every item a fill writes belongs to
 * its client account or its lane's house sub-accounts, so two fills in flight never write the same
 * item and a client's sequence numbers follow arrival order.
 *
 * <p>{@link #flush} (called before every checkpoint barrier and at end of input) waits for every
 * fill in flight, so a checkpoint never completes with an unwritten posting; a failure is rethrown
 * there or at the next {@link #write} and fails the job, whose restart replays the fill safely (the
 * receipt keeps it once).
 *
 * <p>One record never stops the job ({@link RecordFailurePolicy}): a fill rejected only once the
 * counters are known (account-month full, transaction too large) and a fill still failing
 * transiently after {@code maxAttempts} are written by the writer itself, in the fill's lane, as a
 * dead letter (+ a break for a rejection) through {@link PostingRejections}; only a fatal failure,
 * a broken invariant or a dead letter that cannot be written fails the job.
 *
 * <p>Counters: being the only writer of a lane, the writer remembers the counters it committed
 * ({@link CounterCache}) and skips the consistent read for them; the compare-and-set still guards
 * every write, and any failed attempt drops the entries. Errors are decided by {@link
 * PostingErrors}.
 */
final class PostingTransactionWriter implements SinkWriter<TradeFill> {
    /** The lane of the posting transaction and its counter reads (L10, AMP07). */
    private static final String AP = "AP10";

    private static final Logger LOG = LoggerFactory.getLogger(PostingTransactionWriter.class);

    private final PostingSettings settings;
    private final PostingOutcomeListener listener;
    private final DynamoDbAsyncClient client;
    // the receipt's shard-map version comes from the durable state, cached (AP09 reshard)
    private final DynamoDbClient mapClient;
    private final ShardMapCache inboxMaps;
    private final RetryPolicy backoff;
    private final Map<String, CompletableFuture<Void>> tails = new ConcurrentHashMap<>();
    private final Set<CompletableFuture<Void>> inFlight = ConcurrentHashMap.newKeySet();
    private final Semaphore permits;
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    private final CounterCache counterCache = new CounterCache(CounterCache.DEFAULT_MAX_ENTRIES);
    private final Counter applied;
    private final Counter duplicates;
    private final Counter retries;
    private final Map<PostingRetryCause, Counter> retriesByCause =
            new EnumMap<>(PostingRetryCause.class);
    private final DynamoDbMetricsRecorder recorder;
    private final Counter conflicts;
    private final Counter failures;
    private final Counter counterReads;
    private final Counter quarantined;
    private final Counter replayed;
    private final Counter replayDuplicates;
    private final Counter replayFailed;
    private final MetricGroup group;
    private final Map<String, Counter> rejectedByCode = new ConcurrentHashMap<>();
    private final Map<DeadLetterReason, Counter> deadLettered = new ConcurrentHashMap<>();
    // rejections and quarantines are rare: one thread writes their dead letters and breaks
    private final ExecutorService setAside =
            Executors.newSingleThreadExecutor(
                    r -> {
                        Thread t = new Thread(r, "posting-set-aside");
                        t.setDaemon(true);
                        return t;
                    });
    private volatile DynamoDbClient setAsideClient;
    private final Retrying setAsideRetrying;

    PostingTransactionWriter(
            PostingSettings settings, PostingOutcomeListener listener, MetricGroup metrics) {
        this.settings = settings;
        this.listener = listener;
        this.recorder = FlinkMetricsBackend.recorder(metrics);
        this.client =
                settings.client().buildAsyncClient(Math.max(8, settings.capacity()), recorder);
        this.mapClient = settings.client().buildSyncClient(recorder);
        this.inboxMaps =
                ShardMapCache.of(
                        ShardMapStore.inbox(mapClient, settings.inboxTable()),
                        settings.shardMapRefresh());
        inboxMaps.current(); // the first read here, not on an SDK thread
        this.backoff =
                RetryPolicy.halfJitter(
                        settings.maxAttempts(),
                        Duration.ofMillis(Math.max(1, settings.backoffBase().toMillis())),
                        Duration.ofMillis(Math.max(1, settings.backoffMax().toMillis())));
        this.permits = new Semaphore(settings.capacity());
        this.setAsideRetrying = new Retrying(backoff);
        MetricGroup g = metrics.addGroup(PostingState.METRIC_GROUP);
        this.group = g;
        applied = g.counter("applied");
        duplicates = g.counter("duplicates");
        retries = g.counter("retries");
        for (PostingRetryCause c : PostingRetryCause.values()) {
            retriesByCause.put(c, g.counter(c.flinkCounter()));
        }
        conflicts = g.counter("conflicts");
        failures = g.counter("failures");
        counterReads = g.counter("counterReads");
        quarantined = g.counter("quarantined");
        replayed = g.counter("replayed");
        replayDuplicates = g.counter("replayDuplicates");
        replayFailed = g.counter("replayFailed");
        g.gauge("inFlight", inFlight::size);
    }

    @Override
    public void write(TradeFill fill, Context context) throws IOException, InterruptedException {
        rethrowFailure();
        permits.acquire(); // capacity bound: back-pressure instead of an unbounded queue
        String lane = PostingLane.of(settings.rules().house(), fill);
        CompletableFuture<Void> mine = new CompletableFuture<>();
        inFlight.add(mine);
        CompletableFuture<Void> previous = tails.put(lane, mine);
        Runnable start =
                () ->
                        postSafely(fill)
                                .thenCompose(outcome -> settleReplay(fill, outcome))
                                .orTimeout(settings.timeout().toMillis(), TimeUnit.MILLISECONDS)
                                .whenComplete(
                                        (outcome, error) -> {
                                            tails.remove(lane, mine);
                                            if (error != null) {
                                                failures.inc();
                                                failure.compareAndSet(
                                                        null, describeFailure(fill, error));
                                            } else {
                                                listener.onOutcome(outcome);
                                            }
                                            permits.release();
                                            inFlight.remove(mine);
                                            mine.complete(null);
                                        });
        if (previous == null) {
            start.run();
        } else {
            previous.thenRun(start); // the previous fill of this lane first, whatever its outcome
        }
    }

    @Override
    public void flush(boolean endOfInput) throws IOException {
        CompletableFuture.allOf(inFlight.toArray(CompletableFuture[]::new)).join();
        rethrowFailure();
    }

    @Override
    public void close() {
        setAside.shutdownNow();
        inboxMaps.close();
        mapClient.close();
        client.close();
        if (setAsideClient != null) {
            setAsideClient.close();
        }
    }

    private void rethrowFailure() throws IOException {
        Throwable t = failure.get();
        if (t != null) {
            throw new IOException(t.getMessage(), t);
        }
    }

    private Throwable describeFailure(TradeFill fill, Throwable error) {
        Throwable t = PostingErrors.unwrap(error);
        if (t instanceof TimeoutException) {
            return new TimeoutException(
                    "fill "
                            + fill.getEventId()
                            + " not posted within "
                            + settings.timeout()
                            + "; the job restarts and replays it (the receipt keeps it once)");
        }
        return t;
    }

    /** {@link #post}, with a synchronous defect turned into a failed future (never lost). */
    private CompletableFuture<PostingOutcome> postSafely(TradeFill fill) {
        try {
            return post(fill);
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    /** Plans and writes one fill; completes with its outcome. */
    CompletableFuture<PostingOutcome> post(TradeFill fill) {
        // the guard before the sink already rejected what the rules reject
        return attempt(fill, settings.rules().plan(fill), 1);
    }

    private CompletableFuture<PostingOutcome> attempt(TradeFill fill, PostingPlan plan, int n) {
        YearMonth month = PostingTransactionPlan.month(plan.effectiveAt());
        List<String> accounts = PostingTransactionPlan.accounts(plan);
        AtomicReference<PostingTransactionPlan> planned = new AtomicReference<>();
        Map<String, PostingSequence.Counter> known =
                counterCache.getAll(plan.tenant(), month, accounts);
        return (known != null
                        ? CompletableFuture.completedFuture(known)
                        : counters(plan.tenant(), accounts, month))
                .thenCompose(
                        counters -> {
                            PostingTransactionPlan tx = plan(fill, plan, counters);
                            planned.set(tx);
                            return client.transactWriteItems(
                                            ApTag.on(TransactWriteItemsRequest.builder(), AP)
                                                    .transactItems(encode(tx))
                                                    .build())
                                    .thenApply(ok -> tx);
                        })
                .handle(
                        (tx, error) -> {
                            if (error == null) {
                                counterCache.putAll(plan.tenant(), month, tx.nextCounters());
                                applied.inc();
                                return CompletableFuture.completedFuture(
                                        outcome(
                                                fill,
                                                plan.txnId(),
                                                PostingStatus.APPLIED,
                                                n,
                                                plan.lines().size()));
                            }
                            // whatever happened, the remembered counters may be wrong now
                            counterCache.removeAll(plan.tenant(), month, accounts);
                            return onError(fill, plan, planned.get(), known != null, n, error);
                        })
                .thenCompose(f -> f);
    }

    private CompletableFuture<PostingOutcome> onError(
            TradeFill fill,
            PostingPlan plan,
            PostingTransactionPlan tx,
            boolean countersCached,
            int n,
            Throwable error) {
        Throwable t = PostingErrors.unwrap(error);
        if (t instanceof PostingRejectedException rejection) {
            return reject(fill, rejection);
        }
        PostingErrors.Verdict verdict =
                tx == null
                        ? (PostingErrors.retryable(t)
                                ? PostingErrors.Verdict.RETRY
                                : PostingErrors.Verdict.FATAL)
                        : PostingErrors.classify(tx, t);
        switch (verdict) {
            case DUPLICATE -> {
                duplicates.inc();
                return CompletableFuture.completedFuture(
                        outcome(fill, plan.txnId(), PostingStatus.DUPLICATE, n, 0));
            }
            case POSTING_EXISTS -> {
                // a posting row of this txn exists without its receipt: never written so
                return CompletableFuture.failedFuture(
                        new IllegalStateException(
                                "a posting line of txn "
                                        + plan.txnId()
                                        + " exists but receipt of event "
                                        + fill.getEventId()
                                        + " does not"));
            }
            case FATAL -> {
                return CompletableFuture.failedFuture(t);
            }
            case COUNTER_CONFLICT -> conflicts.inc(); // another writer moved a counter
            case RETRY -> {}
        }
        if (n >= settings.maxAttempts()) {
            ErrorClass last =
                    verdict == PostingErrors.Verdict.RETRY
                            ? ErrorClass.RETRYABLE
                            : ErrorClass.CONDITION_FAILED;
            return RecordFailurePolicy.afterRetries(last) == RecordFailurePolicy.Action.QUARANTINE
                    ? quarantine(fill, plan.txnId(), t, n)
                    : CompletableFuture.failedFuture(t);
        }
        retries.inc();
        PostingRetryCause cause = PostingErrors.cause(tx, t, countersCached);
        retriesByCause.get(cause).inc();
        recorder.retry(AP, cause.metricName());
        if (LOG.isDebugEnabled()) {
            LOG.debug(
                    "posting retry {} of event {} (lane {}, attempt {}): {} on {}",
                    cause,
                    fill.getEventId(),
                    PostingLane.of(settings.rules().house(), fill),
                    n,
                    PostingErrors.describe(t),
                    t instanceof TransactionCanceledException tce && tce.hasCancellationReasons()
                            ? PostingErrors.failedItem(tx, tce.cancellationReasons())
                            : null);
        }
        // a stale remembered counter is a finished write of another writer: re-read at once
        long delay = cause == PostingRetryCause.COUNTER_CACHE_STALE ? 0 : backoff.delayMillis(n);
        return CompletableFuture.supplyAsync(
                        () -> null, CompletableFuture.delayedExecutor(delay, TimeUnit.MILLISECONDS))
                .thenCompose(x -> attempt(fill, plan, n + 1));
    }

    /** A business rejection found after reading the counters: dead letter + break, no write. */
    private CompletableFuture<PostingOutcome> reject(
            TradeFill fill, PostingRejectedException rejection) {
        PostingOutcome o =
                PostingOutcome.rejected(fill, rejection.getMessage(), System.currentTimeMillis());
        PostingRejections r = settings.rejections();
        return setAside(
                () -> {
                    r.write(
                            setAsideClient(),
                            setAsideRetrying,
                            r.deadLetter(o, PostingState.SINK_UID),
                            r.breakOf(o));
                    rejectedByCode
                            .computeIfAbsent(
                                    rejection.reason().name(), c -> group.counter("rejected." + c))
                            .inc();
                    count(DeadLetterReason.REJECTED_FILL);
                    return o;
                });
    }

    /** A fill still failing after its budget: QUARANTINED dead letter, the lane goes on. */
    private CompletableFuture<PostingOutcome> quarantine(
            TradeFill fill, String txnId, Throwable error, int attempts) {
        long now = System.currentTimeMillis();
        PostingRejections r = settings.rejections();
        return setAside(
                () -> {
                    r.write(
                            setAsideClient(),
                            setAsideRetrying,
                            r.quarantined(fill, PostingState.SINK_UID, error, attempts, now),
                            null);
                    quarantined.inc();
                    count(DeadLetterReason.QUARANTINED);
                    PostingOutcome o = outcome(fill, txnId, PostingStatus.QUARANTINED, attempts, 0);
                    o.setReason(PostingErrors.describe(error));
                    return o;
                });
    }

    /**
     * A replayed fill that posted, or had been posted already (a counted no-op at its receipt),
     * marks its dead-letter entry REPLAYED; one set aside again sends it back to OPEN, with one
     * more attempt unless it was set aside on that same entry (whose upsert counted it).
     */
    private CompletableFuture<PostingOutcome> settleReplay(TradeFill fill, PostingOutcome o) {
        if (!fill.isReplay()) {
            return CompletableFuture.completedFuture(o);
        }
        boolean posted =
                o.getStatus() == PostingStatus.APPLIED || o.getStatus() == PostingStatus.DUPLICATE;
        PostingRejections r = settings.rejections();
        return setAside(
                () -> {
                    r.settleReplay(
                            setAsideClient(),
                            setAsideRetrying,
                            fill.getReplayOf(),
                            fill.getReplayVersion(),
                            posted,
                            !posted
                                    && PostingRejections.sameEntry(
                                            fill.getReplayOf(),
                                            r.key(
                                                    fill.getTenant(),
                                                    fill.getEventId(),
                                                    o.getStatus() == PostingStatus.QUARANTINED
                                                            ? DeadLetterReason.QUARANTINED
                                                            : DeadLetterReason.REJECTED_FILL)),
                            posted ? o.getStatus().name() : o.getReason());
                    (posted
                                    ? o.getStatus() == PostingStatus.APPLIED
                                            ? replayed
                                            : replayDuplicates
                                    : replayFailed)
                            .inc();
                    return o;
                });
    }

    /** Runs a dead-letter write off the SDK threads; its failure fails the job (policy). */
    private CompletableFuture<PostingOutcome> setAside(Supplier<PostingOutcome> write) {
        return CompletableFuture.supplyAsync(write, setAside);
    }

    private void count(DeadLetterReason reason) {
        deadLettered.computeIfAbsent(reason, k -> group.counter("deadLettered." + k.name())).inc();
    }

    private DynamoDbClient setAsideClient() {
        if (setAsideClient == null) { // only the set-aside thread gets here
            setAsideClient = settings.client().buildSyncClient();
        }
        return setAsideClient;
    }

    private PostingTransactionPlan plan(
            TradeFill fill, PostingPlan plan, Map<String, PostingSequence.Counter> counters) {
        return PostingTransactionPlan.build(
                fill,
                plan,
                counters,
                new PostingTransactionPlan.ReceiptPolicy(
                        settings.consumer(), settings.receiptRetention()),
                Instant.now().truncatedTo(ChronoUnit.MILLIS),
                (p, line, eventId, at) ->
                        LedgerItemCodec.postingBytes(LedgerItems.posting(p, line, eventId, at)),
                settings.monthLimit(),
                inboxMaps.current());
    }

    /** The SDK items of {@code tx}, in its order. */
    List<TransactWriteItem> encode(PostingTransactionPlan tx) {
        return LedgerItems.encode(tx, settings.ledgerTable(), settings.inboxTable());
    }

    /** The counters of {@code accounts}, by one consistent read. */
    private CompletableFuture<Map<String, PostingSequence.Counter>> counters(
            String tenant, List<String> accounts, YearMonth month) {
        counterReads.inc();
        List<Map<String, AttributeValue>> keys = new ArrayList<>();
        for (String a : accounts) {
            keys.add(LedgerItemCodec.key(new MonthCounterKey(tenant, a, month)));
        }
        BatchGetItemRequest req =
                ApTag.on(BatchGetItemRequest.builder(), AP)
                        .requestItems(
                                Map.of(
                                        settings.ledgerTable(),
                                        KeysAndAttributes.builder()
                                                .keys(keys)
                                                .consistentRead(true)
                                                .build()))
                        .build();
        return client.batchGetItem(req).thenApply(resp -> counters(resp, accounts));
    }

    private Map<String, PostingSequence.Counter> counters(
            BatchGetItemResponse resp, List<String> accounts) {
        if (resp.hasUnprocessedKeys() && !resp.unprocessedKeys().isEmpty()) {
            throw new PostingErrors.CounterReadThrottled();
        }
        Map<String, PostingSequence.Counter> out = new LinkedHashMap<>();
        for (String a : accounts) {
            out.put(a, PostingSequence.Counter.EMPTY);
        }
        for (Map<String, AttributeValue> item :
                resp.responses().getOrDefault(settings.ledgerTable(), List.of())) {
            out.put(item.get(LedgerSchema.ACCOUNT).s(), LedgerItemCodec.counterFrom(item));
        }
        return out;
    }

    private static PostingOutcome outcome(
            TradeFill fill, String txnId, PostingStatus status, int attempts, int lines) {
        return new PostingOutcome(
                fill.getEventId(),
                txnId,
                fill.getTenant(),
                fill.getAccountId(),
                status,
                null,
                attempts,
                lines,
                System.currentTimeMillis());
    }
}
