package io.streamledger.stack.ledgercheck;

import static io.streamledger.stack.recon.LedgerWriter.line;
import static org.assertj.core.api.Assertions.assertThat;

import io.streamledger.aws.deadletter.DeadLetterEntry;
import io.streamledger.aws.deadletter.DeadLetterItems;
import io.streamledger.aws.deadletter.DeadLetterReader;
import io.streamledger.aws.deadletter.DeadLetterView;
import io.streamledger.aws.items.ModelAv;
import io.streamledger.command.config.TableProvisioner;
import io.streamledger.jobs.config.JobOptions;
import io.streamledger.jobs.deadletter.Reinjection;
import io.streamledger.jobs.it.CollectSink;
import io.streamledger.jobs.ledgercheck.LedgerCheckJob;
import io.streamledger.jobs.recon.BreakSinks;
import io.streamledger.jobs.recon.ReconOptions;
import io.streamledger.jobs.source.ChangeSources;
import io.streamledger.jobs.source.RawChange;
import io.streamledger.jobs.source.RawChangeSource;
import io.streamledger.jobs.source.SourceTypes;
import io.streamledger.jobs.testing.TestRecords;
import io.streamledger.model.deadletter.DeadLetterReason;
import io.streamledger.model.deadletter.DeadLetterStatus;
import io.streamledger.model.keys.AuthorityKey;
import io.streamledger.model.keys.DeadLetterKey;
import io.streamledger.model.table.Tables;
import io.streamledger.stack.it.InputWatermarks;
import io.streamledger.stack.recon.LedgerWriter;
import io.streamledger.stack.recon.ReconStack;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import java.util.stream.Collectors;
import org.apache.flink.api.common.functions.MapFunction;
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
 * For the ledger-check job: each check's violation, written straight to the local endpoint with the
 * SDK (no command service), is exactly one AP15 break row with the right reason and evidence; a
 * clean ledger gives none; a second run over the same stream (a restart without state) duplicates
 * nothing.
 */
class LedgerCheckITCase {

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

    /** Every ledger-check deadline (txn, control, gap). */
    private static final Duration SLA = Duration.ofSeconds(2);

    private static final String T = "t1";
    private static final Instant START = Instant.parse("2026-11-30T09:00:00Z");

    private ReconStack stack;

    @BeforeEach
    void start() {
        stack = new ReconStack("lc" + UUID.randomUUID().toString().substring(0, 8) + "_");
    }

    @AfterEach
    void stop() {
        stack.close();
    }

    private Configuration conf() {
        Configuration c = stack.configReading(Tables.LEDGER);
        c.set(ReconOptions.TXN_SLA, SLA);
        c.set(ReconOptions.CONTROL_SLA, SLA);
        c.set(ReconOptions.GAP_SLA, SLA);
        // the deadlines run on the watermark: once the written ledger is read, a shard quiet for
        // 3 s is caught up and lets the watermark reach the violations' deadlines
        c.set(JobOptions.IDLE_SOURCE_TIMEOUT, Duration.ofSeconds(3));
        c.set(JobOptions.WATERMARK_OUT_OF_ORDERNESS, Duration.ofSeconds(1));
        return c;
    }

