package io.streamledger.stack.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.streamledger.aws.shard.Reshard;
import io.streamledger.aws.shard.ReshardReport;
import io.streamledger.jobs.config.JobOptions;
import io.streamledger.jobs.it.CollectSink;
import io.streamledger.jobs.posting.PostingJob;
import io.streamledger.jobs.projection.DynamoDbProjectionSinks;
import io.streamledger.jobs.projection.ProjectionJob;
import io.streamledger.jobs.projection.ProjectionSinks;
import io.streamledger.jobs.source.ChangeSources;
import io.streamledger.model.change.OutboxEvent;
import io.streamledger.model.change.OutboxEventCodec;
import io.streamledger.model.keys.AuthorityKey;
import io.streamledger.model.ledger.LedgerSchema;
import io.streamledger.model.projection.ProjectionSchema;
import io.streamledger.model.shard.ShardMap;
import io.streamledger.model.shard.ShardMapState;
import io.streamledger.model.table.Attr;
import io.streamledger.model.table.Tables;
import io.streamledger.operators.gate.GapBreak;
import io.streamledger.operators.posting.PostingOutcome;
import io.streamledger.operators.posting.PostingStatus;
import io.streamledger.operators.projection.AuthorityChanges;
import io.streamledger.sinks.posting.PostingTransactionSink;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.flink.api.common.restartstrategy.RestartStrategies;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * The seed's reshard procedure under traffic (AP09 + AP13): the posting inbox goes from 13 to 17
 * shards and the projection checkpoints from 7 to 11 while fills are admitted and earlier fills are
 * re-delivered (re-inserted outbox items) before, across and after the admission watermark and the
 * cutover. Every fill has exactly one receipt under the version its admission time selects, every
 * re-delivery is a counted no-op, client authorities equal an oracle over the distinct fills, and
 * every authority's checkpoint under the new map is at the authority's version with no open gap.
 * Size: {@code -Dstreamledger.it.reshard.fills} (default 150).
 */
class ReshardITCase {

    @RegisterExtension
    static final MiniClusterExtension CLUSTER =
            new MiniClusterExtension(
                    new org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration
                                    .Builder()
                            .setNumberTaskManagers(1)
                            .setNumberSlotsPerTaskManager(2)
                            .build());

    private static final int FILLS = Integer.getInteger("streamledger.it.reshard.fills", 150);
    private static final Duration REFRESH = Duration.ofMillis(200);
    private static final Duration LEAD = Duration.ofSeconds(1); // > 3 x REFRESH
    private static final Duration SETTLE = Duration.ofMillis(1500);
    private static final String OUTCOMES = "reshard-outcomes";

    private LocalStack stack;
    private final Random random = new Random(7);
    private final List<OutboxEvent> admitted = new ArrayList<>();
    private final Map<String, BigDecimal> secOracle = new HashMap<>();
    private int redelivered;

    @BeforeEach
    void start() {
        stack = new LocalStack("rsh" + UUID.randomUUID().toString().substring(0, 8) + "_", false);
    }

    @AfterEach
    void stop() {
        stack.close();
    }

