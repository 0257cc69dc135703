package io.streamledger.command.ops;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.javalin.Javalin;
import io.streamledger.aws.items.Av;
import io.streamledger.aws.items.OpsAuditItems;
import io.streamledger.aws.metrics.ApTag;
import io.streamledger.command.api.ApiException;
import io.streamledger.command.api.ErrorBodies;
import io.streamledger.command.api.Fields;
import io.streamledger.command.api.HttpApi;
import io.streamledger.command.api.StrictJson;
import io.streamledger.command.config.Schema;
import io.streamledger.command.idempotency.Claim;
import io.streamledger.command.idempotency.DurableResponse;
import io.streamledger.command.idempotency.IdempotencyRecord;
import io.streamledger.command.idempotency.IdempotencyStore;
import io.streamledger.command.idempotency.RequestState;
import io.streamledger.model.keys.RepairDueKey;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.Set;
import javax.annotation.Nullable;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.Put;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;
import software.amazon.awssdk.services.dynamodb.model.Update;

/**
 * The AP18 repair queue for Orders Ops (IDX19): list the records the repair worker could not settle
 * (REPAIR_REQUIRED, escalated, expired IN_PROGRESS) with their age, inspect one (strong), and
 * resolve it — complete with an operator-stated response, re-attempt (back into the worker's queue,
 * due now) or close with a reason — each conditional on state and attempt (the record's version)
 * and audited in the same transaction. Resolution sets the TTL to now + the audit horizon;
 * unresolved records carry none.
 */
public final class RepairQueue {
    /** The metrics tag of its DynamoDB calls: AP18 repair (IDX19). */
    private static final String AP = "AP18";

    public static final int MAX_PAGE = 50;

    /** How long a resolved record stays readable before TTL may delete it (the audit horizon). */
    public static final Duration AUDIT_HORIZON = Duration.ofDays(30);

    /** Response stored when an operator closes a request: a definite answer for a client retry. */
    public static final String CLOSED_CODE = "REQUEST_CLOSED_BY_OPERATOR";

    public static final int CLOSED_STATUS = 410;

    /** The audit target type of a repair record. */
    public static final String REPAIR_TARGET = "REPAIR";

    private final DynamoDbClient ddb;
    private final IdempotencyStore store;
    private final String auditTable;
    private final Clock clock;
    private final Duration auditHorizon;

    /**
     * @param auditHorizon how long a resolved record is kept before TTL may delete it
     */
    public RepairQueue(
            DynamoDbClient ddb,
            IdempotencyStore store,
            String auditTable,
            Clock clock,
            Duration auditHorizon) {
        this.ddb = ddb;
        this.store = store;
        this.auditTable = auditTable;
        this.clock = clock;
        this.auditHorizon = auditHorizon;
    }

    /** Which records a listing keeps (after the strong read). */
    public enum Filter {
        ALL,
        ESCALATED,
        REPAIR_REQUIRED,
        IN_PROGRESS
    }

    /** One queued record as read strongly, with its age. */
    public record Entry(
            IdempotencyRecord record,
            Map<String, AttributeValue> item,
            boolean escalated,
            Duration age) {}

    public record Page(List<Entry> items, @Nullable String cursor) {}

    /** Outcome of an operator action. */
    public enum Outcome {
        DONE,
        NOT_FOUND,
        CONFLICT
    }

    public record Result(Outcome outcome, @Nullable Entry current) {}

    // ---- reads ----

