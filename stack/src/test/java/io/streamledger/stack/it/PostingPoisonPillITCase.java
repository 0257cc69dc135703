package io.streamledger.stack.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.streamledger.aws.deadletter.DeadLetterEntry;
import io.streamledger.aws.deadletter.DeadLetterItems;
import io.streamledger.aws.deadletter.DeadLetterReader;
import io.streamledger.aws.deadletter.DeadLetterView;
import io.streamledger.aws.deadletter.ParkedGapItems;
import io.streamledger.aws.items.BreakItems;
import io.streamledger.aws.items.OpsAuditItems;
import io.streamledger.aws.ledger.LedgerItemCodec;
import io.streamledger.command.config.TableProvisioner;
import io.streamledger.command.ops.ParkedGapRepository;
import io.streamledger.jobs.config.JobOptions;
import io.streamledger.jobs.posting.PostingJob;
import io.streamledger.jobs.projection.DynamoDbProjectionSinks;
import io.streamledger.jobs.projection.ProjectionJob;
import io.streamledger.jobs.source.ChangeSources;
import io.streamledger.jobs.testing.TestRecords;
import io.streamledger.local.fault.FaultKind;
import io.streamledger.local.fault.FaultRule;
import io.streamledger.model.change.JsonFields;
import io.streamledger.model.change.KinesisDynamoDbRecordParser;
import io.streamledger.model.change.OutboxEvent;
import io.streamledger.model.change.OutboxEventCodec;
import io.streamledger.model.deadletter.DeadLetterIds;
import io.streamledger.model.deadletter.DeadLetterReason;
import io.streamledger.model.deadletter.DeadLetterStatus;
import io.streamledger.model.deadletter.ParkedGapStatus;
import io.streamledger.model.keys.AuthorityKey;
import io.streamledger.model.keys.DeadLetterKey;
import io.streamledger.model.keys.MonthCounterKey;
import io.streamledger.model.ledger.LedgerSchema;
import io.streamledger.model.ledger.PostingSequence;
import io.streamledger.model.table.Attr;
import io.streamledger.model.table.Tables;
import io.streamledger.operators.gate.GateEvent;
import io.streamledger.operators.posting.ExecutionOrderState;
import io.streamledger.operators.projection.AuthorityChanges;
import io.streamledger.sinks.posting.PostingRejections;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;
import org.apache.flink.api.common.JobStatus;
import org.apache.flink.api.common.restartstrategy.RestartStrategies;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.InjectMiniCluster;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.Put;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;

/**
 * No poison pills in the posting job (AP09/AP10 + CS08 + AP15): a fill of an account-month at its
 * cap is rejected with LEDGER_MONTH_LIMIT into the dead-letter table with its break, a fill whose
 * transaction keeps failing is quarantined after its retry budget, every other fill posts, and the
 * job never restarts (its RESTARTING timestamp stays 0 although a restart strategy is set); the
 * posting and projection jobs' dead letters replay with effects exactly once, a posting source
 * entry before the execution-order gate (a replay parked behind a gap says so on its entry).
 */
class PostingPoisonPillITCase {

    @RegisterExtension
    static final MiniClusterExtension CLUSTER =
            new MiniClusterExtension(
                    new org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration
                                    .Builder()
                            .setNumberTaskManagers(1)
                            .setNumberSlotsPerTaskManager(2)
                            .build());

    /** A small configured cap: the workload's house accounts stay far below it. */
    private static final long MONTH_LIMIT = 500;

    private static final int MAX_ATTEMPTS = 3;

    private LocalStack stack;

    @BeforeEach
    void start() {
        stack = new LocalStack("ppp" + UUID.randomUUID().toString().substring(0, 8) + "_", false);
        for (var spec : List.of(Tables.DEAD_LETTER, Tables.RECONCILIATION)) {
            TableProvisioner.create(stack.ddb, spec, stack.table(spec));
        }
    }

    @AfterEach
    void stop() {
        stack.close();
    }