    @Test
    void inboxThirteenToSeventeenAndCheckpointsSevenToElevenUnderTraffic() throws Exception {
        Reshard inbox =
                Reshard.inbox(
                        stack.ddb,
                        stack.table(Tables.INBOX),
                        JobOptions.POSTING_CONSUMER.defaultValue());
        Reshard checkpoints =
                Reshard.checkpoints(
                        stack.ddb,
                        stack.table(Tables.PROJECTION),
                        JobOptions.PROJECTION_NAME.defaultValue());
        JobClient job = runJobs();
        Instant watermark;
        try {
            admit(FILLS / 3, 0);
            // default watermarks: now + 2 x lead when each step runs
            ShardMapState dual = inbox.start(17, null, LEAD);
            assertThat(dual.phase()).isEqualTo(ShardMapState.Phase.DUAL);
            watermark = dual.watermark();
            assertThat(checkpoints.start(11, null, LEAD).current().shardCount()).isEqualTo(11);
            // traffic across the watermark, with re-deliveries of both eras
            int rest = FILLS - admitted.size();
            for (int chunk = 0; chunk < 10; chunk++) {
                admit(rest / 10 + (chunk < rest % 10 ? 1 : 0), 3);
                Thread.sleep(400);
            }
            assertThat(Instant.now()).as("traffic outlasted the watermark").isAfter(watermark);
            // drain and cut over while new fills and re-deliveries of old ones keep coming
            AtomicBoolean cutOver = new AtomicBoolean();
            Thread traffic =
                    new Thread(
                            () -> {
                                while (!cutOver.get()) {
                                    admit(2, 0);
                                    redeliver(pick(FILLS / 3));
                                    pause(100);
                                }
                            },
                            "reshard-traffic");
            traffic.start();
            try {
                ShardMapState drained =
                        inbox.drain(SETTLE, Duration.ofDays(30), Duration.ofMinutes(1));
                assertThat(drained.phase()).isEqualTo(ShardMapState.Phase.DRAINED);
                checkpoints.drain(SETTLE, Duration.ofDays(30), Duration.ofMinutes(1));
                assertThat(inbox.cutover(preWatermarkIds(watermark)).phase())
                        .isEqualTo(ShardMapState.Phase.CUT_OVER);
                assertThat(checkpoints.cutover(null).phase())
                        .isEqualTo(ShardMapState.Phase.CUT_OVER);
            } finally {
                cutOver.set(true);
                traffic.join();
            }

            // after the cutover: re-deliveries of old (v1) and new (v2) fills, and new fills
            for (int i = 0; i < 10; i++) {
                redeliver(pick(FILLS / 3)); // admitted before the watermark
                redeliver(pick(-FILLS / 3)); // among the newest
            }
            admit(10, 0);
            awaitOutcomes(admitted.size() + redelivered, job);
            awaitProjectionCaughtUp(job);
        } finally {
            job.cancel().get();
        }

        // AP09: one receipt per fill under the version its admission time selects, none twice
        List<String> ids = admitted.stream().map(OutboxEvent::eventId).toList();
        ReshardReport receipts = inbox.reconcile(ids);
        assertThat(receipts.clean()).as(receipts.render()).isTrue();
        assertThat(receipts.distinctIds()).isEqualTo(admitted.size());
        ShardMap v1 = ShardMap.INBOX;
        ShardMap v2 = ShardMap.INBOX.withShardCount(17);
        long beforeWatermark =
                admitted.stream().filter(e -> e.occurredAt().isBefore(watermark)).count();
        assertThat(receipts.count(v1)).isEqualTo(beforeWatermark).isPositive();
        assertThat(receipts.count(v2)).isEqualTo(admitted.size() - beforeWatermark).isPositive();
        assertThat(receipts.perShard().get(v2)).hasSize(17);

        // exactly-once effects: every re-delivery was a no-op at its receipt
        List<PostingOutcome> outcomes = new ArrayList<>(CollectSink.values(OUTCOMES));
        assertThat(outcomes.stream().filter(o -> o.getStatus() == PostingStatus.APPLIED))
                .hasSize(admitted.size());
        assertThat(outcomes.stream().filter(o -> o.getStatus() == PostingStatus.DUPLICATE))
                .hasSize(redelivered);
        Map<String, BigDecimal> posted = new HashMap<>();
        Map<String, Long> authorityVersions = new HashMap<>();
        for (Map<String, AttributeValue> a : authorities()) {
            AuthorityKey k = AuthorityKey.parse(a.get(Attr.PK).s(), a.get(Attr.SK).s());
            authorityVersions.put(
                    AuthorityChanges.sourceKey(k), Long.parseLong(a.get(LedgerSchema.VERSION).n()));
            if (k.kind() == AuthorityKey.Kind.SEC && k.account().startsWith("acct-")) {
                posted.put(
                        k.tenant() + "/" + k.account() + "/" + k.asset(),
                        new BigDecimal(a.get(LedgerSchema.POSTED).n()));
            }
        }
        assertThat(posted).hasSameSizeAs(secOracle);
        secOracle.forEach((k, v) -> assertThat(posted.get(k)).as(k).isEqualByComparingTo(v));

        // AP13: every authority's checkpoint carried into v2, at its version, no gap
        ReshardReport cps = checkpoints.reconcile(null);
        assertThat(cps.clean()).as(cps.render()).isTrue();
        assertThat(cps.openGaps()).isEmpty();
        ShardMap cp2 = ShardMap.PROJECTION_CHECKPOINTS.withShardCount(11);
        assertThat(cps.count(cp2)).isEqualTo(authorityVersions.size());
        Map<String, Long> checkpointVersions = new HashMap<>();
        for (var f :
                new io.streamledger.aws.shard.ShardedItems(
                                io.streamledger.aws.shard.ShardedItems.Kind.CHECKPOINTS,
                                JobOptions.PROJECTION_NAME.defaultValue())
                        .list(stack.ddb, stack.table(Tables.PROJECTION), cp2)) {
            checkpointVersions.put(
                    f.id(), Long.parseLong(f.item().get(ProjectionSchema.SOURCE_VERSION).n()));
        }
        assertThat(checkpointVersions).isEqualTo(authorityVersions);
        assertThat(CollectSink.<GapBreak>values("reshard-gap-breaks")).isEmpty();
        assertThat(CollectSink.<Object>values("reshard-posting-dead")).isEmpty();
    }