    /**
     * The tenant's IDX19 entries in due order per shard, merged (escalated records sort last), each
     * re-read strongly; COMPLETED records (an index entry not yet gone) are dropped.
     */
    public Page list(String tenant, Filter filter, @Nullable String cursor, int limit) {
        int shards = Schema.REPAIR_SHARDS.shardCount();
        String[] after = cursor == null ? new String[shards] : decode(cursor, tenant, shards);
        List<List<Map<String, AttributeValue>>> buffers = new ArrayList<>();
        boolean[] more = new boolean[shards];
        for (int shard = 0; shard < shards; shard++) {
            List<Map<String, AttributeValue>> buf = new ArrayList<>();
            if (!"X".equals(after[shard])) {
                QueryResponse r = query(tenant, shard, after[shard], limit);
                buf.addAll(r.items());
                more[shard] = r.hasLastEvaluatedKey() && !r.lastEvaluatedKey().isEmpty();
            }
            buffers.add(buf);
        }
        PriorityQueue<int[]> heads =
                new PriorityQueue<>(
                        (a, b) ->
                                sk(buffers.get(a[0]).get(a[1]))
                                        .compareTo(sk(buffers.get(b[0]).get(b[1]))));
        for (int shard = 0; shard < shards; shard++) {
            if (!buffers.get(shard).isEmpty()) {
                heads.add(new int[] {shard, 0});
            }
        }
        String[] last = after.clone();
        int taken = 0;
        List<Entry> out = new ArrayList<>();
        while (taken < limit && !heads.isEmpty()) {
            int[] h = heads.poll();
            Map<String, AttributeValue> k = buffers.get(h[0]).get(h[1]);
            last[h[0]] = sk(k);
            taken++;
            RepairDueKey due = RepairDueKey.parse(k.get(Schema.REPAIR_PK).s(), sk(k));
            Entry e = read(tenant, due.clientKey());
            if (e != null && keep(e, filter)) {
                out.add(e);
            }
            if (h[1] + 1 < buffers.get(h[0]).size()) {
                heads.add(new int[] {h[0], h[1] + 1});
            }
        }
        boolean done = true;
        for (int shard = 0; shard < shards; shard++) {
            boolean drained =
                    buffers.get(shard).isEmpty()
                            || sk(buffers.get(shard).get(buffers.get(shard).size() - 1))
                                    .equals(last[shard]);
            if ("X".equals(after[shard]) || (drained && !more[shard])) {
                last[shard] = "X";
            } else {
                done = false;
            }
        }
        return new Page(out, done ? null : encode(tenant, last));
    }

    private QueryResponse query(String tenant, int shard, @Nullable String afterSk, int limit) {
        Map<String, AttributeValue> values = new HashMap<>();
        Map<String, String> names = new HashMap<>();
        values.put(":pk", Av.s(Schema.repairPk(tenant, shard)));
        names.put("#pk", Schema.REPAIR_PK);
        String condition = "#pk = :pk";
        if (afterSk != null) {
            values.put(":after", Av.s(afterSk));
            names.put("#sk", Schema.REPAIR_SK);
            condition += " AND #sk > :after";
        }
        String c = condition;
        return ddb.query(
                q ->
                        ApTag.on(q, AP)
                                .tableName(store.table())
                                .indexName(Schema.REPAIR_INDEX)
                                .keyConditionExpression(c)
                                .expressionAttributeNames(names)
                                .expressionAttributeValues(values)
                                .limit(limit));
    }

    private static String sk(Map<String, AttributeValue> k) {
        return k.get(Schema.REPAIR_SK).s();
    }

    private static boolean keep(Entry e, Filter f) {
        return switch (f) {
            case ALL -> true;
            case ESCALATED -> e.escalated();
            case REPAIR_REQUIRED -> e.record().state() == RequestState.REPAIR_REQUIRED;
            case IN_PROGRESS -> e.record().state() == RequestState.IN_PROGRESS;
        };
    }

    /** The record, strongly read, unless absent or COMPLETED (then it is not in the queue). */
    @Nullable
    public Entry read(String tenant, String requestKey) {
        Map<String, AttributeValue> item =
                StrongRead.item(ddb, AP, store.table(), IdempotencyStore.key(tenant, requestKey));
        if (item == null) {
            return null;
        }
        IdempotencyRecord r = IdempotencyStore.toRecord(item);
        if (r.state() == RequestState.COMPLETED) {
            return null;
        }
        String since = Av.str(item, IdempotencyStore.A_ESCALATED_AT);
        if (since == null) {
            since = Av.str(item, IdempotencyStore.A_UPDATED);
        }
        if (since == null) {
            since = Av.str(item, IdempotencyStore.A_CREATED);
        }
        Duration age =
                since == null
                        ? Duration.ZERO
                        : Duration.between(Instant.parse(since), clock.instant());
        boolean escalated =
                r.repairReason() != null
                        && r.repairReason().startsWith(IdempotencyStore.ESCALATED_PREFIX);
        return new Entry(r, item, escalated, age);
    }