    @Test
    void fullAccountMonthRejectsItsFillsWithBreaksOthersPostNoRestart(
            @InjectMiniCluster MiniCluster cluster) throws Exception {
        Workload w = new Workload(13, 2, 3, 2, 30, 3);
        Workload.Fill capped = w.fills.get(0);
        // the account-month at its cap before the job starts (the posting sequence's own counter)
        stack.ddb.transactWriteItems(
                b ->
                        b.transactItems(
                                LedgerItemCodec.counterPut(
                                        stack.table(Tables.LEDGER),
                                        new MonthCounterKey(
                                                capped.tenant(),
                                                capped.account(),
                                                LedgerSchema.month(executedAt(capped))),
                                        PostingSequence.Counter.EMPTY,
                                        new PostingSequence.Counter(
                                                MONTH_LIMIT, 0, MONTH_LIMIT, 0, 1),
                                        Instant.now())));
        Set<String> cappedFills =
                w.fills.stream()
                        .filter(
                                f ->
                                        f.tenant().equals(capped.tenant())
                                                && f.account().equals(capped.account()))
                        .map(f -> f.event().eventId())
                        .collect(Collectors.toSet());
        admit(w);

        JobClient job = runPostingJob(Map.of());
        awaitEveryFillSettled(job, w);
        assertNoRestart(cluster, job);

        Map<String, Map<String, AttributeValue>> dead = deadLetters(w);
        assertThat(dead.keySet())
                .as("rejected = the capped account's fills")
                .isEqualTo(cappedFills);
        assertThat(dead.values())
                .allSatisfy(
                        d -> {
                            assertThat(d.get(DeadLetterItems.A_REASON).s())
                                    .isEqualTo(DeadLetterReason.REJECTED_FILL.name());
                            assertThat(d.get(DeadLetterItems.A_DETAIL).s())
                                    .startsWith("LEDGER_MONTH_LIMIT");
                        });
        List<Map<String, AttributeValue>> breaks = stack.scan(stack.table(Tables.RECONCILIATION));
        assertThat(breaks).hasSize(cappedFills.size());
        assertThat(breaks)
                .allSatisfy(
                        b -> {
                            assertThat(b.get(BreakItems.A_REASON).s())
                                    .isEqualTo(PostingRejections.BREAK_REASON);
                            assertThat(b.get(BreakItems.A_SUBJECT).s()).isEqualTo(capped.account());
                            assertThat(b.get(BreakItems.A_EVIDENCE).s())
                                    .contains("LEDGER_MONTH_LIMIT");
                        });
        Set<String> posted = receipts();
        assertThat(posted).hasSize(w.fills.size() - cappedFills.size());
        assertThat(posted).doesNotContainAnyElementsOf(cappedFills);
        assertThat(
                        w.fills.stream()
                                .filter(f -> !f.tenant().equals(capped.tenant()))
                                .map(f -> f.event().eventId()))
                .as("the other tenant's fills posted")
                .isNotEmpty()
                .allSatisfy(id -> assertThat(posted).contains(id));
    }

    @Test
    void persistentFailureOfOneFillQuarantinesItOthersPostNoRestart(
            @InjectMiniCluster MiniCluster cluster) throws Exception {
        Workload w = new Workload(17, 2, 3, 2, 30, 3);
        String poisoned = w.fills.get(w.fills.size() / 2).event().eventId();
        admit(w);
        failEveryPostingOf(poisoned);

        JobClient job = runPostingJob(Map.of());
        awaitEveryFillSettled(job, w);
        assertNoRestart(cluster, job);

        Map<String, Map<String, AttributeValue>> dead = deadLetters(w);
        assertThat(dead.keySet()).containsExactly(poisoned);
        Map<String, AttributeValue> q = dead.get(poisoned);
        assertThat(q.get(DeadLetterItems.A_REASON).s())
                .isEqualTo(DeadLetterReason.QUARANTINED.name());
        assertThat(q.get(DeadLetterItems.A_DETAIL).s())
                .startsWith("RETRYABLE after " + MAX_ATTEMPTS + " attempts")
                .contains("InternalServerError");
        Set<String> posted = receipts();
        assertThat(posted).hasSize(w.fills.size() - 1).doesNotContain(poisoned);
        assertThat(stack.scan(stack.table(Tables.RECONCILIATION))).as("no break").isEmpty();
    }

