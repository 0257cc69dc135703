package io.streamledger.stack.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.streamledger.jobs.config.JobOptions;
import io.streamledger.jobs.it.CollectSink;
import io.streamledger.jobs.ledgercheck.LedgerCheckJob;
import io.streamledger.jobs.posting.PostingJob;
import io.streamledger.jobs.source.ChangeSources;
import io.streamledger.jobs.source.RawChangeSource;
import io.streamledger.jobs.source.SourceTypes;
import io.streamledger.local.kinesis.KinesisDestinationOptions;
import io.streamledger.local.kinesis.KinesisLocal;
import io.streamledger.model.ledger.BuyingPowerPolicy;
import io.streamledger.model.ledger.LedgerSchema;
import io.streamledger.model.table.Attr;
import io.streamledger.model.table.Tables;
import io.streamledger.operators.recon.BreakRecord;
import io.streamledger.sinks.posting.PostingTransactionSink;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.UUID;
import java.util.function.UnaryOperator;
import org.apache.flink.api.common.restartstrategy.RestartStrategies;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.runtime.testutils.InMemoryReporter;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * Per-account execution order end to end (CS07 applied to postings, CS04 stamp, AP13 gate): fills
 * admitted through the command service while no posting job runs, then posted from the backlog,
 * must be recorded per client account in {@code accountExecSeq} order and leave the ledger check
 * (CS11) with nothing to report on a workload that never sells short and never overdraws.
 */
class ExecutionOrderITCase {

    private static final InMemoryReporter METRICS = InMemoryReporter.createWithRetainedMetrics();

    @RegisterExtension
    static final MiniClusterExtension CLUSTER =
            new MiniClusterExtension(
                    new org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration
                                    .Builder()
                            .setConfiguration(METRICS.addToConfiguration(new Configuration()))
                            .setNumberTaskManagers(1)
                            .setNumberSlotsPerTaskManager(2)
                            .build());

    /** Fills admitted before the job starts; {@code -Dstreamledger.it.execOrder.fills} scales. */
    private static final int FILLS = Integer.getInteger("streamledger.it.execOrder.fills", 2_000);

    /**
     * Fills of the Kinesis test with three job failures ({@code
     * -Dstreamledger.it.execOrder.kinesisFills}, 2,000 for the full run): 1,000 in CI, where the
     * backlog test above keeps the ≥ 2,000 fills admitted before the job starts.
     */
    private static final int KINESIS_FILLS =
            Integer.getInteger("streamledger.it.execOrder.kinesisFills", 1_000);

    /**
     * Shards of the Kinesis test's Context CDC stream ({@code
     * -Dstreamledger.it.execOrder.kinesisShards}): its few thousand records fit a few shards (the
     * 64 of {@link PipelineITCase#KINESIS_SHARDS} are sized for its Ledger stream at scale), and
     * each shard is one more GetRecords poll per reader loop for the whole test.
     */
    private static final int KINESIS_SHARDS =
            Integer.getInteger("streamledger.it.execOrder.kinesisShards", 8);

    private static final int TENANTS = 2;
    private static final int ACCOUNTS_PER_TENANT = 8;
    private static final Duration CONVERGE =
            Duration.ofSeconds(Long.getLong("streamledger.it.execOrder.timeoutSeconds", 240));

    private LocalStack stack;

    @BeforeEach
    void reset() {
        Chaos.reset();
    }

    @AfterEach
    void stop() {
        if (stack != null) {
            stack.close();
        }
    }

    private static String prefix() {
        return "eo" + UUID.randomUUID().toString().substring(0, 6) + "-";
    }

    @Test
    void aBacklogOfFillsIsPostedInExecutionOrderWithNoBreaks() throws Exception {
        stack = new LocalStack(prefix(), true, null, true);
        Funded w = Funded.generate(11, FILLS);
        admit(w);
        runAndVerify(w, UnaryOperator.identity(), false, "eo-backlog");
    }

