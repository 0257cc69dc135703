package io.streamledger.command.ops;

import io.streamledger.aws.items.Av;
import io.streamledger.aws.items.BreakItems;
import io.streamledger.aws.items.BreakStatus;
import io.streamledger.aws.items.BreakView;
import io.streamledger.aws.items.OpsAuditItems;
import io.streamledger.aws.metrics.ApTag;
import io.streamledger.aws.update.Condition;
import io.streamledger.aws.update.ConditionalUpdate;
import io.streamledger.model.keys.BreakDueKey;
import io.streamledger.model.keys.KeyFields;
import io.streamledger.model.keys.KeyPaths;
import io.streamledger.model.keys.KeyTime;
import io.streamledger.model.keys.ReconBreakKey;
import io.streamledger.model.table.Attr;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.PriorityQueue;
import javax.annotation.Nullable;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;
import software.amazon.awssdk.services.dynamodb.model.Update;

/**
 * AP15 break operations for Finance Ops: list due breaks of a tenant across every status shard of
 * the sparse IDX15 queue with one compound cursor (fan out, merge by {@code DUE#at#batch#id}), show
 * one break from its IDX14 base item (strong), resolve only by a conditional write (expected status
 * and version, resolver, evidence; the queue keys are removed), escalate overdue breaks page by
 * page.
 */
public final class BreakRepository {
    /** The metrics tag of its DynamoDB calls: AP15 breaks (IDX14, IDX15). */
    private static final String AP = "AP15";

    /** Largest page; each shard query reads at most this many keys per page. */
    public static final int MAX_PAGE = 100;

    /** Due-queue pages of {@link #MAX_PAGE} one {@link #escalateOverdue} call reads at most. */
    public static final int MAX_ESCALATION_PAGES = 20;

    /** Breaks one {@link #escalateOverdue} call escalates at most; run it again for the rest. */
    public static final int MAX_ESCALATIONS_PER_CALL = 500;

    /** Statuses that are in the due queue, in fan-out order. */
    static final List<BreakStatus> QUEUED = List.of(BreakStatus.OPEN, BreakStatus.ESCALATED);

    private static final String CURSOR_VERSION = "c2";

    private final DynamoDbClient ddb;
    private final String table;
    private final Clock clock;

    private final int maxEscalationsPerCall;

    public BreakRepository(DynamoDbClient ddb, String table, Clock clock) {
        this(ddb, table, clock, MAX_ESCALATIONS_PER_CALL);
    }

    /** With a smaller per-call escalation bound (tests). */
    BreakRepository(DynamoDbClient ddb, String table, Clock clock, int maxEscalationsPerCall) {
        if (maxEscalationsPerCall < 1 || maxEscalationsPerCall > MAX_ESCALATIONS_PER_CALL) {
            throw new IllegalArgumentException(
                    "maxEscalationsPerCall must be in [1, " + MAX_ESCALATIONS_PER_CALL + "]");
        }
        this.ddb = ddb;
        this.table = table;
        this.clock = clock;
        this.maxEscalationsPerCall = maxEscalationsPerCall;
    }

    /** A page of due breaks; {@code cursor} is null on the last page. */
    public record Page(List<DueBreak> items, @Nullable String cursor) {}

    /** What a conditional resolve or escalate did. */
    public enum Outcome {
        DONE,
        NOT_FOUND,
        CONFLICT
    }

    public record Result(Outcome outcome, @Nullable BreakView current) {}

    /** Position of one (status, shard) stream inside the compound cursor. */
    private static final class Stream {
        final BreakStatus status;
        final int shard;
        boolean exhausted;
        @Nullable Map<String, AttributeValue> after; // last consumed key (GSI + base keys)
        final List<Map<String, AttributeValue>> buffer = new ArrayList<>();
        int next;
        boolean moreInDynamo;

        Stream(BreakStatus status, int shard) {
            this.status = status;
            this.shard = shard;
        }

        String pk(String tenant) {
            return KeyPaths.IDX15_PK.build(tenant, status.name(), KeyFields.shard("shard", shard));
        }
    }

    /**
     * Due breaks (dueAt <= cutoff) of {@code tenant} in (dueAt, batch, id) order.
     *
     * @param cursor null for the first page, else the previous page's cursor (same tenant/cutoff)
     * @throws IllegalArgumentException for a bad limit or a cursor that is not this listing's
     */
    public Page listDue(String tenant, Instant cutoff, @Nullable String cursor, int limit) {
        return listDue(tenant, cutoff, QUEUED, cursor, limit);
    }