    /**
     * CS08 replay through the job's own input: a quarantined fill replayed while its cause persists
     * returns to OPEN with attempts + 1; replayed after the cause is fixed it posts exactly once
     * and its entry is REPLAYED; an entry whose fill had been posted meanwhile replays as a counted
     * no-op (DUPLICATE at the receipt).
     */
    @Test
    void replayedDeadLettersGoBackThroughTheJobAndPostExactlyOnce(
            @InjectMiniCluster MiniCluster cluster) throws Exception {
        Workload w = new Workload(19, 2, 3, 2, 30, 3);
        Workload.Fill poisonedFill = w.fills.get(w.fills.size() / 2);
        String poisoned = poisonedFill.event().eventId();
        admit(w);
        FaultRule fault = failEveryPostingOf(poisoned);
        String tenants =
                w.fills.stream()
                        .map(Workload.Fill::tenant)
                        .distinct()
                        .collect(Collectors.joining(";"));
        JobClient job =
                runPostingJob(
                        Map.of(
                                JobOptions.REPLAY_TENANTS.key(),
                                tenants,
                                JobOptions.REPLAY_POLL_INTERVAL.key(),
                                "200 ms"));
        awaitEveryFillSettled(job, w);
        DeadLetterKey quarantined = entryKey(poisonedFill, DeadLetterReason.QUARANTINED);
        try {
            // the cause persists: the replay fails again and the entry is back in the open queue
            requestReplay(quarantined, 1);
            DeadLetterView failed =
                    awaitEntry(quarantined, v -> v.status() == DeadLetterStatus.OPEN);
            assertThat(failed.attempts()).isEqualTo(2);
            assertThat(failed.history())
                    .extracting(DeadLetterView.Change::action)
                    .containsExactly("REPLAY", "REPLAY_FAILED");
            assertThat(receipts()).doesNotContain(poisoned);

            // the cause fixed: the replay posts the fill once
            assertThat(stack.endpoint.faults().remove(fault.id())).isTrue();
            requestReplay(quarantined, failed.version());
            DeadLetterView replayed =
                    awaitEntry(quarantined, v -> v.status() == DeadLetterStatus.REPLAYED);
            assertThat(replayed.history().get(replayed.history().size() - 1).note())
                    .isEqualTo("APPLIED");
            assertThat(receipts()).hasSize(w.fills.size()).contains(poisoned);
            List<Map<String, AttributeValue>> rows = postingRowsOf(poisoned);
            assertThat(rows)
                    .isNotEmpty()
                    .allSatisfy(
                            r ->
                                    assertThat(r.get(LedgerSchema.LINE_COUNT).n())
                                            .isEqualTo(String.valueOf(rows.size())));

            // an entry of a fill that is posted already: its replay is a counted no-op
            DeadLetterKey applied = entryKey(poisonedFill, DeadLetterReason.REJECTED_FILL);
            stack.ddb.updateItem(
                    DeadLetterItems.upsert(
                            stack.table(Tables.DEAD_LETTER),
                            new DeadLetterEntry(
                                    poisonedFill.tenant(),
                                    PostingJob.ROLE,
                                    "test",
                                    DeadLetterReason.REJECTED_FILL,
                                    "set aside although posted",
                                    replayed.payload(),
                                    "json",
                                    PostingRejections.origin(poisoned),
                                    null,
                                    null,
                                    0,
                                    System.currentTimeMillis())));
            requestReplay(applied, 1);
            DeadLetterView noop = awaitEntry(applied, v -> v.status() == DeadLetterStatus.REPLAYED);
            assertThat(noop.history().get(noop.history().size() - 1).note()).isEqualTo("DUPLICATE");
            assertThat(postingRowsOf(poisoned)).hasSameSizeAs(rows);
            assertThat(receipts()).hasSize(w.fills.size());
        } finally {
            if (!job.getJobStatus().get().isGloballyTerminalState()) {
                assertNoRestart(cluster, job);
            }
        }
    }