    /** Writes a clean background plus one violation per check; returns reason → subject. */
    private Map<String, String> writeViolations() {
        LedgerWriter w = new LedgerWriter(stack.ddb, stack.table(Tables.LEDGER), T, START);
        // a clean background
        w.txn("c1", line("C1", "USD", "100.00"), line("HOUSE-CLEARING", "USD", "-100.00"));
        w.txn("c2", line("C2", "USD", "20.50"), line("HOUSE-CLEARING", "USD", "-20.50"));
        w.txn("c3", line("C1", "EUR", "7"), line("HOUSE-FEES", "EUR", "-7"));

        // TXN_UNBALANCED: 100 vs -90, authorities consistent with the postings
        w.txn("u1", line("U1", "USD", "100.00"), line("HOUSE-CLEARING", "USD", "-90.00"));
        // TXN_INCOMPLETE: three lines declared, two written
        w.postings("i1", 3, line("I1", "USD", "50"), line("HOUSE-CLEARING", "USD", "-50"));
        w.authority("I1", "USD", new BigDecimal("50"), BigDecimal.ZERO, "i1");
        w.authority("HOUSE-CLEARING", "USD", new BigDecimal("-50"), BigDecimal.ZERO, "i1");
        // POSTING_MODIFIED and POSTING_REMOVED on clean transactions
        var m = w.postings("pm", 2, line("PM", "USD", "5"), line("HOUSE-CLEARING", "USD", "-5"));
        w.authority("PM", "USD", new BigDecimal("5"), BigDecimal.ZERO, "pm");
        w.authority("HOUSE-CLEARING", "USD", new BigDecimal("-5"), BigDecimal.ZERO, "pm");
        stack.ddb.updateItem(
                b ->
                        b.tableName(stack.table(Tables.LEDGER))
                                .key(Map.of("PK", m.get(0).get("PK"), "SK", m.get(0).get("SK")))
                                .updateExpression("SET amount = :a")
                                .expressionAttributeValues(
                                        Map.of(":a", AttributeValue.fromN("6"))));
        stack.ddb.deleteItem(
                b ->
                        b.tableName(stack.table(Tables.LEDGER))
                                .key(Map.of("PK", m.get(1).get("PK"), "SK", m.get(1).get("SK"))));
        // AUTHORITY_VERSION_SKIP: v1 then v3
        w.txn("s1", line("S1", "USD", "10"), line("HOUSE-CLEARING", "USD", "-10"));
        w.authorityRaw(
                "S1",
                "USD",
                3,
                new BigDecimal("10"),
                BigDecimal.ZERO,
                new BigDecimal("10"),
                "adj-s1");
        // CONTROL_TOTAL_MISMATCH: postings +100, authority moved by 90
        w.postings("m1", 2, line("M1", "USD", "100"), line("HOUSE-CLEARING", "USD", "-100"));
        w.authority("M1", "USD", new BigDecimal("90"), BigDecimal.ZERO, "m1");
        w.authority("HOUSE-CLEARING", "USD", new BigDecimal("-100"), BigDecimal.ZERO, "m1");
        // AVAILABLE_MISMATCH: available 5 with posted 0, reserved 0
        w.authorityRaw(
                "AV", "USD", 1, BigDecimal.ZERO, BigDecimal.ZERO, new BigDecimal("5"), "res-av");
        // NEGATIVE_AVAILABLE: a client reservation beyond posted
        w.authority("NG", "USD", BigDecimal.ZERO, new BigDecimal("10"), "res-ng");
        // POSTING_WITHOUT_AUTHORITY: W1's authority never moves
        w.postings("w1", 2, line("W1", "USD", "5"), line("HOUSE-CLEARING", "USD", "-5"));
        w.authority("HOUSE-CLEARING", "USD", new BigDecimal("-5"), BigDecimal.ZERO, "w1");
        // MONTH_LIMIT_EXCEEDED: the account-month counter beyond 2,000,000
        stack.ddb.putItem(
                b ->
                        b.tableName(stack.table(Tables.LEDGER))
                                .item(
                                        Map.of(
                                                "PK", AttributeValue.fromS("TEN#t1#ACCT#ML"),
                                                "SK", AttributeValue.fromS("SEQ#MONTH#2026-11"),
                                                "tenant", AttributeValue.fromS(T),
                                                "accountId", AttributeValue.fromS("ML"),
                                                "monthCount", AttributeValue.fromN("2000001"),
                                                "version", AttributeValue.fromN("2000001"))));

        Map<String, String> expected = new TreeMap<>();
        expected.put("TXN_UNBALANCED", "u1");
        expected.put("TXN_INCOMPLETE", "i1");
        expected.put("POSTING_MODIFIED", "pm");
        expected.put("POSTING_REMOVED", "pm");
        expected.put("AUTHORITY_VERSION_SKIP", "t1/S1/CASH/USD");
        expected.put("CONTROL_TOTAL_MISMATCH", "t1/M1/CASH/USD");
        expected.put("AVAILABLE_MISMATCH", "t1/AV/CASH/USD");
        expected.put("NEGATIVE_AVAILABLE", "t1/NG/CASH/USD");
        expected.put("POSTING_WITHOUT_AUTHORITY", "t1/W1/CASH/USD");
        expected.put("MONTH_LIMIT_EXCEEDED", "t1/ML/2026-11");

        return expected;
    }