    /** Event ids admitted before the watermark: their receipts must all be in v1 by the drain. */
    private synchronized List<String> preWatermarkIds(Instant watermark) {
        return admitted.stream()
                .filter(e -> e.occurredAt().isBefore(watermark))
                .map(OutboxEvent::eventId)
                .toList();
    }

    /** One of the first {@code n} fills, or for negative n of the last -n. */
    private synchronized OutboxEvent pick(int n) {
        return n > 0
                ? admitted.get(random.nextInt(n))
                : admitted.get(admitted.size() - 1 - random.nextInt(-n));
    }

    private static void pause(long millis) {
        try {
            Thread.sleep(millis); // traffic pacing only
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Admits {@code n} fills now, re-delivering an earlier one after every {@code every}-th. */
    private synchronized void admit(int n, int every) {
        for (int i = 0; i < n; i++) {
            int k = admitted.size();
            String tenant = "t" + (k % 2);
            String account = "acct-" + random.nextInt(4);
            String symbol = "SYM" + random.nextInt(3);
            boolean buy = random.nextBoolean();
            BigDecimal qty = BigDecimal.valueOf(1 + random.nextInt(500), random.nextInt(3));
            OutboxEvent e =
                    Workload.tradeExecuted(
                            tenant,
                            account,
                            symbol,
                            buy,
                            qty,
                            BigDecimal.valueOf(100 + random.nextInt(50_000), 2),
                            BigDecimal.valueOf(random.nextInt(300), 2),
                            "rso-" + k,
                            0,
                            Instant.now());
            put(e);
            admitted.add(e);
            secOracle.merge(
                    tenant + "/" + account + "/" + symbol,
                    buy ? qty : qty.negate(),
                    BigDecimal::add);
            if (every > 0 && i % every == every - 1) {
                redeliver(admitted.get(random.nextInt(admitted.size())));
            }
        }
    }

    /** A duplicate delivery: the outbox item removed and inserted again (a second INSERT). */
    private synchronized void redeliver(OutboxEvent e) {
        Map<String, AttributeValue> item = LocalStack.sdk(OutboxEventCodec.toItem(e));
        stack.ddb.deleteItem(
                b ->
                        b.tableName(stack.table(Tables.CONTEXT))
                                .key(
                                        Map.of(
                                                Attr.PK,
                                                item.get(Attr.PK),
                                                Attr.SK,
                                                item.get(Attr.SK))));
        put(e);
        redelivered++;
    }

    private void put(OutboxEvent e) {
        Map<String, AttributeValue> item = LocalStack.sdk(OutboxEventCodec.toItem(e));
        stack.ddb.putItem(b -> b.tableName(stack.table(Tables.CONTEXT)).item(item));
    }

    private List<Map<String, AttributeValue>> authorities() {
        return stack.scan(stack.table(Tables.LEDGER)).stream()
                .filter(i -> LedgerSchema.isAuthority(i.get(Attr.SK).s()))
                .toList();
    }

    private void awaitOutcomes(int expected, JobClient job) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (CollectSink.values(OUTCOMES).size() < expected) {
            assertThat(System.nanoTime()).as("fills settled").isLessThan(deadline);
            assertThat(job.getJobStatus().get().isGloballyTerminalState()).isFalse();
            Thread.sleep(100);
        }
        assertThat(CollectSink.values(OUTCOMES)).hasSize(expected);
    }

    /** Until every authority's newest checkpoint (any version) is at the authority's version. */
    private void awaitProjectionCaughtUp(JobClient job) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (true) {
            Map<String, Long> want = new HashMap<>();
            for (Map<String, AttributeValue> a : authorities()) {
                AuthorityKey k = AuthorityKey.parse(a.get(Attr.PK).s(), a.get(Attr.SK).s());
                want.put(
                        AuthorityChanges.sourceKey(k),
                        Long.parseLong(a.get(LedgerSchema.VERSION).n()));
            }
            Map<String, Long> have = new HashMap<>();
            for (Map<String, AttributeValue> c : stack.scan(stack.table(Tables.PROJECTION))) {
                if (c.containsKey(ProjectionSchema.SOURCE_KEY)) {
                    have.merge(
                            c.get(ProjectionSchema.SOURCE_KEY).s(),
                            Long.parseLong(c.get(ProjectionSchema.SOURCE_VERSION).n()),
                            Math::max);
                }
            }
            if (have.equals(want)) {
                return;
            }
            assertThat(System.nanoTime()).as("projection caught up").isLessThan(deadline);
            assertThat(job.getJobStatus().get().isGloballyTerminalState()).isFalse();
            Thread.sleep(200);
        }
    }