    /**
     * CS07 on the posting gate: an account whose fill at sequence 2 never arrives parks its later
     * fills behind a gap that is listed as a durable parked-gap record; nothing is skipped without
     * a request; an operator's audited skip (ops audit item in the same transaction) releases the
     * parked fills, which post exactly once, and the record ends SKIPPED with who and why.
     */
    @Test
    void missingFillLeavesAListedGapAndAnAuditedSkipReleasesTheParkedFillsOnce(
            @InjectMiniCluster MiniCluster cluster) throws Exception {
        Workload w = new Workload(23, 1, 2, 2, 12, 3);
        List<OutboxEvent> events = sequenced(w);
        String tenant = w.fills.get(0).tenant();
        Map.Entry<String, List<OutboxEvent>> chosen = accountOfFourFills(w, events);
        String account = chosen.getKey();
        List<OutboxEvent> blocked = chosen.getValue();
        OutboxEvent missing = blocked.get(1); // accountExecSeq 2
        Set<String> parked =
                blocked.subList(2, blocked.size()).stream()
                        .map(OutboxEvent::eventId)
                        .collect(Collectors.toSet());
        String ctx = stack.table(Tables.CONTEXT);
        for (OutboxEvent e : events) {
            if (e != missing) {
                Map<String, AttributeValue> item = LocalStack.sdk(OutboxEventCodec.toItem(e));
                stack.ddb.putItem(b -> b.tableName(ctx).item(item));
            }
        }
        JobClient job =
                runPostingJob(
                        Map.of(
                                JobOptions.REPLAY_TENANTS.key(),
                                tenant,
                                JobOptions.REPLAY_POLL_INTERVAL.key(),
                                "200 ms"));
        ParkedGapRepository gaps =
                new ParkedGapRepository(
                        stack.ddb,
                        stack.table(Tables.DEAD_LETTER),
                        stack.table(Tables.RECONCILIATION),
                        java.time.Clock.systemUTC());
        try {
            int expectedBefore = events.size() - 1 - parked.size();
            // other accounts' fills may be read before this one's seq 1, so a gap at 1 can open
            // and move on; its records settle one checkpoint later: wait for the gap at 2
            ParkedGapItems.View open =
                    await(
                            () ->
                                    receipts().size() == expectedBefore
                                            ? openGap(gaps, tenant, account, 2, parked.size())
                                            : null);
            assertThat(open.missingVersion()).isEqualTo(2);
            assertThat(open.parkedCount()).isEqualTo(parked.size());
            assertThat(open.parkedVersions())
                    .containsExactlyElementsOf(
                            java.util.stream.LongStream.rangeClosed(3, blocked.size())
                                    .boxed()
                                    .toList());
            assertThat(open.operator()).isEqualTo(ExecutionOrderState.GATE_UID);
            assertThat(receipts()).as("never skipped unasked").doesNotContainAnyElementsOf(parked);

            ParkedGapRepository.Result asked =
                    gaps.requestSkip(tenant, open.ref(), null, "ops:alice", "fill withdrawn");
            assertThat(asked.outcome()).isEqualTo(ParkedGapRepository.Outcome.DONE);
            ParkedGapItems.View skipped =
                    await(
                            () ->
                                    gaps.show(tenant, open.ref())
                                            .filter(g -> g.status() == ParkedGapStatus.SKIPPED)
                                            .orElse(null));
            assertThat(skipped.closedBy()).isEqualTo("ops:alice");
            assertThat(skipped.skipReason()).isEqualTo("fill withdrawn");
            assertThat(skipped.history())
                    .extracting(ParkedGapItems.Change::action)
                    .containsExactly("SKIP", "SKIPPED");
            await(() -> receipts().size() == events.size() - 1 ? true : null);
            // every record of the account's gaps is settled (a gap that moved on is ARRIVED)
            await(
                    () ->
                            gaps
                                            .list(
                                                    tenant,
                                                    PostingJob.ROLE,
                                                    ParkedGapStatus.OPEN,
                                                    100,
                                                    null)
                                            .items()
                                            .stream()
                                            .noneMatch(
                                                    g ->
                                                            g.sourceKey()
                                                                    .equals(tenant + "/" + account))
                                    ? true
                                    : null);
            assertThat(receipts()).containsAll(parked).doesNotContain(missing.eventId());
            for (String id : parked) {
                List<Map<String, AttributeValue>> rows = postingRowsOf(id);
                assertThat(rows)
                        .as("one transaction of " + id)
                        .isNotEmpty()
                        .allSatisfy(
                                r ->
                                        assertThat(r.get(LedgerSchema.LINE_COUNT).n())
                                                .isEqualTo(String.valueOf(rows.size())));
            }
            assertThat(stack.scan(stack.table(Tables.RECONCILIATION)))
                    .filteredOn(
                            i ->
                                    OpsAuditItems.ENTITY.equals(i.get(Attr.ENTITY_TYPE).s())
                                            && open.ref().equals(i.get(OpsAuditItems.A_TARGET).s()))
                    .singleElement()
                    .satisfies(
                            a -> {
                                assertThat(a.get(OpsAuditItems.A_ACTION).s()).isEqualTo("SKIP");
                                assertThat(a.get(OpsAuditItems.A_DETAIL).s())
                                        .isEqualTo("fill withdrawn");
                            });
        } finally {
            if (!job.getJobStatus().get().isGloballyTerminalState()) {
                assertNoRestart(cluster, job);
            }
        }
    }