    @Test
    void threeJobFailuresAndADuplicatingReorderingKinesisTransportKeepExecutionOrder()
            throws Exception {
        try (KinesisLocal kinesis = KinesisLocal.start()) {
            String ctxStream = "eo-ctx-cdc-" + UUID.randomUUID().toString().substring(0, 6);
            kinesis.createStream(ctxStream, KINESIS_SHARDS);
            stack =
                    new LocalStack(
                            prefix(),
                            true,
                            KinesisDestinationOptions.builder()
                                    .kinesisEndpoint(kinesis.endpoint())
                                    .duplicateProbability(0.10)
                                    .reorderProbability(0.10)
                                    .seed(7)
                                    .build(),
                            true);
            String arn = KinesisLocal.streamArn(ctxStream);
            stack.ddb.enableKinesisStreamingDestination(
                    b -> b.tableName(stack.table(Tables.CONTEXT)).streamArn(arn));
            Funded w = Funded.generate(13, KINESIS_FILLS);
            admit(w);
            runAndVerify(
                    w,
                    conf -> {
                        // the execution-order gate's own default gap SLA covers the shard skew of
                        // a 2,000-fill catch-up (seen over 64 shards: ~100 fills parked per
                        // account, gaps open > 60 s, all released in order)
                        conf.set(JobOptions.TRANSPORT, JobOptions.TransportKind.KINESIS);
                        conf.set(JobOptions.STREAM_ARN, arn);
                        conf.set(JobOptions.KINESIS_ENDPOINT, kinesis.endpoint().toString());
                        return conf;
                    },
                    true,
                    "eo-chaos");
            var destination = stack.endpoint.streamFeatures().kinesisDestination();
            System.out.printf(
                    "kinesis destination: sent=%d duplicated=%d reordered=%d failed=%d%n",
                    destination.sentCount(),
                    destination.duplicatedCount(),
                    destination.reorderedCount(),
                    destination.failedCount());
            assertThat(destination.duplicatedCount()).isPositive();
            assertThat(destination.reorderedCount()).isPositive();
            assertThat(Chaos.FIRED).hasSize(3);
        }
    }

    private void admit(Funded w) throws Exception {
        CommandServiceInput.Result in =
                CommandServiceInput.submitInAccountOrder(
                        stack, w.orders, w.deposits, CommandServiceInput.DEFAULT_THREADS);
        System.out.println("execution-order input: " + in);
    }

    private void runAndVerify(
            Funded w, UnaryOperator<Configuration> transport, boolean chaos, String sinkPrefix)
            throws Exception {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(2);
        env.enableCheckpointing(300);
        env.setRestartStrategy(RestartStrategies.fixedDelayRestart(10, 200));

        Configuration postingConf = transport.apply(stack.configReading(Tables.CONTEXT));
        postingConf.set(JobOptions.POSTING_BACKOFF_BASE, Duration.ofMillis(5));
        RawChangeSource source = ChangeSources.fromConfig(postingConf, PostingJob.ROLE);
        long third = Math.max(10, w.fills / 3);
        RawChangeSource postingSource =
                chaos
                        ? e ->
                                source.open(e)
                                        .map(new Chaos("exec-order", third, 2 * third, 3 * third))
                                        .returns(SourceTypes.RAW_CHANGE)
                                        .uid("chaos-v1")
                        : source;
        new PostingJob(
                        postingSource,
                        new PostingJob.Sinks(
                                new PostingTransactionSink(PostingJob.settings(postingConf)),
                                new CollectSink<>(sinkPrefix + "-rejected"),
                                new CollectSink<>(sinkPrefix + "-dead"),
                                new CollectSink<>(sinkPrefix + "-gap-breaks"),
                                new CollectSink<>(sinkPrefix + "-gate-dead")),
                        postingConf)
                .build(env);

        // default overdraft policy: only SYS-/HOUSE- accounts may go negative, so a fill posted
        // before the fills that fund it is a NEGATIVE_AVAILABLE break at once. Default check
        // limits: control totals are decided as each version meets its complete transaction, the
        // deadline checks run on the Ledger stream's watermark, not on the wall clock
        Configuration checkConf = stack.configReading(Tables.LEDGER);
        // a quiet ledger shard is caught up after 3 s, so the watermark the test waits on (and
        // the deadlines, 5 min, never reached) follows the clock soon after the last posting
        checkConf.set(JobOptions.IDLE_SOURCE_TIMEOUT, Duration.ofSeconds(3));
        checkConf.set(JobOptions.WATERMARK_OUT_OF_ORDERNESS, Duration.ofSeconds(1));
        new LedgerCheckJob(
                        ChangeSources.fromConfig(checkConf, LedgerCheckJob.ROLE),
                        new CollectSink<BreakRecord>(sinkPrefix + "-ledger-breaks"),
                        new CollectSink<>(sinkPrefix + "-ledger-dead"),
                        checkConf)
                .build(env);

        long started = System.nanoTime();
        JobClient job = env.executeAsync("execution-order-it");
        try {
            long deadline = started + CONVERGE.toNanos();
            while (postedFills() < w.fills) {
                assertThat(System.nanoTime()).as("posting converged").isLessThan(deadline);
                assertThat(job.getJobStatus().get().isGloballyTerminalState()).isFalse();
                Thread.sleep(500);
            }
            Instant posted = Instant.now();
            System.out.printf(
                    "execution-order: %d fills posted in %d ms%n",
                    w.fills, (System.nanoTime() - started) / 1_000_000);
            // every ledger change was written by then: the checks have decided each version
            InputWatermarks.await(
                    METRICS,
                    job,
                    LedgerCheckJob.BREAK_SINK_NAME,
                    posted,
                    Duration.ofNanos(Math.max(deadline - System.nanoTime(), 0)).plusSeconds(60));
        } finally {
            if (!job.getJobStatus().get().isGloballyTerminalState()) {
                job.cancel().get();
            }
        }

        assertThat(CollectSink.values(sinkPrefix + "-gap-breaks")).as("gap breaks").isEmpty();
        assertThat(CollectSink.values(sinkPrefix + "-gate-dead")).as("gate dead").isEmpty();
        assertThat(CollectSink.values(sinkPrefix + "-rejected")).as("rejected").isEmpty();
        assertThat(CollectSink.values(sinkPrefix + "-dead")).as("dead letters").isEmpty();
        assertThat(CollectSink.values(sinkPrefix + "-ledger-dead")).as("ledger dead").isEmpty();
        List<BreakRecord> breaks =
                new ArrayList<>(CollectSink.<BreakRecord>values(sinkPrefix + "-ledger-breaks"));
        assertThat(breaks).as(breaks.toString()).isEmpty();
        assertRecordedInExecutionOrder(w);
    }

