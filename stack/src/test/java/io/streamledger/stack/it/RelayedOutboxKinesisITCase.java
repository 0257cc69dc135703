package io.streamledger.stack.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.streamledger.aws.retry.RetryPolicy;
import io.streamledger.command.config.CommandService;
import io.streamledger.command.config.ServiceConfig;
import io.streamledger.command.outbox.KinesisPublisher;
import io.streamledger.command.outbox.OutboxItems;
import io.streamledger.command.outbox.OutboxRelay;
import io.streamledger.command.outbox.OutboxState;
import io.streamledger.jobs.config.JobOptions;
import io.streamledger.jobs.it.CollectSink;
import io.streamledger.jobs.posting.PostingJob;
import io.streamledger.jobs.source.ChangeSources;
import io.streamledger.jobs.source.ParseChanges;
import io.streamledger.jobs.source.RawChange;
import io.streamledger.jobs.source.SourceDeadLetter;
import io.streamledger.local.kinesis.KinesisLocal;
import io.streamledger.model.change.OutboxEvent;
import io.streamledger.model.change.OutboxEventCodec;
import io.streamledger.model.table.Attr;
import io.streamledger.model.table.Tables;
import io.streamledger.operators.posting.PostingOutcome;
import io.streamledger.sinks.posting.PostingTransactionSink;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.function.BooleanSupplier;
import java.util.stream.Collectors;
import org.apache.flink.api.common.JobID;
import org.apache.flink.api.common.JobStatus;
import org.apache.flink.api.common.restartstrategy.RestartStrategies;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.Metric;
import org.apache.flink.runtime.testutils.InMemoryReporter;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;
import software.amazon.awssdk.services.kinesis.KinesisClient;
import software.amazon.awssdk.services.kinesis.model.Record;
import software.amazon.awssdk.services.kinesis.model.Shard;
import software.amazon.awssdk.services.kinesis.model.ShardIteratorType;

/**
 * The relayed-outbox transport end to end (seed AP16/CS03 relay → AP09 + AP10 + AP12 posting):
 * READY outbox items (IDX16/IDX17) written as the command service writes them, the command
 * service's real {@link OutboxRelay} publishing them through a real {@link KinesisPublisher} to
 * kinesis-local, and the real posting job reading that stream with payload {@code OUTBOX_EVENT};
 * plus the Kinesis source's AT_TIMESTAMP starting position.
 */
class RelayedOutboxKinesisITCase {

    private static final InMemoryReporter METRICS = InMemoryReporter.createWithRetainedMetrics();

    @RegisterExtension
    static final MiniClusterExtension CLUSTER =
            new MiniClusterExtension(
                    () ->
                            new MiniClusterResourceConfiguration.Builder()
                                    .setNumberTaskManagers(1)
                                    .setNumberSlotsPerTaskManager(2)
                                    .setConfiguration(
                                            METRICS.addToConfiguration(new Configuration()))
                                    .build());

    /** Shards of the relay's stream (kinesis-local allows 50 across all streams). */
    private static final int OUTBOX_SHARDS = 4;

    /** The whole posting run (relay drained, every fill posted, duplicates counted). */
    private static final Duration CONVERGE_WITHIN = Duration.ofSeconds(120);

    /** Start of the upper half of a 2-shard stream's hash key range (2^127). */
    private static final String UPPER_HALF_HASH_KEY = "170141183460469231731687303715884105728";

    /** Fills re-published as exact copies of their relayed records. */
    private static final int REPUBLISHED = 3;

    /**
     * The production default (JobOptions), see {@link
     * #atTimestampStartsAfterTheTimestampOnEveryShard}.
     */
    private static final Duration AT_TIMESTAMP_DISCOVERY_INTERVAL = Duration.ofSeconds(10);

    private static KinesisLocal kinesis;

    @BeforeAll
    static void startKinesis() {
        kinesis = KinesisLocal.start();
    }

    @AfterAll
    static void stopKinesis() {
        if (kinesis != null) {
            kinesis.close();
        }
    }