    /**
     * CS08 replay of the posting job's source dead letters before its execution-order gate (CS07):
     * an account whose fills at sequences 2 and 3 were set aside unparsed parks its later fills;
     * the replay of 3 parks too and its entry says so (REPLAY_PARKED, naming the gap record and the
     * missing version 2); the replay of 2 releases the account, and both entries settle REPLAYED
     * with every fill of the account posted once.
     */
    @Test
    void sourceDeadLettersReplayBeforeTheGateAndAParkedOneSaysWhyUntilItsGapCloses(
            @InjectMiniCluster MiniCluster cluster) throws Exception {
        Workload w = new Workload(23, 1, 2, 2, 12, 3);
        List<OutboxEvent> events = sequenced(w);
        String tenant = w.fills.get(0).tenant();
        Map.Entry<String, List<OutboxEvent>> chosen = accountOfFourFills(w, events);
        String account = chosen.getKey();
        List<OutboxEvent> blocked = chosen.getValue();
        List<OutboxEvent> unparsed = blocked.subList(1, 3); // sequences 2 and 3
        String ctx = stack.table(Tables.CONTEXT);
        for (OutboxEvent e : events) {
            if (!unparsed.contains(e)) {
                Map<String, AttributeValue> item = LocalStack.sdk(OutboxEventCodec.toItem(e));
                stack.ddb.putItem(b -> b.tableName(ctx).item(item));
            }
        }
        // what the parse step set aside, as a fixed mapper now reads it
        List<DeadLetterKey> entries = new ArrayList<>();
        for (OutboxEvent e : unparsed) {
            DeadLetterEntry d =
                    new DeadLetterEntry(
                            null,
                            PostingJob.ROLE,
                            io.streamledger.operators.posting.PostingState.PARSE_UID,
                            DeadLetterReason.UNPARSEABLE_RECORD,
                            "set aside by an older mapper",
                            streamsRecord(e),
                            "utf-8",
                            "test:" + e.eventId(),
                            null,
                            null,
                            0,
                            System.currentTimeMillis());
            stack.ddb.updateItem(DeadLetterItems.upsert(stack.table(Tables.DEAD_LETTER), d));
            entries.add(d.key());
        }
        JobClient job =
                runPostingJob(
                        Map.of(
                                JobOptions.REPLAY_TENANTS.key(),
                                tenant + ";" + DeadLetterKey.UNKNOWN_TENANT,
                                JobOptions.REPLAY_POLL_INTERVAL.key(),
                                "200 ms"));
        try {
            int posted = events.size() - 2 - (blocked.size() - 3);
            await(() -> receipts().size() == posted ? true : null);

            requestReplay(entries.get(1), 1);
            DeadLetterView parked =
                    awaitEntry(entries.get(1), v -> v.status() == DeadLetterStatus.REPLAY_PARKED);
            String key = tenant + "/" + account;
            assertThat(parked.parkedBehind())
                    .isEqualTo(
                            "behind gap "
                                    + ParkedGapItems.ref(
                                            PostingJob.ROLE,
                                            io.streamledger.model.deadletter.ParkedGapIds.of(
                                                    PostingJob.ROLE,
                                                    ExecutionOrderState.GATE_UID,
                                                    key,
                                                    2))
                                    + " of "
                                    + key
                                    + ": waits for version 2 (this is version 3)");
            assertThat(receipts()).hasSize(posted).doesNotContain(unparsed.get(1).eventId());

            requestReplay(entries.get(0), 1);
            for (DeadLetterKey k : entries) {
                DeadLetterView done = awaitEntry(k, v -> v.status() == DeadLetterStatus.REPLAYED);
                assertThat(done.history().get(done.history().size() - 1).note())
                        .isEqualTo("APPLIED");
                assertThat(done.attempts()).isEqualTo(1);
            }
            assertThat(awaitEntry(entries.get(1), v -> true).history())
                    .extracting(DeadLetterView.Change::action)
                    .containsExactly("REPLAY", "REPLAY_PARKED", "REPLAYED");
            await(() -> receipts().size() == events.size() ? true : null);
            for (OutboxEvent e : blocked) {
                List<Map<String, AttributeValue>> rows = postingRowsOf(e.eventId());
                assertThat(rows)
                        .as("one transaction of " + e.eventId())
                        .isNotEmpty()
                        .allSatisfy(
                                r ->
                                        assertThat(r.get(LedgerSchema.LINE_COUNT).n())
                                                .isEqualTo(String.valueOf(rows.size())));
            }
        } finally {
            if (!job.getJobStatus().get().isGloballyTerminalState()) {
                assertNoRestart(cluster, job);
            }
        }
    }

    /** The first account (by id) with at least four fills, and its sequenced fills in order. */
    private static Map.Entry<String, List<OutboxEvent>> accountOfFourFills(
            Workload w, List<OutboxEvent> events) {
        Map<String, List<OutboxEvent>> byAccount = new java.util.TreeMap<>();
        for (int i = 0; i < events.size(); i++) {
            byAccount
                    .computeIfAbsent(w.fills.get(i).account(), a -> new ArrayList<>())
                    .add(events.get(i));
        }
        return byAccount.entrySet().stream()
                .filter(a -> a.getValue().size() >= 4)
                .findFirst()
                .orElseThrow();
    }