    private JobClient runJobs() throws Exception {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(2);
        env.enableCheckpointing(500);
        env.setRestartStrategy(RestartStrategies.fixedDelayRestart(3, 200));
        Configuration postingConf = stack.configReading(Tables.CONTEXT);
        postingConf.set(JobOptions.POSTING_BACKOFF_BASE, Duration.ofMillis(5));
        postingConf.set(JobOptions.SHARD_MAP_REFRESH, REFRESH);
        new PostingJob(
                        ChangeSources.fromConfig(postingConf, PostingJob.ROLE),
                        new PostingJob.Sinks(
                                new PostingTransactionSink(
                                        PostingJob.settings(postingConf),
                                        CollectSink.listener(OUTCOMES)),
                                new CollectSink<>("reshard-posting-rejected"),
                                new CollectSink<>("reshard-posting-dead"),
                                new CollectSink<>("reshard-exec-gap-breaks"),
                                new CollectSink<>("reshard-exec-dead")),
                        postingConf)
                .build(env);
        Configuration projConf = stack.configReading(Tables.LEDGER);
        projConf.set(JobOptions.SHARD_MAP_REFRESH, REFRESH);
        DynamoDbProjectionSinks prod = new DynamoDbProjectionSinks(projConf);
        ProjectionSinks sinks =
                new CollectedProjectionSinks(
                        prod, "reshard-gap-breaks", "reshard-gate-dead", "reshard-projection-dead");
        new ProjectionJob(ChangeSources.fromConfig(projConf, ProjectionJob.ROLE), sinks, projConf)
                .build(env);
        return env.executeAsync("reshard-it");
    }
}