    /**
     * Every fill relayed to Kinesis is posted exactly once; OrderAccepted envelopes are counted
     * skips; an unparseable record and an envelope without a price are dead-lettered with their
     * reasons while the job keeps running; re-published envelopes are DUPLICATE outcomes.
     */
    @Test
    void relayedOutboxEnvelopesArePostedOncePerFill() throws Exception {
        String prefix = "rk" + UUID.randomUUID().toString().substring(0, 6) + "-";
        String stream = prefix + "outbox";
        kinesis.createStream(stream, OUTBOX_SHARDS);
        Workload w = new Workload(41, 2, 5, 4, 40, 5);
        try (LocalStack stack = new LocalStack(prefix, false, null, true);
                KinesisClient kc = KinesisLocal.newClient(kinesis.endpoint())) {
            CommandService service =
                    new CommandService(
                            stack.ddb, ServiceConfig.defaults(prefix), RetryPolicy.defaults());
            String context = service.tables().context();
            assertThat(context).isEqualTo(stack.table(Tables.CONTEXT));
            writeReadyOutbox(stack, context, w);

            // bad input first in the stream: the fills behind it prove the job kept running
            String unparseable = "{\"eventId\":\"e-truncated-envelope\",\"eventType\":\"Trade";
            kc.putRecord(
                    b ->
                            b.streamName(stream)
                                    .partitionKey("o-bad")
                                    .data(SdkBytes.fromUtf8String(unparseable)));
            OutboxEvent noPrice = withoutPrice(w.fills.get(0).event());
            kc.putRecord(
                    b ->
                            b.streamName(stream)
                                    .partitionKey(noPrice.aggregateId())
                                    .data(
                                            SdkBytes.fromUtf8String(
                                                    OutboxEventCodec.toJson(noPrice))));

            StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
            env.setParallelism(2);
            // no restarts: a record that failed the job would end it, and the test with it
            env.setRestartStrategy(RestartStrategies.noRestart());
            Configuration conf = kinesisConfig(stack.config(), stream);
            conf.set(JobOptions.KINESIS_PAYLOAD, JobOptions.KinesisPayload.OUTBOX_EVENT);
            conf.set(JobOptions.POSTING_BACKOFF_BASE, Duration.ofMillis(5));
            new PostingJob(
                            ChangeSources.fromConfig(conf, PostingJob.ROLE),
                            new PostingJob.Sinks(
                                    new PostingTransactionSink(
                                            PostingJob.settings(conf),
                                            CollectSink.listener("relayOutcomes")),
                                    new CollectSink<>("relayOutcomes"),
                                    new CollectSink<>("relayDeadLetters"),
                                    new CollectSink<>("relayGapBreaks"),
                                    new CollectSink<>("relayGateDeadLetters")),
                            conf)
                    .build(env);

            long started = System.nanoTime();
            JobClient job = env.executeAsync("relayed-outbox-kinesis-it");
            OutboxRelay relay =
                    new OutboxRelay(
                                    service.ddb(),
                                    context,
                                    "relay-it-" + prefix,
                                    Clock.systemUTC(),
                                    new KinesisPublisher(kc, stream),
                                    Duration.ofSeconds(30),
                                    100,
                                    Duration.ofMillis(200),
                                    Duration.ofSeconds(2))
                            .start(Duration.ofMillis(100), Duration.ofSeconds(30));
            Set<String> republished;
            try {
                long deadline = started + CONVERGE_WITHIN.toNanos();
                int outboxItems = w.orderAccepted.size() + w.fills.size();
                await(
                        "outbox drained",
                        deadline,
                        job,
                        () -> completedOutbox(stack, context) == outboxItems);
                long drainedMillis = (System.nanoTime() - started) / 1_000_000;
                relay.close();
                assertThat(relay.metrics())
                        .containsEntry("completed", (long) outboxItems)
                        .containsEntry("retried", 0L)
                        .containsEntry("completeLost", 0L);
                await(
                        "every fill posted",
                        deadline,
                        job,
                        () -> postedEventIds().size() == w.fills.size());
                long postedMillis = (System.nanoTime() - started) / 1_000_000;

                // the relay's own acknowledgement locates the records to re-publish
                republished = new HashSet<>();
                for (int i = 0; i < REPUBLISHED; i++) {
                    String eventId = w.fills.get(i * 7).event().eventId();
                    Record relayed = relayedRecord(stack, kc, context, stream, eventId);
                    assertThat(OutboxEventCodec.fromJson(relayed.data().asUtf8String()).eventId())
                            .isEqualTo(eventId);
                    new KinesisPublisher(kc, stream)
                            .publish(relayed.partitionKey(), relayed.data().asByteArray());
                    republished.add(eventId);
                }
                await(
                        "re-published envelopes counted as duplicates",
                        deadline,
                        job,
                        () -> duplicateEventIds().containsAll(republished));
                // outcomes are emitted before the parse counters are reported: let them settle
                await(
                        "parse counters reported",
                        deadline,
                        job,
                        () -> counter(job.getJobID(), "source.skipped") == w.orderAccepted.size());
                assertThat(job.getJobStatus().get()).isEqualTo(JobStatus.RUNNING);
                System.out.printf(
                        "relayed outbox: %d outbox items relayed after %d ms, %d fills posted"
                                + " after %d ms, %d duplicates counted after %d ms%n",
                        outboxItems,
                        drainedMillis,
                        w.fills.size(),
                        postedMillis,
                        republished.size(),
                        (System.nanoTime() - started) / 1_000_000);
            } finally {
                relay.close();
                if (!job.getJobStatus().get().isGloballyTerminalState()) {
                    job.cancel().get();
                }
            }

            // exactly once: one balanced transaction and one receipt per fill (oracle-checked)
            PipelineITCase.verifyLedger(stack, w);
            List<PostingOutcome> outcomes =
                    List.copyOf(CollectSink.<PostingOutcome>values("relayOutcomes"));
            assertThat(outcomes)
                    .filteredOn(o -> PostingOutcome.APPLIED.equals(o.getStatus()))
                    .extracting(PostingOutcome::getEventId)
                    .doesNotHaveDuplicates()
                    .hasSize(w.fills.size());
            assertThat(duplicateEventIds()).isEqualTo(republished);
            assertThat(outcomes).noneMatch(o -> PostingOutcome.REJECTED.equals(o.getStatus()));
            // OrderAccepted envelopes: parsed, counted as skips, never posted nor dead-lettered
            Set<String> accepted =
                    w.orderAccepted.stream().map(OutboxEvent::eventId).collect(Collectors.toSet());
            assertThat(outcomes).noneMatch(o -> accepted.contains(o.getEventId()));
            assertThat(counter(job.getJobID(), "source.skipped")).isEqualTo(w.orderAccepted.size());
            assertThat(counter(job.getJobID(), "source.parsed"))
                    .isEqualTo(w.orderAccepted.size() + w.fills.size() + REPUBLISHED);
            assertThat(counter(job.getJobID(), "source.deadLettered")).isEqualTo(2);

            Map<String, SourceDeadLetter> dead = new LinkedHashMap<>();
            for (SourceDeadLetter d : CollectSink.<SourceDeadLetter>values("relayDeadLetters")) {
                dead.put(d.getReason(), d);
            }
            assertThat(dead).containsOnlyKeys(ParseChanges.UNPARSEABLE, ParseChanges.UNMAPPABLE);
            SourceDeadLetter truncated = dead.get(ParseChanges.UNPARSEABLE);
            assertThat(truncated.getPayload()).isEqualTo(unparseable);
            assertThat(truncated.getTransport()).isEqualTo("KINESIS");
            assertThat(truncated.getSequenceNumber()).isNotBlank();
            SourceDeadLetter unmappable = dead.get(ParseChanges.UNMAPPABLE);
            assertThat(unmappable.getPayload()).contains(noPrice.eventId());
            assertThat(unmappable.getDetail()).contains("'price'");
        }
    }