    /** {@code e}'s outbox item as the DynamoDB Streams connector hands it to the parse step. */
    private static String streamsRecord(OutboxEvent e) {
        Map<String, io.streamledger.model.change.AttributeValue> item = OutboxEventCodec.toItem(e);
        var root = JsonFields.MAPPER.createObjectNode();
        root.put("eventID", "dl-" + e.eventId());
        root.put("eventName", "INSERT");
        root.put("eventVersion", "1.1");
        root.put("eventSource", "aws:dynamodb");
        root.put("awsRegion", "us-east-1");
        var ddb = root.putObject("dynamodb");
        ddb.put("ApproximateCreationDateTime", System.currentTimeMillis()); // connector: millis
        ddb.set(
                "Keys",
                io.streamledger.model.change.AttributeValueJson.writeItem(
                        Map.of(Attr.PK, item.get(Attr.PK), Attr.SK, item.get(Attr.SK))));
        ddb.set("NewImage", io.streamledger.model.change.AttributeValueJson.writeItem(item));
        ddb.put("SequenceNumber", "4711");
        ddb.put("SizeBytes", 100);
        ddb.put("StreamViewType", "NEW_AND_OLD_IMAGES");
        return root.toString();
    }

    private static ParkedGapItems.View openGap(
            ParkedGapRepository gaps, String tenant, String account, long missing, int parked) {
        return gaps.list(tenant, PostingJob.ROLE, ParkedGapStatus.OPEN, 100, null).items().stream()
                .filter(g -> g.sourceKey().equals(tenant + "/" + account))
                .filter(g -> g.missingVersion() == missing && g.parkedCount() == parked)
                .findFirst()
                .orElse(null);
    }

    /** The workload's fills stamped with their account's execution sequence (as CS04 does). */
    private static List<OutboxEvent> sequenced(Workload w) {
        Map<String, Long> next = new HashMap<>();
        List<OutboxEvent> out = new ArrayList<>();
        for (Workload.Fill f : w.fills) {
            out.add(
                    Workload.withAccountExecSeq(
                            f.event(), next.merge(f.tenant() + "/" + f.account(), 1L, Long::sum)));
        }
        return out;
    }

    /**
     * The projection job's dead letters replay through its gate (CS08 + AP13): a gate entry's event
     * is applied once and a second request for it is a stale no-op; a source entry that still does
     * not parse returns to OPEN with attempts + 1. Small: one authority, two entries.
     */
    @Test
    void projectionDeadLettersReplayThroughTheGateOnce(@InjectMiniCluster MiniCluster cluster)
            throws Exception {
        String dlq = stack.table(Tables.DEAD_LETTER);
        AuthorityKey k = AuthorityKey.cash("t1", "a1", "USD");
        GateEvent v2 =
                AuthorityChanges.toGateEvent(
                                KinesisDynamoDbRecordParser.parse(authority(k, 2, "12.50"), null))
                        .orElseThrow();
        long now = System.currentTimeMillis();
        DeadLetterEntry parked =
                new DeadLetterEntry(
                        "t1",
                        ProjectionJob.ROLE,
                        ProjectionJob.GATE_OPERATOR,
                        DeadLetterReason.PARK_OVERFLOW,
                        "set aside by the gate",
                        JsonFields.MAPPER.writeValueAsString(v2),
                        "json",
                        "event:" + v2.getEventId(),
                        null,
                        v2.getSourceKey(),
                        2,
                        now);
        DeadLetterEntry garbage =
                new DeadLetterEntry(
                        null,
                        ProjectionJob.ROLE,
                        ProjectionJob.PARSE_UID,
                        DeadLetterReason.UNPARSEABLE_RECORD,
                        "not a record",
                        "not a record",
                        "utf-8",
                        "payload:not a record",
                        null,
                        null,
                        0,
                        now);
        for (DeadLetterEntry e : List.of(parked, garbage)) {
            stack.ddb.updateItem(DeadLetterItems.upsert(dlq, e));
            requestReplay(e.key(), 1);
        }
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(1);
        env.enableCheckpointing(200);
        Configuration conf = stack.config();
        conf.set(JobOptions.TRANSPORT, JobOptions.TransportKind.KINESIS);
        conf.set(JobOptions.KINESIS_PAYLOAD, JobOptions.KinesisPayload.DYNAMODB_CHANGE);
        conf.set(JobOptions.REPLAY_TENANTS, List.of("t1", DeadLetterKey.UNKNOWN_TENANT));
        conf.set(JobOptions.REPLAY_POLL_INTERVAL, Duration.ofMillis(200));
        // the job's own stream holds version 1 only
        new ProjectionJob(
                        TestRecords.source(
                                List.of(TestRecords.kinesis(1, authority(k, 1, "10.00")))),
                        new DynamoDbProjectionSinks(conf),
                        conf)
                .build(env);
        JobClient job = env.executeAsync("projection-replay-it");
        try {
            DeadLetterView applied =
                    awaitEntry(parked.key(), v -> v.status() == DeadLetterStatus.REPLAYED);
            assertThat(applied.history().get(applied.history().size() - 1).note())
                    .isEqualTo("APPLIED");
            assertThat(await(() -> viewVersion() == 2 ? true : null)).isTrue();

            DeadLetterView failed =
                    awaitEntry(garbage.key(), v -> v.status() == DeadLetterStatus.OPEN);
            assertThat(failed.attempts()).isEqualTo(2);
            assertThat(failed.history())
                    .extracting(DeadLetterView.Change::action)
                    .containsExactly("REPLAY", "REPLAY_FAILED");
            assertThat(failed.history().get(1).note())
                    .startsWith("not re-injectable: still UNPARSEABLE_RECORD");

            // a second request for the applied event (no operator route does this): a no-op
            stack.ddb.updateItem(
                    DeadLetterItems.transition(
                            dlq,
                            parked.key(),
                            DeadLetterStatus.REPLAYED,
                            applied.version(),
                            DeadLetterStatus.REPLAY_REQUESTED,
                            "REPLAY",
                            "ops:test",
                            "again",
                            Instant.now()));
            DeadLetterView again =
                    awaitEntry(
                            parked.key(),
                            v ->
                                    v.status() == DeadLetterStatus.REPLAYED
                                            && v.version() > applied.version() + 1);
            assertThat(again.history().get(again.history().size() - 1).note())
                    .isIn("STALE", "DUPLICATE");
            assertThat(again.attempts()).isEqualTo(1);
            assertThat(viewVersion()).isEqualTo(2);
        } finally {
            job.cancel().get();
        }
    }