    /** TradeExecuted receipts in the Inbox: one per posted fill. */
    private long postedFills() {
        return stack.scan(stack.table(Tables.INBOX)).size();
    }

    /**
     * Per client account: its fill postings ordered by the account-month posting {@code sequence}
     * must carry {@code accountExecSeq} 1, 2, … n (and executedAt never decreases).
     */
    private void assertRecordedInExecutionOrder(Funded w) {
        Map<String, Long> seqByEvent = new HashMap<>();
        Map<String, Instant> atByEvent = new HashMap<>();
        for (Map<String, AttributeValue> item : stack.scan(stack.table(Tables.CONTEXT))) {
            AttributeValue type = item.get(Attr.EVENT_TYPE);
            if (type == null || !"TradeExecuted".equals(type.s())) {
                continue;
            }
            Map<String, AttributeValue> p = item.get(Attr.PAYLOAD).m();
            String eventId = item.get(Attr.EVENT_ID).s();
            seqByEvent.put(eventId, Long.parseLong(p.get(Attr.ACCOUNT_EXEC_SEQ).n()));
            atByEvent.put(eventId, Instant.parse(p.get("executedAt").s()));
        }
        assertThat(seqByEvent).hasSize(w.fills);

        // tenant/account → posting sequence → eventId (client accounts, fill postings only)
        Map<String, TreeMap<Long, String>> recorded = new TreeMap<>();
        for (Map<String, AttributeValue> item : stack.scan(stack.table(Tables.LEDGER))) {
            if (!LedgerSchema.isPosting(item.get(Attr.SK).s())) {
                continue;
            }
            String account = item.get(LedgerSchema.ACCOUNT).s();
            AttributeValue eventId = item.get(LedgerSchema.EVENT_ID);
            if (!account.startsWith("ACC-")
                    || eventId == null
                    || !seqByEvent.containsKey(eventId.s())) {
                continue;
            }
            String key = item.get(LedgerSchema.TENANT).s() + "/" + account;
            long sequence = Long.parseLong(item.get(LedgerSchema.SEQUENCE).n());
            recorded.computeIfAbsent(key, k -> new TreeMap<>())
                    .merge(sequence, eventId.s(), (a, b) -> a);
        }
        assertThat(recorded).hasSize(w.accountFills.size());
        recorded.forEach(
                (account, bySequence) -> {
                    List<Long> execSeqs = new ArrayList<>();
                    Instant last = Instant.MIN;
                    for (String eventId : bySequence.values()) {
                        long s = seqByEvent.get(eventId);
                        if (execSeqs.isEmpty() || execSeqs.get(execSeqs.size() - 1) != s) {
                            execSeqs.add(s);
                        }
                        Instant at = atByEvent.get(eventId);
                        assertThat(at).as(account + " executedAt order").isAfterOrEqualTo(last);
                        last = at;
                    }
                    List<Long> expected = new ArrayList<>();
                    for (long s = 1; s <= w.accountFills.get(account); s++) {
                        expected.add(s);
                    }
                    assertThat(execSeqs).as(account + " recorded order").isEqualTo(expected);
                });
    }