    /**
     * AT_TIMESTAMP on the Kinesis source: of records put before and after T on both shards, only
     * those after T are read.
     *
     * <p>One reader and the production discovery interval (10 s) on purpose: the connector's
     * enumerator (flink-connector-kinesis 4.3.0-1.19) keeps the splits of its initial discovery
     * unassigned while readers are still registering, and its next (periodic) discovery lists every
     * shard again at TRIM_HORIZON and assigns both copies of each shard in one go. With two
     * readers, a shard's TRIM_HORIZON copy can land on the other reader, which then reads the shard
     * from its start (reproduced here with parallelism 2 and a 500 ms interval: before-T records of
     * both shards read; jobs/README.md "Sources"). With one reader the configured copy comes first
     * and the TRIM_HORIZON copy continues from its shard iterator, unless the reader registers more
     * than one discovery interval after the job starts.
     */
    @Test
    void atTimestampStartsAfterTheTimestampOnEveryShard() throws Exception {
        String stream = "ts" + UUID.randomUUID().toString().substring(0, 6);
        kinesis.createStream(stream, 2);
        KinesisClient kc = kinesis.client();
        List<String> before = putOnBothShards(kc, stream, "before", 6);
        Thread.sleep(1_500);
        Instant t = Instant.now();
        Thread.sleep(1_500);
        List<String> after = putOnBothShards(kc, stream, "after", 6);

        // the setup itself: kinesis-local's arrival times straddle T as intended
        Map<String, Instant> arrivals = arrivals(kc, stream, ShardIteratorType.TRIM_HORIZON, null);
        assertThat(arrivals).hasSize(before.size() + after.size());
        before.forEach(k -> assertThat(arrivals.get(k)).as(k).isBefore(t));
        after.forEach(k -> assertThat(arrivals.get(k)).as(k).isAfter(t));
        // ... and its GetShardIterator(AT_TIMESTAMP) answers with the after-T records only
        assertThat(arrivals(kc, stream, ShardIteratorType.AT_TIMESTAMP, t).keySet())
                .containsExactlyInAnyOrderElementsOf(after);

        Configuration conf = kinesisConfig(new Configuration(), stream);
        conf.set(JobOptions.REGION, KinesisLocal.REGION);
        conf.set(JobOptions.CREDENTIALS, JobOptions.CredentialsKind.BASIC);
        conf.set(JobOptions.ACCESS_KEY_ID, KinesisLocal.ACCESS_KEY);
        conf.set(JobOptions.SECRET_ACCESS_KEY, KinesisLocal.SECRET_KEY);
        conf.set(JobOptions.SHARD_DISCOVERY_INTERVAL, AT_TIMESTAMP_DISCOVERY_INTERVAL);
        conf.set(JobOptions.STARTING_POSITION, JobOptions.StartingPosition.AT_TIMESTAMP);
        // epoch seconds with a decimal fraction, as the option documents
        String seconds = t.getEpochSecond() + "." + String.format("%03d", t.getNano() / 1_000_000);
        conf.set(JobOptions.STARTING_TIMESTAMP, seconds);

        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(1); // see the method comment: one reader sidesteps the connector race
        env.setRestartStrategy(RestartStrategies.noRestart());
        ChangeSources.fromConfig(conf, "at-timestamp-it")
                .open(env)
                .sinkTo(new CollectSink<>("atTimestamp"));
        JobClient job = env.executeAsync("kinesis-at-timestamp-it");
        try {
            long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            await("after-T records read", deadline, job, () -> readKeys().containsAll(after));
            // per shard, before-T records precede the after-T ones: a source that started
            // earlier than T would have delivered them by now
            assertThat(job.getJobStatus().get()).isEqualTo(JobStatus.RUNNING);
        } finally {
            if (!job.getJobStatus().get().isGloballyTerminalState()) {
                job.cancel().get();
            }
        }
        assertThat(readKeys())
                .as(
                        "records read (payload shard/sequence) from AT_TIMESTAMP %s: %s",
                        seconds,
                        CollectSink.<RawChange>values("atTimestamp").stream()
                                .map(
                                        r ->
                                                new String(r.getData(), StandardCharsets.UTF_8)
                                                        + " "
                                                        + r.getShardId()
                                                        + "/"
                                                        + r.getSequenceNumber())
                                .toList())
                .containsExactlyInAnyOrderElementsOf(after);
        assertThat(CollectSink.<RawChange>values("atTimestamp"))
                .allSatisfy(r -> assertThat(r.getArrivalMillis()).isGreaterThan(t.toEpochMilli()));
    }