    /**
     * Due breaks of the given queued statuses only (the cursor is bound to this status set).
     *
     * @throws IllegalArgumentException for RESOLVED (not in the queue), a bad limit or cursor
     */
    public Page listDue(
            String tenant,
            Instant cutoff,
            List<BreakStatus> statuses,
            @Nullable String cursor,
            int limit) {
        if (limit < 1 || limit > MAX_PAGE) {
            throw new IllegalArgumentException("limit must be in [1, " + MAX_PAGE + "]");
        }
        if (statuses.isEmpty() || !statuses.stream().allMatch(BreakStatus::queued)) {
            throw new IllegalArgumentException("only OPEN and ESCALATED breaks are in the queue");
        }
        List<BreakStatus> chosen = QUEUED.stream().filter(statuses::contains).toList();
        String cutoffText = KeyTime.format(cutoff);
        List<Stream> streams =
                cursor == null ? fresh(chosen) : decode(cursor, tenant, cutoffText, chosen);
        PriorityQueue<Stream> heads =
                new PriorityQueue<>((a, b) -> sk(head(a)).compareTo(sk(head(b))));
        for (Stream s : streams) {
            if (!s.exhausted) {
                fetch(s, tenant, cutoffText, limit);
                if (s.next < s.buffer.size()) {
                    heads.add(s);
                } else {
                    s.exhausted = true;
                }
            }
        }
        List<DueBreak> out = new ArrayList<>();
        while (out.size() < limit && !heads.isEmpty()) {
            Stream s = heads.poll();
            Map<String, AttributeValue> item = s.buffer.get(s.next++);
            s.after = key(item);
            BreakDueKey k = BreakDueKey.parse(item.get(Attr.GSI1PK).s(), item.get(Attr.GSI1SK).s());
            out.add(
                    new DueBreak(
                            k.status(),
                            k.shard(),
                            KeyTime.format(k.dueAt()),
                            k.batchId(),
                            k.breakId()));
            if (s.next < s.buffer.size()) {
                heads.add(s);
            } else if (!s.moreInDynamo) {
                s.exhausted = true;
            }
        }
        boolean done = streams.stream().allMatch(s -> s.exhausted);
        return new Page(out, done ? null : encode(streams, tenant, cutoffText, chosen));
    }

    private static List<Stream> fresh(List<BreakStatus> statuses) {
        List<Stream> streams = new ArrayList<>();
        for (BreakStatus st : statuses) {
            for (int shard = 0; shard < BreakItems.DUE_SHARDS; shard++) {
                streams.add(new Stream(st, shard));
            }
        }
        return streams;
    }

    private void fetch(Stream s, String tenant, String cutoffText, int limit) {
        Map<String, String> names = Map.of("#pk", Attr.GSI1PK, "#sk", Attr.GSI1SK);
        Map<String, AttributeValue> values = new HashMap<>();
        values.put(":pk", AttributeValue.fromS(s.pk(tenant)));
        values.put(":lo", AttributeValue.fromS("DUE#"));
        values.put(":hi", AttributeValue.fromS("DUE#" + cutoffText + "#\uffff"));
        QueryRequest.Builder q =
                ApTag.on(QueryRequest.builder(), AP)
                        .tableName(table)
                        .indexName("GSI1")
                        .keyConditionExpression("#pk = :pk AND #sk BETWEEN :lo AND :hi")
                        .expressionAttributeNames(names)
                        .expressionAttributeValues(values)
                        .limit(limit);
        if (s.after != null) {
            q.exclusiveStartKey(s.after);
        }
        QueryResponse r = ddb.query(q.build());
        s.buffer.addAll(r.items());
        s.moreInDynamo = r.hasLastEvaluatedKey() && !r.lastEvaluatedKey().isEmpty();
    }

    private static Map<String, AttributeValue> head(Stream s) {
        return s.buffer.get(s.next);
    }

    private static String sk(Map<String, AttributeValue> item) {
        return item.get(Attr.GSI1SK).s();
    }

    private static Map<String, AttributeValue> key(Map<String, AttributeValue> item) {
        return Map.of(
                Attr.GSI1PK, item.get(Attr.GSI1PK),
                Attr.GSI1SK, item.get(Attr.GSI1SK),
                Attr.PK, item.get(Attr.PK),
                Attr.SK, item.get(Attr.SK));
    }