    // ---- operator actions ----

    /** COMPLETED with the response the operator established from evidence (e.g. the effect). */
    public Result complete(
            String tenant,
            String requestKey,
            int expectedAttempt,
            DurableResponse response,
            String note,
            OpsActor actor) {
        return finish(tenant, requestKey, expectedAttempt, response, "COMPLETE", note, actor);
    }

    /** COMPLETED with a definite 410 {@link #CLOSED_CODE} naming the reason. */
    public Result close(
            String tenant, String requestKey, int expectedAttempt, String reason, OpsActor actor) {
        DurableResponse closed =
                new DurableResponse(
                        CLOSED_STATUS,
                        ErrorBodies.json(CLOSED_CODE, "closed by an operator: " + reason));
        return finish(tenant, requestKey, expectedAttempt, closed, "CLOSE", reason, actor);
    }

    private Result finish(
            String tenant,
            String requestKey,
            int expectedAttempt,
            DurableResponse response,
            String action,
            String note,
            OpsActor actor) {
        Entry cur = read(tenant, requestKey);
        Result stale = guard(cur, expectedAttempt, tenant, requestKey);
        if (stale != null) {
            return stale;
        }
        IdempotencyRecord r = cur.record();
        Instant now = clock.instant().truncatedTo(ChronoUnit.MILLIS);
        Claim operator =
                new Claim(
                        tenant,
                        requestKey,
                        r.operation(),
                        r.fingerprint(),
                        actor.label(),
                        expectedAttempt + 1,
                        0,
                        r.commandJson(),
                        r.effectId());
        Map<String, AttributeValue> item = new HashMap<>(store.completedItem(operator, response));
        item.put(IdempotencyStore.A_EXPIRES, Av.n(now.plus(auditHorizon).getEpochSecond()));
        if (r.commandJson() != null) {
            item.put(IdempotencyStore.A_COMMAND, Av.s(r.commandJson()));
        }
        TransactWriteItem put =
                TransactWriteItem.builder()
                        .put(
                                Put.builder()
                                        .tableName(store.table())
                                        .item(item)
                                        .conditionExpression(
                                                "#state = :state AND #attempt = :attempt")
                                        .expressionAttributeNames(stateNames())
                                        .expressionAttributeValues(stateValues(r, expectedAttempt))
                                        .build())
                        .build();
        ObjectNode detail = StrictJson.MAPPER.createObjectNode().put("note", note);
        detail.put("responseStatus", response.status());
        return write(
                tenant,
                requestKey,
                put,
                r,
                expectedAttempt,
                RequestState.COMPLETED,
                action,
                detail,
                actor);
    }