    @Test
    void eachInjectedViolationIsExactlyOneBreakAndAReplayAddsNone() throws Exception {
        Map<String, String> expected = writeViolations();
        runUntil(expected.size(), Duration.ofSeconds(60));
        List<Map<String, AttributeValue>> rows = stack.breaks();
        Map<String, List<Map<String, AttributeValue>>> byReason =
                rows.stream().collect(Collectors.groupingBy(r -> r.get("reason").s()));
        assertThat(byReason.keySet()).containsExactlyInAnyOrderElementsOf(expected.keySet());
        byReason.forEach((reason, list) -> assertThat(list).as(reason).hasSize(1));
        expected.forEach(
                (reason, subject) ->
                        assertThat(byReason.get(reason).get(0).get("subject").s())
                                .as(reason)
                                .contains(subject));
        assertThat(byReason.get("CONTROL_TOTAL_MISMATCH").get(0).get("evidence").s())
                .contains("\"expectedPostedDelta\":\"100\"")
                .contains("\"actualPostedDelta\":\"90\"");
        assertThat(byReason.get("TXN_UNBALANCED").get(0).get("evidence").s())
                .contains("\"sum.CASH:USD\":\"10\"");
        assertThat(byReason.get("POSTING_MODIFIED").get(0).get("evidence").s())
                .contains("\"amountBefore\":\"5\"")
                .contains("\"amountAfter\":\"6\"");
        assertThat(byReason.get("AUTHORITY_VERSION_SKIP").get(0).get("evidence").s())
                .contains("\"expectedVersion\":\"2\"")
                .contains("\"version\":\"3\"");
        // every new break is OPEN, version 1, owned, due, and in the sparse due queue
        for (Map<String, AttributeValue> r : rows) {
            assertThat(r.get("status").s()).isEqualTo("OPEN");
            assertThat(r.get("version").n()).isEqualTo("1");
            assertThat(r.get("owner").s()).isEqualTo("finance-ops");
            assertThat(r.get("GSI1PK").s()).startsWith("TEN#t1#BREAK#OPEN#");
            assertThat(r.get("GSI1SK").s()).startsWith("DUE#" + r.get("dueAt").s() + "#");
        }
        Map<String, String> firstIds = ids(rows);

        // a restart without state re-reads the whole stream: create-once keeps one row per id
        runUntil(expected.size(), Duration.ofSeconds(60));
        List<Map<String, AttributeValue>> again = stack.breaks();
        assertThat(ids(again)).isEqualTo(firstIds);
    }

    @Test
    void cleanWorkloadOfTenThousandEventsProducesNoBreak() throws Exception {
        LedgerWriter w = new LedgerWriter(stack.ddb, stack.table(Tables.LEDGER), T, START);
        Random rnd = new Random(6);
        int txns = 2_500; // 2 postings + 2 authority versions each = 10,000 change records
        for (int i = 0; i < txns; i++) {
            String amount = BigDecimal.valueOf(1 + rnd.nextInt(1_000_000), 2).toPlainString();
            w.txn(
                    "ok" + i,
                    line("C" + rnd.nextInt(50), i % 3 == 0 ? "EUR" : "USD", amount),
                    line("HOUSE-CLEARING", i % 3 == 0 ? "EUR" : "USD", "-" + amount));
        }
        long expectedAuthorities =
                stack.scan(stack.table(Tables.LEDGER)).stream()
                        .filter(i -> i.get("SK").s().startsWith("AUTH#"))
                        .count();
        assertThat(expectedAuthorities).isGreaterThan(50);
        runUntil(0, Duration.ofSeconds(40));
        assertThat(stack.breaks()).isEmpty();
        // the house clearing authority equals the independent sum of its postings
        assertThat(w.authOf("HOUSE-CLEARING", "USD").version()).isGreaterThan(1000);
        AuthorityKey.cash(T, "HOUSE-CLEARING", "USD");
    }