    // ---- relay side ----

    /**
     * Each transaction: one order's OrderAccepted and up to three TradeExecuted items, all READY
     * with their IDX17 keys, as the command service writes them ({@code OutboxItems.createPut}).
     */
    private static void writeReadyOutbox(LocalStack stack, String context, Workload w) {
        int f = 0;
        for (OutboxEvent accepted : w.orderAccepted) {
            List<TransactWriteItem> tx = new ArrayList<>();
            tx.add(OutboxItems.createPut(context, tenant(accepted), accepted));
            for (int k = 0; k < 3 && f < w.fills.size(); k++, f++) {
                OutboxEvent fill = w.fills.get(f).event();
                tx.add(OutboxItems.createPut(context, tenant(fill), fill));
            }
            stack.ddb.transactWriteItems(b -> b.transactItems(tx));
        }
        for (; f < w.fills.size(); f++) {
            OutboxEvent fill = w.fills.get(f).event();
            stack.ddb.transactWriteItems(
                    b -> b.transactItems(OutboxItems.createPut(context, tenant(fill), fill)));
        }
    }

    private static String tenant(OutboxEvent e) {
        return ((io.streamledger.model.change.AttributeValue.S) e.payload().get("tenant")).value();
    }

    private static long completedOutbox(LocalStack stack, String context) {
        return stack.scan(context).stream()
                .filter(i -> i.containsKey(OutboxItems.A_STATE))
                .filter(i -> OutboxState.COMPLETED.name().equals(i.get(OutboxItems.A_STATE).s()))
                .count();
    }