    /** Back into the repair worker's queue, due now (the worker re-attempts on its next round). */
    public Result reattempt(
            String tenant, String requestKey, int expectedAttempt, String note, OpsActor actor) {
        Entry cur = read(tenant, requestKey);
        Result stale = guard(cur, expectedAttempt, tenant, requestKey);
        if (stale != null) {
            return stale;
        }
        IdempotencyRecord r = cur.record();
        Instant now = clock.instant().truncatedTo(ChronoUnit.MILLIS);
        RepairDueKey due = Schema.repairDue(tenant, requestKey, now);
        Map<String, String> names = new HashMap<>(stateNames());
        names.put("#lease", IdempotencyStore.A_LEASE);
        names.put("#reason", IdempotencyStore.A_REPAIR_REASON);
        names.put("#updated", IdempotencyStore.A_UPDATED);
        names.put("#rpk", Schema.REPAIR_PK);
        names.put("#rsk", Schema.REPAIR_SK);
        names.put("#esc", IdempotencyStore.A_ESCALATED_AT);
        Map<String, AttributeValue> values = new HashMap<>(stateValues(r, expectedAttempt));
        values.put(":next", Av.n(expectedAttempt + 1));
        values.put(":lease", Av.n(now.toEpochMilli()));
        values.put(":reason", Av.s("REATTEMPT requested by " + actor.label() + ": " + note));
        values.put(":now", Av.s(now.toString()));
        values.put(":repair", Av.s(RequestState.REPAIR_REQUIRED.name()));
        values.put(":rpk", Av.s(due.pk()));
        values.put(":rsk", Av.s(due.sk()));
        TransactWriteItem update =
                TransactWriteItem.builder()
                        .update(
                                Update.builder()
                                        .tableName(store.table())
                                        .key(IdempotencyStore.key(tenant, requestKey))
                                        .updateExpression(
                                                "SET #state = :repair, #attempt = :next, #lease = :lease,"
                                                        + " #reason = :reason, #updated = :now,"
                                                        + " #rpk = :rpk, #rsk = :rsk REMOVE #esc")
                                        .conditionExpression(
                                                "#state = :state AND #attempt = :attempt")
                                        .expressionAttributeNames(names)
                                        .expressionAttributeValues(values)
                                        .build())
                        .build();
        ObjectNode detail = StrictJson.MAPPER.createObjectNode().put("note", note);
        return write(
                tenant,
                requestKey,
                update,
                r,
                expectedAttempt,
                RequestState.REPAIR_REQUIRED,
                "REATTEMPT",
                detail,
                actor);
    }

    /** Only REPAIR_REQUIRED records at the expected attempt can be resolved by an operator. */
    @Nullable
    private Result guard(
            @Nullable Entry cur, int expectedAttempt, String tenant, String requestKey) {
        if (cur == null) {
            // COMPLETED (already resolved) is a conflict; only a missing record is not found
            return new Result(
                    exists(tenant, requestKey) ? Outcome.CONFLICT : Outcome.NOT_FOUND, null);
        }
        if (cur.record().state() != RequestState.REPAIR_REQUIRED
                || cur.record().attempt() != expectedAttempt) {
            return new Result(Outcome.CONFLICT, cur);
        }
        return null;
    }

    private static Map<String, String> stateNames() {
        return Map.of("#state", IdempotencyStore.A_STATE, "#attempt", IdempotencyStore.A_ATTEMPT);
    }

    private static Map<String, AttributeValue> stateValues(IdempotencyRecord r, int attempt) {
        return Map.of(":state", Av.s(r.state().name()), ":attempt", Av.n(attempt));
    }

    private Result write(
            String tenant,
            String requestKey,
            TransactWriteItem change,
            IdempotencyRecord before,
            int expectedAttempt,
            RequestState to,
            String action,
            ObjectNode detail,
            OpsActor actor) {
        OpsAuditItems.Entry audit =
                new OpsAuditItems.Entry(
                        tenant,
                        OpsAudit.newId(),
                        clock.instant(),
                        actor.keyId(),
                        actor.role(),
                        action,
                        REPAIR_TARGET,
                        requestKey,
                        before.state().name(),
                        to.name(),
                        expectedAttempt,
                        expectedAttempt + 1,
                        detail.toString());
        if (!OpsAudit.write(ddb, AP, change, OpsAuditItems.put(auditTable, audit))) {
            Entry now = read(tenant, requestKey);
            return now == null && !exists(tenant, requestKey)
                    ? new Result(Outcome.NOT_FOUND, null)
                    : new Result(Outcome.CONFLICT, now);
        }
        return new Result(Outcome.DONE, read(tenant, requestKey));
    }

    private boolean exists(String tenant, String requestKey) {
        Map<String, AttributeValue> item =
                StrongRead.item(ddb, AP, store.table(), IdempotencyStore.key(tenant, requestKey));
        return item != null;
    }

