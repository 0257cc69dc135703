package io.streamledger.command.ops;

import io.streamledger.aws.items.Av;
import io.streamledger.aws.items.BreakItems;
import io.streamledger.aws.items.BreakStatus;
import io.streamledger.aws.items.BreakView;
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
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;
import software.amazon.awssdk.services.dynamodb.model.ReturnValue;
import software.amazon.awssdk.services.dynamodb.model.ReturnValuesOnConditionCheckFailure;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;

/**
 * AP15 break operations for Finance Ops: list due breaks of a tenant across every status shard of
 * the sparse IDX15 queue with one compound cursor (fan out, merge by {@code DUE#at#batch#id}), show
 * one break from its IDX14 base item (strong), resolve only by a conditional write (expected status
 * and version, resolver, evidence; the queue keys are removed), escalate overdue breaks page by
 * page.
 */
public final class BreakRepository {

    /** Largest page; each shard query reads at most this many keys per page. */
    public static final int MAX_PAGE = 100;

    /** Due-queue pages of {@link #MAX_PAGE} one {@link #escalateOverdue} call reads at most. */
    public static final int MAX_ESCALATION_PAGES = 20;

    /** Breaks one {@link #escalateOverdue} call escalates at most; run it again for the rest. */
    public static final int MAX_ESCALATIONS_PER_CALL = 500;

    /** Statuses that are in the due queue, in fan-out order. */
    static final List<BreakStatus> QUEUED = List.of(BreakStatus.OPEN, BreakStatus.ESCALATED);