    /** The record the relay published for {@code eventId}, found by its stored acknowledgement. */
    private static Record relayedRecord(
            LocalStack stack, KinesisClient kc, String context, String stream, String eventId) {
        Map<String, AttributeValue> item =
                stack.ddb
                        .getItem(
                                b ->
                                        b.tableName(context)
                                                .key(OutboxItems.key(eventId))
                                                .consistentRead(true))
                        .item();
        assertThat(item.get(Attr.EVENT_ID).s()).isEqualTo(eventId);
        String sequence = item.get(OutboxItems.A_ACK).s();
        String shard = item.get(OutboxItems.A_ACK_SHARD).s();
        String iterator =
                kc.getShardIterator(
                                b ->
                                        b.streamName(stream)
                                                .shardId(shard)
                                                .shardIteratorType(
                                                        ShardIteratorType.AT_SEQUENCE_NUMBER)
                                                .startingSequenceNumber(sequence))
                        .shardIterator();
        Record r = kc.getRecords(b -> b.shardIterator(iterator).limit(1)).records().get(0);
        assertThat(r.sequenceNumber()).isEqualTo(sequence);
        return r;
    }

    private static OutboxEvent withoutPrice(OutboxEvent template) {
        var payload = new LinkedHashMap<>(template.payload());
        payload.remove("price");
        return new OutboxEvent(
                "e-envelope-without-price",
                template.aggregateType(),
                "o-no-price",
                template.aggregateVersion(),
                template.eventType(),
                template.schemaVersion(),
                template.occurredAt(),
                "trace-no-price",
                null,
                payload);
    }

    // ---- AT_TIMESTAMP side ----