    /** The stored record of any state (after a resolution, for the response). */
    @Nullable
    private Map<String, AttributeValue> raw(String tenant, String requestKey) {
        Map<String, AttributeValue> item =
                StrongRead.item(ddb, AP, store.table(), IdempotencyStore.key(tenant, requestKey));
        return item;
    }

    // ---- HTTP ----

    void register(Javalin app) {
        app.get(
                "/v1/ops/repairs",
                ctx -> {
                    HttpApi.onlyParams(ctx, Set.of("state", "limit", "cursor", "tenant"));
                    Filter f = HttpApi.enumParam(ctx, "state", Filter.class);
                    Integer limit = HttpApi.limit(ctx);
                    if (limit != null && (limit < 1 || limit > MAX_PAGE)) {
                        throw ApiException.badRequest(
                                "INVALID_FIELD", "limit must be in [1, " + MAX_PAGE + "]");
                    }
                    Page p =
                            list(
                                    HttpApi.tenant(ctx),
                                    f == null ? Filter.ALL : f,
                                    ctx.queryParam("cursor"),
                                    limit == null ? 20 : limit);
                    ObjectNode o = StrictJson.MAPPER.createObjectNode();
                    ArrayNode items = o.putArray("items");
                    p.items().forEach(e -> items.add(doc(e, false)));
                    o.put("cursor", p.cursor());
                    HttpApi.writeRead(ctx, o);
                });
        app.get(
                "/v1/ops/repairs/{id}",
                ctx -> {
                    HttpApi.onlyParams(ctx, Set.of("tenant"));
                    String key = ctx.pathParam("id");
                    Map<String, AttributeValue> item = raw(HttpApi.tenant(ctx), key);
                    if (item == null) {
                        throw ApiException.notFound("no request record " + key);
                    }
                    Entry e = read(HttpApi.tenant(ctx), key);
                    HttpApi.writeRead(ctx, e != null ? doc(e, true) : resolvedDoc(item));
                });
        app.post(
                "/v1/ops/repairs/{id}/resolve",
                ctx -> {
                    HttpApi.onlyParams(ctx, Set.of("tenant"));
                    String key = ctx.pathParam("id");
                    String tenant = HttpApi.tenant(ctx);
                    ObjectNode raw = HttpApi.body(ctx);
                    Fields f = Fields.of(raw);
                    String action = OpsApi.requiredText(f, "action", 32);
                    long expected = OpsApi.expectedVersion(f);
                    if (expected > Integer.MAX_VALUE) {
                        throw ApiException.badRequest(
                                "INVALID_FIELD", "expectedVersion is too large");
                    }
                    int attempt = (int) expected;
                    OpsActor who = OpsApi.actor(ctx);
                    Result r;
                    switch (action) {
                        case "complete" -> {
                            Long status = f.optionalLong("responseStatus");
                            if (status == null || status < 200 || status > 599) {
                                throw ApiException.badRequest(
                                        "INVALID_FIELD", "responseStatus must be in [200, 599]");
                            }
                            f.object("responseBody"); // an object; stored as sent
                            String note = OpsApi.requiredText(f, "note", BreakEvidence.MAX_NOTE);
                            f.rejectUnknown();
                            r =
                                    complete(
                                            tenant,
                                            key,
                                            attempt,
                                            new DurableResponse(
                                                    status.intValue(),
                                                    raw.get("responseBody").toString()),
                                            note,
                                            who);
                        }
                        case "reattempt" -> {
                            String note = OpsApi.requiredText(f, "note", BreakEvidence.MAX_NOTE);
                            f.rejectUnknown();
                            r = reattempt(tenant, key, attempt, note, who);
                        }
                        case "close" -> {
                            String reason =
                                    OpsApi.requiredText(f, "reason", BreakEvidence.MAX_NOTE);
                            f.rejectUnknown();
                            r = close(tenant, key, attempt, reason, who);
                        }
                        default ->
                                throw ApiException.badRequest(
                                        "INVALID_FIELD",
                                        "action must be one of complete, reattempt, close");
                    }
                    switch (r.outcome()) {
                        case NOT_FOUND -> throw ApiException.notFound("no request record " + key);
                        case CONFLICT ->
                                throw ApiException.conflict(
                                        "STALE_VERSION",
                                        r.current() == null
                                                ? "request record is already resolved"
                                                : "request record is "
                                                        + r.current().record().state()
                                                        + " at version "
                                                        + r.current().record().attempt()
                                                        + "; only a REPAIR_REQUIRED record at the"
                                                        + " expected version can be resolved");
                        case DONE ->
                                HttpApi.writeRead(
                                        ctx,
                                        r.current() != null
                                                ? doc(r.current(), true)
                                                : resolvedDoc(raw(tenant, key)));
                    }
                });
    }