    // cursor: base64url of lines; version|tenant|cutoff|statuses; then status|shard|state|sk|pk|bsk
    private static String encode(
            List<Stream> streams, String tenant, String cutoff, List<BreakStatus> statuses) {
        StringBuilder b =
                new StringBuilder(CURSOR_VERSION)
                        .append('\n')
                        .append(tenant)
                        .append('\n')
                        .append(cutoff)
                        .append('\n')
                        .append(statusSet(statuses));
        for (Stream s : streams) {
            b.append('\n').append(s.status).append('\n').append(s.shard).append('\n');
            if (s.exhausted) {
                b.append("X\n\n\n");
            } else if (s.after == null) {
                b.append("S\n\n\n");
            } else {
                b.append("A\n")
                        .append(s.after.get(Attr.GSI1SK).s())
                        .append('\n')
                        .append(s.after.get(Attr.PK).s())
                        .append('\n')
                        .append(s.after.get(Attr.SK).s());
            }
        }
        return Base64.getUrlEncoder()
                .withoutPadding()
                .encodeToString(b.toString().getBytes(StandardCharsets.UTF_8));
    }

    private static String statusSet(List<BreakStatus> statuses) {
        return String.join(",", statuses.stream().map(Enum::name).toList());
    }

    private static List<Stream> decode(
            String cursor, String tenant, String cutoff, List<BreakStatus> statuses) {
        String text;
        try {
            text = new String(Base64.getUrlDecoder().decode(cursor), StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("invalid cursor: not base64url");
        }
        String[] f = text.split("\n", -1);
        int expectedLines = 4 + 6 * statuses.size() * BreakItems.DUE_SHARDS;
        if (f.length != expectedLines || !CURSOR_VERSION.equals(f[0])) {
            throw new IllegalArgumentException("invalid cursor: unknown version or shape");
        }
        if (!f[1].equals(tenant) || !f[2].equals(cutoff) || !f[3].equals(statusSet(statuses))) {
            throw new IllegalArgumentException(
                    "invalid cursor: it belongs to another tenant, cutoff or status filter");
        }
        List<Stream> streams = new ArrayList<>();
        for (int i = 4; i < f.length; i += 6) {
            Stream s;
            try {
                s = new Stream(BreakStatus.valueOf(f[i]), Integer.parseInt(f[i + 1]));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("invalid cursor: bad stream " + f[i]);
            }
            switch (f[i + 2]) {
                case "X" -> s.exhausted = true;
                case "S" -> {}
                case "A" ->
                        s.after =
                                Map.of(
                                        Attr.GSI1PK, AttributeValue.fromS(s.pk(tenant)),
                                        Attr.GSI1SK, AttributeValue.fromS(f[i + 3]),
                                        Attr.PK, AttributeValue.fromS(f[i + 4]),
                                        Attr.SK, AttributeValue.fromS(f[i + 5]));
                default -> throw new IllegalArgumentException("invalid cursor: bad state");
            }
            streams.add(s);
        }
        return streams;
    }

    /** Strongly consistent read of one break's base item. */
    public Optional<BreakView> get(String tenant, String batchId, String breakId) {
        ReconBreakKey k = new ReconBreakKey(tenant, batchId, breakId);
        Map<String, AttributeValue> item = StrongRead.item(ddb, AP, table, BreakItems.key(k));
        return item == null ? Optional.empty() : Optional.of(BreakItems.view(item));
    }

    /**
     * Resolves a break only if it still has {@code expectedStatus} and {@code expectedVersion}:
     * status RESOLVED, version + 1, resolver and evidence recorded, due-queue keys removed; the
     * audit item (actor parsed from {@code resolver}) is written in the same transaction.
     *
     * @throws IllegalArgumentException for a blank resolver/evidence or expecting RESOLVED
     */
    public Result resolve(
            String tenant,
            String batchId,
            String breakId,
            BreakStatus expectedStatus,
            long expectedVersion,
            String resolver,
            String resolutionEvidence) {
        return resolve(
                tenant,
                batchId,
                breakId,
                expectedStatus,
                expectedVersion,
                resolver,
                OpsActor.named(resolver),
                resolutionEvidence);
    }

    /**
     * Resolves as above, recorded as {@code resolvedBy} and audited as {@code actor}.
     *
     * @throws IllegalArgumentException for a blank resolver/evidence or expecting RESOLVED
     */
    public Result resolve(
            String tenant,
            String batchId,
            String breakId,
            BreakStatus expectedStatus,
            long expectedVersion,
            String resolvedBy,
            OpsActor actor,
            String resolutionEvidence) {
        if (resolvedBy == null || resolvedBy.isBlank()) {
            throw new IllegalArgumentException("a resolver identity is required");
        }
        if (resolutionEvidence == null || resolutionEvidence.isBlank()) {
            throw new IllegalArgumentException("resolution evidence is required");
        }
        if (!expectedStatus.queued()) {
            throw new IllegalArgumentException("only OPEN or ESCALATED breaks can be resolved");
        }
        Instant now = clock.instant();
        ConditionalUpdate update =
                ConditionalUpdate.builder()
                        .set(BreakItems.A_STATUS, Av.s(BreakStatus.RESOLVED.name()))
                        .set(Attr.VERSION, Av.n(expectedVersion + 1))
                        .set(BreakItems.A_RESOLVED_BY, Av.s(resolvedBy))
                        .set(BreakItems.A_RESOLVED_AT, Av.s(KeyTime.format(now)))
                        .set(BreakItems.A_RESOLUTION, Av.s(resolutionEvidence))
                        .remove(Attr.GSI1PK, Attr.GSI1SK)
                        .when(Condition.exists(Attr.PK))
                        .when(Condition.eq(BreakItems.A_STATUS, Av.s(expectedStatus.name())))
                        .when(Condition.eq(Attr.VERSION, Av.n(expectedVersion)))
                        .build();
        return audited(
                new ReconBreakKey(tenant, batchId, breakId),
                update,
                audit(
                        tenant,
                        batchId,
                        breakId,
                        now,
                        actor,
                        "RESOLVE",
                        expectedStatus,
                        BreakStatus.RESOLVED,
                        expectedVersion,
                        resolutionEvidence));
    }

    /**
     * Hands a queued break to a new owner, conditional on its status and version (version + 1).
     *
     * @param detail JSON the audit item records (owner, note)
     */
    public Result assign(
            String tenant,
            String batchId,
            String breakId,
            BreakStatus expectedStatus,
            long expectedVersion,
            String owner,
            OpsActor actor,
            String detail) {
        if (owner == null || owner.isBlank()) {
            throw new IllegalArgumentException("an owner is required");
        }
        if (!expectedStatus.queued()) {
            throw new IllegalArgumentException("a RESOLVED break has no owner to change");
        }
        ConditionalUpdate update =
                ConditionalUpdate.builder()
                        .set(BreakItems.A_OWNER, Av.s(owner))
                        .set(Attr.VERSION, Av.n(expectedVersion + 1))
                        .when(Condition.exists(Attr.PK))
                        .when(Condition.eq(BreakItems.A_STATUS, Av.s(expectedStatus.name())))
                        .when(Condition.eq(Attr.VERSION, Av.n(expectedVersion)))
                        .build();
        return audited(
                new ReconBreakKey(tenant, batchId, breakId),
                update,
                audit(
                        tenant,
                        batchId,
                        breakId,
                        clock.instant(),
                        actor,
                        "ASSIGN",
                        expectedStatus,
                        expectedStatus,
                        expectedVersion,
                        detail));
    }

    /**
     * One OPEN break at {@code expectedVersion} → ESCALATED (its queue entry moves to the ESCALATED
     * shard, same due time), with a new owner when one is given.
     */
    public Result escalate(
            String tenant,
            String batchId,
            String breakId,
            long expectedVersion,
            @Nullable String newOwner,
            OpsActor actor,
            String detail) {
        Optional<BreakView> v = get(tenant, batchId, breakId);
        if (v.isEmpty()) {
            return new Result(Outcome.NOT_FOUND, null);
        }
        if (v.get().status() != BreakStatus.OPEN || v.get().version() != expectedVersion) {
            return new Result(Outcome.CONFLICT, v.get());
        }
        return escalate(tenant, v.get(), newOwner, clock.instant(), actor, detail);
    }

    /**
     * Moves OPEN breaks of {@code tenant} due at or before now to ESCALATED with a new owner
     * (conditional on its version; its queue entry moves to the ESCALATED shard). Reads the due
     * queue one page at a time and stops after {@link #MAX_ESCALATIONS_PER_CALL} escalations or
     * {@link #MAX_ESCALATION_PAGES} pages, so memory and time per call are bounded; a scheduler (or
     * the operator) calls it again until it returns 0.
     *
     * @return how many were escalated by this call
     */
    public int escalateOverdue(String tenant, String newOwner) {
        return escalateOverdue(tenant, newOwner, OpsActor.named(newOwner));
    }

    /** As {@link #escalateOverdue(String, String)}, each escalation audited as {@code actor}. */
    public int escalateOverdue(String tenant, String newOwner, OpsActor actor) {
        Instant now = clock.instant();
        int escalated = 0;
        String cursor = null;
        int pages = 0;
        do {
            Page p = listDue(tenant, now, List.of(BreakStatus.OPEN), cursor, MAX_PAGE);
            pages++;
            for (DueBreak d : p.items()) {
                if (escalated >= maxEscalationsPerCall) {
                    return escalated;
                }
                Optional<BreakView> v = get(tenant, d.batchId(), d.breakId());
                // the queue is eventual: the base item decides
                if (v.isPresent()
                        && v.get().status() == BreakStatus.OPEN
                        && escalate(tenant, v.get(), newOwner, now, actor, "{\"overdue\":true}")
                                        .outcome()
                                == Outcome.DONE) {
                    escalated++;
                }
            }
            cursor = p.cursor();
        } while (cursor != null && pages < MAX_ESCALATION_PAGES);
        return escalated;
    }

    /** One OPEN break (as read) → ESCALATED, conditional on the status and version read. */
    private Result escalate(
            String tenant,
            BreakView v,
            @Nullable String newOwner,
            Instant now,
            OpsActor actor,
            String detail) {
        BreakDueKey moved =
                new BreakDueKey(
                        tenant,
                        BreakStatus.ESCALATED.name(),
                        BreakItems.shardOf(v.batchId(), v.breakId()),
                        KeyTime.parse("dueAt", v.dueAt()),
                        v.batchId(),
                        v.breakId());
        ConditionalUpdate.Builder update =
                ConditionalUpdate.builder()
                        .set(BreakItems.A_STATUS, Av.s(BreakStatus.ESCALATED.name()))
                        .set(Attr.VERSION, Av.n(v.version() + 1))
                        .set(BreakItems.A_ESCALATED_AT, Av.s(KeyTime.format(now)))
                        .set(Attr.GSI1PK, Av.s(moved.pk()))
                        .set(Attr.GSI1SK, Av.s(moved.sk()))
                        .when(Condition.exists(Attr.PK))
                        .when(Condition.eq(BreakItems.A_STATUS, Av.s(BreakStatus.OPEN.name())))
                        .when(Condition.eq(Attr.VERSION, Av.n(v.version())));
        if (newOwner != null) {
            update.set(BreakItems.A_OWNER, Av.s(newOwner));
        }
        return audited(
                new ReconBreakKey(tenant, v.batchId(), v.breakId()),
                update.build(),
                audit(
                        tenant,
                        v.batchId(),
                        v.breakId(),
                        now,
                        actor,
                        "ESCALATE",
                        BreakStatus.OPEN,
                        BreakStatus.ESCALATED,
                        v.version(),
                        detail));
    }

    private static OpsAuditItems.Entry audit(
            String tenant,
            String batchId,
            String breakId,
            Instant at,
            OpsActor actor,
            String action,
            BreakStatus from,
            BreakStatus to,
            long fromVersion,
            @Nullable String detail) {
        return new OpsAuditItems.Entry(
                tenant,
                OpsAudit.newId(),
                at,
                actor.keyId(),
                actor.role(),
                action,
                BREAK_TARGET,
                BreakRef.format(batchId, breakId),
                from.name(),
                to.name(),
                fromVersion,
                fromVersion + 1,
                detail);
    }

    /** The audit target type of a break. */
    public static final String BREAK_TARGET = "BREAK";

    /** The break update and its audit item in one TransactWriteItems; a failed condition reads. */
    private Result audited(ReconBreakKey k, ConditionalUpdate update, OpsAuditItems.Entry audit) {
        TransactWriteItem change =
                TransactWriteItem.builder()
                        .update(
                                update.applyTo(
                                                Update.builder()
                                                        .tableName(table)
                                                        .key(BreakItems.key(k)))
                                        .build())
                        .build();
        if (!OpsAudit.write(ddb, AP, change, OpsAuditItems.put(table, audit))) {
            Optional<BreakView> current = get(k.tenant(), k.batchId(), k.breakId());
            return current.map(c -> new Result(Outcome.CONFLICT, c))
                    .orElse(new Result(Outcome.NOT_FOUND, null));
        }
        return new Result(
                Outcome.DONE,
                get(k.tenant(), k.batchId(), k.breakId())
                        .orElseThrow(() -> new IllegalStateException("break vanished: " + k)));
    }
}