    /**
     * CS08 replay: a posting line the parse step set aside (here: its entry written as the job's
     * dead-letter sink writes it, a mapper since fixed) re-enters the checks through the replay
     * input and completes its transaction — no TXN_INCOMPLETE, where the same transaction without
     * it breaks — and a second entry of the same line adds no break; both entries end REPLAYED.
     */
    @Test
    void aReplayedPostingLineCompletesItsTransactionAndItsDuplicateAddsNoBreak() throws Exception {
        String dlq = stack.table(Tables.DEAD_LETTER);
        TableProvisioner.create(stack.ddb, Tables.DEAD_LETTER, dlq);
        LedgerWriter w = new LedgerWriter(stack.ddb, stack.table(Tables.LEDGER), T, START);
        w.postings("r1", 2, line("R1", "USD", "30"));
        Map<String, AttributeValue> setAside =
                w.posting("r1", 2, 2, line("HOUSE-CLEARING", "USD", "-30"));
        w.authority("R1", "USD", new BigDecimal("30"), BigDecimal.ZERO, "r1");
        w.authority("HOUSE-CLEARING", "USD", new BigDecimal("-30"), BigDecimal.ZERO, "r1");
        // the control: the same shape with its second line lost for good
        w.postings("x1", 2, line("X1", "USD", "5"));
        w.authority("X1", "USD", new BigDecimal("5"), BigDecimal.ZERO, "x1");
        String raw =
                TestRecords.streamsRecord(
                        "INSERT",
                        ModelAv.fromSdk(setAside),
                        900_000,
                        System.currentTimeMillis(),
                        "NEW_AND_OLD_IMAGES");
        String stream = stack.configReading(Tables.LEDGER).get(JobOptions.STREAM_ARN);
        List<DeadLetterKey> keys = new java.util.ArrayList<>();
        for (String seq : List.of("900001", "900002")) { // the line delivered twice
            String position = stream + "/shardId-lost/" + seq;
            DeadLetterEntry e =
                    new DeadLetterEntry(
                            null,
                            LedgerCheckJob.ROLE,
                            LedgerCheckJob.PARSE_UID,
                            DeadLetterReason.UNMAPPABLE_EVENT,
                            "mapper defect, fixed since",
                            raw,
                            "utf-8",
                            position,
                            position,
                            null,
                            0,
                            System.currentTimeMillis());
            stack.ddb.updateItem(DeadLetterItems.upsert(dlq, e));
            stack.ddb.updateItem(
                    DeadLetterItems.transition(
                            dlq,
                            e.key(),
                            DeadLetterStatus.OPEN,
                            1,
                            DeadLetterStatus.REPLAY_REQUESTED,
                            "REPLAY",
                            "ops:test",
                            "mapper fixed",
                            Instant.now()));
            keys.add(e.key());
        }
        Configuration conf = conf();
        conf.set(JobOptions.REPLAY_TENANTS, List.of(T)); // the source's _unknown is polled too
        conf.set(JobOptions.REPLAY_POLL_INTERVAL, Duration.ofMillis(200));
        DeadLetterReader reader = new DeadLetterReader(stack.ddb, dlq);
        try {
            runUntil(
                    1,
                    Duration.ofSeconds(90),
                    0,
                    conf,
                    () ->
                            keys.stream()
                                    .allMatch(
                                            k ->
                                                    reader.get(k).orElseThrow().status()
                                                            == DeadLetterStatus.REPLAYED));
        } catch (AssertionError e) {
            throw new AssertionError(
                    e.getMessage()
                            + "; entries "
                            + keys.stream().map(k -> reader.get(k).orElseThrow()).toList(),
                    e);
        }

        assertThat(stack.breaks())
                .singleElement()
                .satisfies(
                        r -> {
                            assertThat(r.get("reason").s()).isEqualTo("TXN_INCOMPLETE");
                            assertThat(r.get("subject").s()).contains("x1");
                        });
        for (DeadLetterKey k : keys) {
            DeadLetterView v = reader.get(k).orElseThrow();
            assertThat(v.status()).as(k.toString()).isEqualTo(DeadLetterStatus.REPLAYED);
            assertThat(v.attempts()).isEqualTo(1);
            assertThat(v.history().get(v.history().size() - 1).note())
                    .isEqualTo(Reinjection.REINJECTED);
        }
    }