    private static ObjectNode doc(Entry e, boolean full) {
        IdempotencyRecord r = e.record();
        ObjectNode o = StrictJson.MAPPER.createObjectNode();
        o.put("id", r.requestKey());
        o.put("operation", r.operation());
        o.put("state", r.state().name());
        o.put("escalated", e.escalated());
        o.put("version", r.attempt());
        o.put("ageSeconds", e.age().toSeconds());
        o.put("repairReason", r.repairReason());
        o.put("repairCount", r.repairCount());
        o.put("effectId", r.effectId());
        o.put("expiresAt", expiresAt(e.item()));
        if (full) {
            o.put("createdAt", Av.str(e.item(), IdempotencyStore.A_CREATED));
            o.put("updatedAt", Av.str(e.item(), IdempotencyStore.A_UPDATED));
            o.put("escalatedAt", Av.str(e.item(), IdempotencyStore.A_ESCALATED_AT));
            o.put("attemptOwner", r.attemptOwner());
            o.put("leaseUntil", Instant.ofEpochMilli(r.leaseUntilMillis()).toString());
            o.put("command", r.commandJson());
        }
        return o;
    }

    /** The TTL instant, or null: unresolved records have none. */
    @Nullable
    private static String expiresAt(Map<String, AttributeValue> item) {
        long at = Av.lng(item, IdempotencyStore.A_EXPIRES, -1);
        return at < 0 ? null : Instant.ofEpochSecond(at).toString();
    }

    /** A resolved (COMPLETED) record: its durable response and when TTL may delete it. */
    private static ObjectNode resolvedDoc(Map<String, AttributeValue> item) {
        IdempotencyRecord r = IdempotencyStore.toRecord(item);
        ObjectNode o = StrictJson.MAPPER.createObjectNode();
        o.put("id", r.requestKey());
        o.put("operation", r.operation());
        o.put("state", r.state().name());
        o.put("version", r.attempt());
        o.put("resolvedBy", r.attemptOwner());
        if (r.response() != null) {
            o.put("responseStatus", r.response().status());
            o.put("responseBody", r.response().body());
        }
        o.put("expiresAt", expiresAt(item));
        return o;
    }

    // cursor: base64url(tenant \n per-shard last SK, "X" = exhausted, "" = not started)
    private static String encode(String tenant, String[] last) {
        StringBuilder b = new StringBuilder(tenant);
        for (String s : last) {
            b.append('\n').append(s == null ? "" : s);
        }
        return Base64.getUrlEncoder()
                .withoutPadding()
                .encodeToString(b.toString().getBytes(StandardCharsets.UTF_8));
    }

    private static String[] decode(String cursor, String tenant, int shards) {
        String text;
        try {
            text = new String(Base64.getUrlDecoder().decode(cursor), StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            throw ApiException.badRequest("INVALID_CURSOR", "cursor is not base64url");
        }
        String[] f = text.split("\n", -1);
        if (f.length != shards + 1 || !f[0].equals(tenant)) {
            throw ApiException.badRequest(
                    "INVALID_CURSOR", "cursor is not a repair-queue cursor of this tenant");
        }
        String[] out = new String[shards];
        for (int i = 0; i < shards; i++) {
            out[i] = f[i + 1].isEmpty() ? null : f[i + 1];
        }
        return out;
    }
}