    private static final String CURSOR_VERSION = "c1";

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
        if (limit < 1 || limit > MAX_PAGE) {
            throw new IllegalArgumentException("limit must be in [1, " + MAX_PAGE + "]");
        }
        String cutoffText = KeyTime.format(cutoff);
        List<Stream> streams = cursor == null ? fresh() : decode(cursor, tenant, cutoffText);
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
        return new Page(out, done ? null : encode(streams, tenant, cutoffText));
    }

    private List<Stream> fresh() {
        List<Stream> streams = new ArrayList<>();
        for (BreakStatus st : QUEUED) {
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
                QueryRequest.builder()
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

    // cursor: base64url of lines; line 0 = version|tenant|cutoff; then status|shard|state|sk|pk|bsk
    private static String encode(List<Stream> streams, String tenant, String cutoff) {
        StringBuilder b =
                new StringBuilder(CURSOR_VERSION)
                        .append('\n')
                        .append(tenant)
                        .append('\n')
                        .append(cutoff);
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

    private static List<Stream> decode(String cursor, String tenant, String cutoff) {
        String text;
        try {
            text = new String(Base64.getUrlDecoder().decode(cursor), StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("invalid cursor: not base64url");
        }
        String[] f = text.split("\n", -1);
        int expectedLines = 3 + 6 * QUEUED.size() * BreakItems.DUE_SHARDS;
        if (f.length != expectedLines || !CURSOR_VERSION.equals(f[0])) {
            throw new IllegalArgumentException("invalid cursor: unknown version or shape");
        }
        if (!f[1].equals(tenant) || !f[2].equals(cutoff)) {
            throw new IllegalArgumentException(
                    "invalid cursor: it belongs to another tenant or cutoff");
        }
        List<Stream> streams = new ArrayList<>();
        for (int i = 3; i < f.length; i += 6) {
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
        Map<String, AttributeValue> item =
                ddb.getItem(b -> b.tableName(table).key(BreakItems.key(k)).consistentRead(true))
                        .item();
        return item == null || item.isEmpty()
                ? Optional.empty()
                : Optional.of(BreakItems.view(item));
    }

    /**
     * Resolves a break only if it still has {@code expectedStatus} and {@code expectedVersion}:
     * status RESOLVED, version + 1, resolver and evidence recorded, due-queue keys removed.
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
        if (resolver == null || resolver.isBlank()) {
            throw new IllegalArgumentException("a resolver identity is required");
        }
        if (resolutionEvidence == null || resolutionEvidence.isBlank()) {
            throw new IllegalArgumentException("resolution evidence is required");
        }
        if (!expectedStatus.queued()) {
            throw new IllegalArgumentException("only OPEN or ESCALATED breaks can be resolved");
        }
        ConditionalUpdate update =
                ConditionalUpdate.builder()
                        .set(BreakItems.A_STATUS, Av.s(BreakStatus.RESOLVED.name()))
                        .set(Attr.VERSION, Av.n(expectedVersion + 1))
                        .set(BreakItems.A_RESOLVED_BY, Av.s(resolver))
                        .set(BreakItems.A_RESOLVED_AT, Av.s(KeyTime.format(clock.instant())))
                        .set(BreakItems.A_RESOLUTION, Av.s(resolutionEvidence))
                        .remove(Attr.GSI1PK, Attr.GSI1SK)
                        .when(Condition.exists(Attr.PK))
                        .when(Condition.eq(BreakItems.A_STATUS, Av.s(expectedStatus.name())))
                        .when(Condition.eq(Attr.VERSION, Av.n(expectedVersion)))
                        .build();
        return conditional(new ReconBreakKey(tenant, batchId, breakId), update);
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
        Instant now = clock.instant();
        int escalated = 0;
        String cursor = null;
        int pages = 0;
        do {
            Page p = listDue(tenant, now, cursor, MAX_PAGE);
            pages++;
            for (DueBreak d : p.items()) {
                if (escalated >= maxEscalationsPerCall) {
                    return escalated;
                }
                if (d.status().equals(BreakStatus.OPEN.name())
                        && escalate(tenant, d, newOwner, now)) {
                    escalated++;
                }
            }
            cursor = p.cursor();
        } while (cursor != null && pages < MAX_ESCALATION_PAGES);
        return escalated;
    }

    /** One overdue OPEN break → ESCALATED, if its base item still says OPEN. */
    private boolean escalate(String tenant, DueBreak d, String newOwner, Instant now) {
        Optional<BreakView> v = get(tenant, d.batchId(), d.breakId());
        if (v.isEmpty() || v.get().status() != BreakStatus.OPEN) {
            return false; // the queue is eventual: the base item decides
        }
        BreakDueKey moved =
                new BreakDueKey(
                        tenant,
                        BreakStatus.ESCALATED.name(),
                        d.shard(),
                        KeyTime.parse("dueAt", d.dueAt()),
                        d.batchId(),
                        d.breakId());
        ConditionalUpdate update =
                ConditionalUpdate.builder()
                        .set(BreakItems.A_STATUS, Av.s(BreakStatus.ESCALATED.name()))
                        .set(Attr.VERSION, Av.n(v.get().version() + 1))
                        .set(BreakItems.A_OWNER, Av.s(newOwner))
                        .set(BreakItems.A_ESCALATED_AT, Av.s(KeyTime.format(now)))
                        .set(Attr.GSI1PK, Av.s(moved.pk()))
                        .when(Condition.exists(Attr.PK))
                        .when(Condition.eq(BreakItems.A_STATUS, Av.s(BreakStatus.OPEN.name())))
                        .when(Condition.eq(Attr.VERSION, Av.n(v.get().version())))
                        .build();
        return conditional(new ReconBreakKey(tenant, d.batchId(), d.breakId()), update).outcome()
                == Outcome.DONE;
    }

    private Result conditional(ReconBreakKey k, ConditionalUpdate update) {
        try {
            Map<String, AttributeValue> after =
                    ddb.updateItem(
                                    update.applyTo(
                                                    UpdateItemRequest.builder()
                                                            .tableName(table)
                                                            .key(BreakItems.key(k))
                                                            .returnValues(ReturnValue.ALL_NEW)
                                                            .returnValuesOnConditionCheckFailure(
                                                                    ReturnValuesOnConditionCheckFailure
                                                                            .ALL_OLD))
                                            .build())
                            .attributes();
            return new Result(Outcome.DONE, BreakItems.view(after));
        } catch (ConditionalCheckFailedException e) {
            Map<String, AttributeValue> old = e.hasItem() ? e.item() : null;
            if (old == null || old.isEmpty()) {
                Optional<BreakView> current = get(k.tenant(), k.batchId(), k.breakId());
                return current.map(c -> new Result(Outcome.CONFLICT, c))
                        .orElse(new Result(Outcome.NOT_FOUND, null));
            }
            return new Result(Outcome.CONFLICT, BreakItems.view(old));
        }
    }
}