    /** {@code n} records per shard, addressed by explicit hash key; returns their payloads. */
    private static List<String> putOnBothShards(
            KinesisClient kc, String stream, String label, int n) {
        List<String> keys = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            for (String hashKey : List.of("0", UPPER_HALF_HASH_KEY)) {
                String key = label + "-" + hashKey.length() + "-" + i;
                kc.putRecord(
                        b ->
                                b.streamName(stream)
                                        .partitionKey(key)
                                        .explicitHashKey(hashKey)
                                        .data(SdkBytes.fromUtf8String(key)));
                keys.add(key);
            }
        }
        return keys;
    }

    /** Payload → arrival time of every record an iterator of {@code type} yields, all shards. */
    private static Map<String, Instant> arrivals(
            KinesisClient kc, String stream, ShardIteratorType type, Instant at) {
        Map<String, Instant> out = new LinkedHashMap<>();
        for (Shard shard : kc.listShards(b -> b.streamName(stream)).shards()) {
            String it =
                    kc.getShardIterator(
                                    b ->
                                            b.streamName(stream)
                                                    .shardId(shard.shardId())
                                                    .shardIteratorType(type)
                                                    .timestamp(at))
                            .shardIterator();
            for (int page = 0; page < 10 && it != null; page++) {
                String iter = it;
                var r = kc.getRecords(b -> b.shardIterator(iter));
                r.records()
                        .forEach(
                                rec ->
                                        out.put(
                                                rec.data().asUtf8String(),
                                                rec.approximateArrivalTimestamp()));
                if (r.records().isEmpty()) {
                    break;
                }
                it = r.nextShardIterator();
            }
        }
        return out;
    }

    private static Set<String> readKeys() {
        return CollectSink.<RawChange>values("atTimestamp").stream()
                .map(r -> new String(r.getData(), StandardCharsets.UTF_8))
                .collect(Collectors.toSet());
    }

    // ---- shared ----

    /** Job options for the KINESIS transport on {@code stream} of kinesis-local. */
    private static Configuration kinesisConfig(Configuration base, String stream) {
        base.set(JobOptions.TRANSPORT, JobOptions.TransportKind.KINESIS);
        base.set(JobOptions.STREAM_ARN, KinesisLocal.streamArn(stream));
        base.set(JobOptions.KINESIS_ENDPOINT, kinesis.endpoint().toString());
        return base;
    }

    private static Set<String> postedEventIds() {
        return CollectSink.<PostingOutcome>values("relayOutcomes").stream()
                .filter(o -> PostingOutcome.APPLIED.equals(o.getStatus()))
                .map(PostingOutcome::getEventId)
                .collect(Collectors.toSet());
    }

    private static Set<String> duplicateEventIds() {
        return CollectSink.<PostingOutcome>values("relayOutcomes").stream()
                .filter(o -> PostingOutcome.DUPLICATE.equals(o.getStatus()))
                .map(PostingOutcome::getEventId)
                .collect(Collectors.toSet());
    }

    /** Sum over subtasks of the counter whose identifier ends with {@code suffix}. */
    private static long counter(JobID job, String suffix) {
        long sum = 0;
        for (Map.Entry<String, Metric> e : METRICS.findMetrics(job, suffix).entrySet()) {
            if (e.getKey().endsWith("." + suffix) && e.getValue() instanceof Counter c) {
                sum += c.getCount();
            }
        }
        return sum;
    }

    /** Polls {@code done} until the deadline; fails at once when the job has ended. */
    private static void await(String what, long deadlineNanos, JobClient job, BooleanSupplier done)
            throws Exception {
        while (!done.getAsBoolean()) {
            JobStatus status = job.getJobStatus().get();
            if (status.isGloballyTerminalState()) {
                try {
                    job.getJobExecutionResult().get();
                } catch (java.util.concurrent.ExecutionException e) {
                    throw new AssertionError(what + ": job ended " + status, e);
                }
                throw new AssertionError(what + ": job ended " + status);
            }
            if (System.nanoTime() > deadlineNanos) {
                throw new AssertionError("not within the deadline: " + what);
            }
            Thread.sleep(250);
        }
    }
}