    /** A Kinesis "for DynamoDB" change of authority {@code k} at {@code version}. */
    private static String authority(AuthorityKey k, long version, String posted) {
        Map<String, String> image = new java.util.LinkedHashMap<>();
        image.put("PK", k.pk());
        image.put("SK", k.sk());
        image.put(LedgerSchema.VERSION, "N:" + version);
        image.put(LedgerSchema.POSTED, "N:" + posted);
        image.put(LedgerSchema.RESERVED, "N:0");
        return TestRecords.insert("ev-" + version, "Ledger", 1_764_496_800_000L + version, image);
    }

    /** The Portfolio row's source version (the test writes one authority), 0 if none. */
    private long viewVersion() {
        return stack.scan(stack.portfolioTable()).stream()
                .filter(r -> r.containsKey("sourceVersion"))
                .mapToLong(r -> Long.parseLong(r.get("sourceVersion").n()))
                .max()
                .orElse(0);
    }

    private static <T> T await(java.util.concurrent.Callable<T> probe) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (true) {
            T v = probe.call();
            if (v != null) {
                return v;
            }
            assertThat(System.nanoTime()).as("condition reached in time").isLessThan(deadline);
            Thread.sleep(200);
        }
    }

    /** Every posting transaction of that one fill fails with a 500; all else is served. */
    private FaultRule failEveryPostingOf(String eventId) {
        return stack.endpoint
                .faults()
                .add(
                        FaultRule.of(FaultKind.INTERNAL_ERROR)
                                .operation("TransactWriteItems")
                                .table(stack.table(Tables.LEDGER))
                                .contains(eventId));
    }

    private static DeadLetterKey entryKey(Workload.Fill f, DeadLetterReason reason) {
        return new DeadLetterKey(
                f.tenant(),
                PostingJob.ROLE,
                reason.name(),
                DeadLetterIds.of(PostingJob.ROLE, PostingRejections.origin(f.event().eventId())));
    }

    /** An operator's replay request (the command service's transition, done directly). */
    private void requestReplay(DeadLetterKey key, long version) {
        stack.ddb.updateItem(
                DeadLetterItems.transition(
                        stack.table(Tables.DEAD_LETTER),
                        key,
                        DeadLetterStatus.OPEN,
                        version,
                        DeadLetterStatus.REPLAY_REQUESTED,
                        "REPLAY",
                        "ops:test",
                        "replay",
                        Instant.now()));
    }

    private DeadLetterView awaitEntry(
            DeadLetterKey key, java.util.function.Predicate<DeadLetterView> done)
            throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        DeadLetterReader reader = new DeadLetterReader(stack.ddb, stack.table(Tables.DEAD_LETTER));
        while (true) {
            DeadLetterView v = reader.get(key).orElseThrow();
            if (done.test(v)) {
                return v;
            }
            assertThat(System.nanoTime()).as("entry settled: " + v).isLessThan(deadline);
            Thread.sleep(200);
        }
    }

    /** The posting rows a fill wrote (its event id is on each). */
    private List<Map<String, AttributeValue>> postingRowsOf(String eventId) {
        return stack.scan(stack.table(Tables.LEDGER)).stream()
                .filter(i -> LedgerSchema.isPosting(i.get(Attr.SK).s()))
                .filter(i -> i.get(LedgerSchema.EVENT_ID) != null)
                .filter(i -> eventId.equals(i.get(LedgerSchema.EVENT_ID).s()))
                .toList();
    }

    private JobClient runPostingJob(Map<String, String> extra) throws Exception {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(2);
        env.enableCheckpointing(500);
        // a restart strategy, so a record that failed the job would show up as a restart
        env.setRestartStrategy(RestartStrategies.fixedDelayRestart(3, 200));
        Configuration conf = stack.configReading(Tables.CONTEXT);
        conf.set(JobOptions.POSTING_BACKOFF_BASE, Duration.ofMillis(5));
        conf.set(JobOptions.POSTING_BACKOFF_MAX, Duration.ofMillis(20));
        conf.set(JobOptions.POSTING_MAX_ATTEMPTS, MAX_ATTEMPTS);
        conf.set(JobOptions.POSTING_MONTH_LIMIT, MONTH_LIMIT);
        extra.forEach(conf::setString);
        new PostingJob(
                        ChangeSources.fromConfig(conf, PostingJob.ROLE),
                        PostingJob.Sinks.dynamoDb(conf),
                        conf)
                .build(env);
        return env.executeAsync("posting-poison-pill-it");
    }

    private void awaitEveryFillSettled(JobClient job, Workload w) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(90).toNanos();
        try {
            while (receipts().size() + deadLetters(w).size() < w.fills.size()) {
                assertThat(System.nanoTime()).as("every fill settled").isLessThan(deadline);
                assertThat(job.getJobStatus().get().isGloballyTerminalState()).isFalse();
                Thread.sleep(300);
            }
            assertThat(job.getJobStatus().get()).isEqualTo(JobStatus.RUNNING);
        } catch (AssertionError | Exception e) {
            job.cancel().get();
            throw e;
        }
    }

    private static void assertNoRestart(MiniCluster cluster, JobClient job) throws Exception {
        var graph = cluster.getExecutionGraph(job.getJobID()).get();
        job.cancel().get();
        assertThat(graph.getStatusTimestamp(JobStatus.RESTARTING))
                .as("the job never restarted")
                .isZero();
        assertThat(graph.getFailureInfo()).as("no failure").isNull();
    }

    private void admit(Workload w) {
        String ctx = stack.table(Tables.CONTEXT);
        int f = 0;
        for (int o = 0; o < w.orderAccepted.size(); o++) {
            List<TransactWriteItem> tx = new ArrayList<>();
            tx.add(put(ctx, LocalStack.sdk(OutboxEventCodec.toItem(w.orderAccepted.get(o)))));
            for (int k = 0; k < 3 && f < w.fills.size(); k++, f++) {
                tx.add(put(ctx, LocalStack.sdk(OutboxEventCodec.toItem(w.fills.get(f).event()))));
            }
            stack.ddb.transactWriteItems(b -> b.transactItems(tx));
        }
        for (; f < w.fills.size(); f++) {
            Map<String, AttributeValue> item =
                    LocalStack.sdk(OutboxEventCodec.toItem(w.fills.get(f).event()));
            stack.ddb.putItem(b -> b.tableName(ctx).item(item));
        }
    }

    /** Event ids that have a posting receipt. */
    private Set<String> receipts() {
        Set<String> out = new HashSet<>();
        for (Map<String, AttributeValue> i : stack.scan(stack.table(Tables.INBOX))) {
            out.add(i.get(Attr.EVENT_ID).s());
        }
        return out;
    }

    /** Dead-letter entries by the fill's event id. */
    private Map<String, Map<String, AttributeValue>> deadLetters(Workload w) {
        return stack.scan(stack.table(Tables.DEAD_LETTER)).stream()
                .filter(d -> DeadLetterItems.ENTITY.equals(d.get(Attr.ENTITY_TYPE).s()))
                .collect(
                        Collectors.toMap(
                                d ->
                                        d.get(DeadLetterItems.A_ORIGIN)
                                                .s()
                                                .substring("event:".length()),
                                d -> d));
    }

    private static Instant executedAt(Workload.Fill f) {
        return Instant.parse(
                ((io.streamledger.model.change.AttributeValue.S)
                                f.event().payload().get("executedAt"))
                        .value());
    }

    private static TransactWriteItem put(String table, Map<String, AttributeValue> item) {
        return TransactWriteItem.builder()
                .put(Put.builder().tableName(table).item(item).build())
                .build();
    }
}