    private static Map<String, String> ids(List<Map<String, AttributeValue>> rows) {
        Map<String, String> out = new HashMap<>();
        for (Map<String, AttributeValue> r : rows) {
            out.put(r.get("PK").s() + "/" + r.get("SK").s(), r.get("detectedAt").s());
        }
        return out;
    }

    /**
     * Runs the job until its watermark has passed every deadline of what the test wrote and the
     * break sink has flushed, asserts exactly {@code expected} break rows, then cancels it.
     */
    private void runUntil(int expected, Duration timeout) throws Exception {
        runUntil(expected, timeout, 0);
    }

    @Test
    void injectedJobFailuresNeitherDuplicateNorLoseBreaks() throws Exception {
        Map<String, String> expected = writeViolations();
        FailAfter.FAILURES_LEFT.set(2);
        runUntil(expected.size(), Duration.ofSeconds(90), 8);
        assertThat(FailAfter.FAILURES_LEFT.get()).isZero();
        Map<String, List<Map<String, AttributeValue>>> byReason =
                stack.breaks().stream().collect(Collectors.groupingBy(r -> r.get("reason").s()));
        assertThat(byReason.keySet()).containsExactlyInAnyOrderElementsOf(expected.keySet());
        byReason.forEach((reason, list) -> assertThat(list).as(reason).hasSize(1));
    }

    /** Fails the job (all subtasks share the budget) after {@code n} records per attempt. */
    static final class FailAfter implements MapFunction<RawChange, RawChange> {
        static final AtomicInteger FAILURES_LEFT = new AtomicInteger();
        private final int n;
        private transient int seen;

        FailAfter(int n) {
            this.n = n;
        }

        @Override
        public RawChange map(RawChange r) {
            if (++seen == n && FAILURES_LEFT.getAndUpdate(x -> Math.max(0, x - 1)) > 0) {
                throw new IllegalStateException("injected failure");
            }
            return r;
        }
    }

    private void runUntil(int expected, Duration timeout, int failAfter) throws Exception {
        runUntil(expected, timeout, failAfter, conf());
    }

    private void runUntil(int expected, Duration timeout, int failAfter, Configuration conf)
            throws Exception {
        runUntil(expected, timeout, failAfter, conf, () -> true);
    }

    private void runUntil(
            int expected,
            Duration timeout,
            int failAfter,
            Configuration conf,
            BooleanSupplier settled)
            throws Exception {
        Instant written = Instant.now(); // each test writes its ledger before the job starts
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(2);
        env.enableCheckpointing(500);
        env.setRestartStrategy(RestartStrategies.fixedDelayRestart(3, 200));
        env.getConfig().disableGenericTypes();
        RawChangeSource source = ChangeSources.fromConfig(conf, LedgerCheckJob.ROLE);
        RawChangeSource chaos =
                failAfter <= 0
                        ? source
                        : e ->
                                source.open(e)
                                        .map(new FailAfter(failAfter))
                                        .returns(SourceTypes.RAW_CHANGE)
                                        .uid("ledgercheck-chaos-v1");
        new LedgerCheckJob(
                        chaos,
                        BreakSinks.dynamoDb(conf),
                        new CollectSink<>("ledgerCheckDeadLetters"),
                        conf)
                .build(env);
        JobClient job = env.executeAsync("ledgercheck-it");
        try {
            // every deadline (txn, control, gap) falls at most one SLA after the last write
            InputWatermarks.await(
                    METRICS, job, LedgerCheckJob.BREAK_SINK_NAME, written.plus(SLA), timeout);
            long deadline = System.nanoTime() + timeout.toNanos();
            while (!settled.getAsBoolean()) {
                assertThat(System.nanoTime()).as("replays settled").isLessThan(deadline);
                Thread.sleep(200);
            }
            // the break sink writes at its checkpoint flush
            InputWatermarks.awaitCheckpoints(METRICS, job, 2, timeout);
            List<Map<String, AttributeValue>> breaks = stack.breaks();
            assertThat(breaks).as("breaks %s", breaks).hasSize(expected);
        } finally {
            if (!job.getJobStatus().get().isGloballyTerminalState()) {
                job.cancel().get();
            }
        }
    }
}