    /**
     * A workload that never sells short and never overdraws: each account is funded by a deposit
     * covering all its buys and fees plus its largest open buying-power hold, and sells at most the
     * position its earlier fills built — admitted before any of them is posted, since admission
     * counts admitted but unposted fills as the authority's pending (AP12).
     */
    static final class Funded {
        final List<Workload.Order> orders = new ArrayList<>();
        final Map<String, BigDecimal> deposits = new HashMap<>();
        final Map<String, Long> accountFills = new HashMap<>();
        int fills;

        static Funded generate(long seed, int minFills) {
            Funded w = new Funded();
            Random r = new Random(seed);
            Instant t0 = Instant.parse("2026-11-30T09:00:00Z");
            Map<String, BigDecimal> position = new HashMap<>();
            Map<String, BigDecimal> spend = new HashMap<>();
            Map<String, BigDecimal> maxHold = new HashMap<>();
            List<String> symbols = List.of("NVDA", "AAPL", "MSFT");
            int o = 0;
            while (w.fills < minFills) {
                String tenant = "t" + (o % TENANTS);
                String account = "ACC-" + ((o / TENANTS) % ACCOUNTS_PER_TENANT);
                String key = tenant + "/" + account;
                String symbol = symbols.get(r.nextInt(symbols.size()));
                String posKey = key + "/" + symbol;
                BigDecimal held = position.getOrDefault(posKey, BigDecimal.ZERO);
                boolean buy = held.signum() == 0 || r.nextInt(5) < 3;
                String orderId = "o-" + seed + "-" + o;
                int n = 1 + r.nextInt(3);
                List<Workload.Fill> fills = new ArrayList<>();
                BigDecimal qtySum = BigDecimal.ZERO;
                for (int i = 0; i < n; i++) {
                    BigDecimal qty;
                    if (buy) {
                        qty = BigDecimal.valueOf(1 + r.nextInt(200));
                    } else {
                        BigDecimal left = held.subtract(qtySum);
                        if (left.signum() <= 0) {
                            break;
                        }
                        qty = left.min(BigDecimal.valueOf(1 + r.nextInt(150)));
                    }
                    BigDecimal price = BigDecimal.valueOf(100 + r.nextInt(5_000), 2);
                    BigDecimal fee = BigDecimal.valueOf(r.nextInt(100), 2);
                    Instant at = t0.plusMillis(o * 1_000L + i * 10L);
                    fills.add(
                            new Workload.Fill(
                                    Workload.tradeExecuted(
                                            tenant, account, symbol, buy, qty, price, fee, orderId,
                                            i, at),
                                    tenant,
                                    account,
                                    symbol,
                                    buy,
                                    qty,
                                    price,
                                    fee));
                    qtySum = qtySum.add(qty);
                    BigDecimal consideration =
                            price.multiply(qty).setScale(2, RoundingMode.HALF_EVEN);
                    spend.merge(
                            key, (buy ? consideration : BigDecimal.ZERO).add(fee), BigDecimal::add);
                }
                if (buy) {
                    // admission holds the order's limit notional + fee estimate (the limit is
                    // its highest fill price, as CommandServiceInput places it) until it completes
                    BigDecimal limit =
                            fills.stream()
                                    .map(Workload.Fill::price)
                                    .reduce(BigDecimal::max)
                                    .orElseThrow();
                    maxHold.merge(
                            key,
                            BuyingPowerPolicy.DEFAULT.buyReservation(limit, qtySum, "USD"),
                            BigDecimal::max);
                }
                position.put(posKey, buy ? held.add(qtySum) : held.subtract(qtySum));
                w.orders.add(
                        new Workload.Order(
                                orderId, tenant, account, symbol, buy, qtySum, List.copyOf(fills)));
                w.fills += fills.size();
                w.accountFills.merge(key, (long) fills.size(), Long::sum);
                o++;
            }
            // a fill's cost leaves available at its admission (pending out) and the next order's
            // hold needs cover on top: the deposit covers every spend plus the largest hold
            spend.forEach(
                    (k, v) ->
                            w.deposits.put(
                                    k,
                                    v.add(maxHold.getOrDefault(k, BigDecimal.ZERO))
                                            .add(new BigDecimal("1000.00"))));
            return w;
        }
    }
}
