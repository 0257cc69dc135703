package io.streamledger.aws.deadletter;

import io.streamledger.model.deadletter.DeadLetterReason;
import io.streamledger.model.deadletter.DeadLetterStatus;
import io.streamledger.model.keys.DeadLetterKey;
import io.streamledger.model.keys.DeadLetterStatusKey;
import io.streamledger.model.shard.ShardHash;
import io.streamledger.model.table.Attr;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ReturnValue;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;

/**
 * The dead-letter item (CS08) and its one write: an UpdateItem that creates the entry the first
 * time (every descriptive attribute {@code if_not_exists}, status OPEN and the sparse status-queue
 * keys) and on every repeat only ADDs 1 to {@code attempts} and SETs {@code lastSeen}, so a replay
 * after a restart never makes a second entry and never overwrites the first payload.
 */
public final class DeadLetterItems {

    public static final String ENTITY = "DEAD_LETTER";
    public static final String A_TENANT = "tenant";
    public static final String A_JOB = "job";
    public static final String A_OPERATOR = "operator";
    public static final String A_REASON = "reason";
    public static final String A_DETAIL = "detail";
    public static final String A_PAYLOAD = Attr.PAYLOAD;
    public static final String A_PAYLOAD_ENCODING = "payloadEncoding";
    public static final String A_ORIGIN = "origin";
    public static final String A_ID = "deadLetterId";
    public static final String A_SOURCE_POSITION = "sourcePosition";
    public static final String A_AGGREGATE_KEY = "aggregateKey";
    public static final String A_AGGREGATE_VERSION = Attr.AGGREGATE_VERSION;
    public static final String A_FIRST_SEEN = "firstSeen";
    public static final String A_LAST_SEEN = "lastSeen";
    public static final String A_ATTEMPTS = "attempts";
    public static final String A_STATUS = Attr.STATUS;
    public static final String A_SHARD = "shard";
    public static final String A_VERSION = Attr.VERSION;
    public static final String A_HISTORY = "history";

    private DeadLetterItems() {}

    /** Status-queue shard of an entry: the seed's shard hash of {@code job/id}. */
    public static int shardOf(String job, String id) {
        return ShardHash.shard(job + "/" + id, DeadLetterStatusKey.SHARDS);
    }

    /** The create-or-count write of {@code e}; returns the old {@code attempts} if it existed. */
    public static UpdateItemRequest upsert(String table, DeadLetterEntry e) {
        DeadLetterKey key = e.key();
        Instant seen = Instant.ofEpochMilli(e.seenAtMillis());
        int shard = shardOf(e.job(), key.id());
        DeadLetterStatusKey queue =
                new DeadLetterStatusKey(
                        e.tenant(), DeadLetterStatus.OPEN.name(), shard, seen, e.job(), key.id());
        Map<String, String> names = new HashMap<>();
        Map<String, AttributeValue> values = new HashMap<>();
        StringBuilder set = new StringBuilder("SET #lastSeen = :seen");
        names.put("#lastSeen", A_LAST_SEEN);
        values.put(":seen", s(seen.toString()));
        int[] n = {0};
        java.util.function.BiConsumer<String, AttributeValue> once =
                (attr, v) -> {
                    String name = "#a" + n[0];
                    String val = ":a" + n[0]++;
                    names.put(name, attr);
                    values.put(val, v);
                    set.append(", ")
                            .append(name)
                            .append(" = if_not_exists(")
                            .append(name)
                            .append(", ")
                            .append(val)
                            .append(')');
                };
        once.accept(Attr.ENTITY_TYPE, s(ENTITY));
        once.accept(A_TENANT, s(e.tenant()));
        once.accept(A_JOB, s(e.job()));
        once.accept(A_OPERATOR, s(e.operator()));
        once.accept(A_REASON, s(e.reason().name()));
        once.accept(A_DETAIL, s(e.detail()));
        once.accept(A_PAYLOAD, s(e.payload()));
        once.accept(A_PAYLOAD_ENCODING, s(e.payloadEncoding()));
        once.accept(A_ORIGIN, s(e.origin()));
        once.accept(A_ID, s(key.id()));
        if (e.sourcePosition() != null) {
            once.accept(A_SOURCE_POSITION, s(e.sourcePosition()));
        }
        if (e.aggregateKey() != null) {
            once.accept(A_AGGREGATE_KEY, s(e.aggregateKey()));
        }
        if (e.aggregateVersion() > 0) {
            once.accept(A_AGGREGATE_VERSION, n(e.aggregateVersion()));
        }
        once.accept(A_FIRST_SEEN, s(seen.toString()));
        once.accept(A_STATUS, s(DeadLetterStatus.OPEN.name()));
        once.accept(A_SHARD, n(shard));
        once.accept(A_VERSION, n(1));
        once.accept(Attr.HASH_VERSION, n(ShardHash.HASH_VERSION));
        once.accept(Attr.GSI1PK, s(queue.pk()));
        once.accept(Attr.GSI1SK, s(queue.sk()));
        names.put("#attempts", A_ATTEMPTS);
        values.put(":one", n(1));
        return UpdateItemRequest.builder()
                .tableName(table)
                .key(Map.of(Attr.PK, s(key.pk()), Attr.SK, s(key.sk())))
                .updateExpression(set + " ADD #attempts :one")
                .expressionAttributeNames(names)
                .expressionAttributeValues(values)
                .returnValues(ReturnValue.UPDATED_OLD)
                .build();
    }

    /**
     * A status change of one entry (an operator's, or a job's after a replay): conditional on its
     * current status and version (optimistic concurrency), bumps the version, appends who/when/why
     * to {@code history} and moves the sparse status-queue keys: an OPEN or REPLAY_REQUESTED entry
     * is in that status's queue (sorted by the time it entered it), any other status in none;
     * nothing is deleted.
     *
     * @param action e.g. {@code DISCARD} or {@code REPLAY}
     */
    public static UpdateItemRequest transition(
            String table,
            DeadLetterKey key,
            DeadLetterStatus from,
            long expectedVersion,
            DeadLetterStatus to,
            String action,
            String actor,
            String note,
            Instant at) {
        return transition(table, key, from, expectedVersion, to, action, actor, note, at, false);
    }

    /**
     * Settles a replayed entry (the one home of a replay's outcome): REPLAY_REQUESTED → REPLAYED
     * when the job applied it (or found it applied already), → OPEN when it failed again. A failed
     * replay counts one more attempt unless {@code attemptCounted} (the job set the record aside on
     * this same entry again, whose upsert already added it). Conditional on the requested version,
     * so a second copy of one replay fails its condition and changes nothing. An entry the job
     * parked meanwhile ({@link #replayParked}) is settled by {@link #settleReplayRequests}.
     */
    public static UpdateItemRequest settleReplay(
            String table,
            DeadLetterKey key,
            long requestedVersion,
            boolean applied,
            boolean attemptCounted,
            String actor,
            String note,
            Instant at) {
        return settle(
                table,
                key,
                DeadLetterStatus.REPLAY_REQUESTED,
                requestedVersion,
                applied,
                attemptCounted,
                actor,
                note,
                at);
    }

    /**
     * The settles of one replay outcome in the order to try them, each conditional: from
     * REPLAY_REQUESTED at the requested version, then from REPLAY_PARKED at the version the park
     * left ({@link #parkedVersion}). The first whose condition holds is the settle; if none holds
     * the entry moved on (settled already, or by an operator) and nothing changes.
     */
    public static List<UpdateItemRequest> settleReplayRequests(
            String table,
            DeadLetterKey key,
            long requestedVersion,
            boolean applied,
            boolean attemptCounted,
            String actor,
            String note,
            Instant at) {
        return List.of(
                settleReplay(
                        table, key, requestedVersion, applied, attemptCounted, actor, note, at),
                settle(
                        table,
                        key,
                        DeadLetterStatus.REPLAY_PARKED,
                        parkedVersion(requestedVersion),
                        applied,
                        attemptCounted,
                        actor,
                        note,
                        at));
    }

    /**
     * Sends the {@link #settleReplayRequests} in order until one's condition holds; {@code send}
     * writes one and returns false when its condition failed. False if none held.
     */
    public static boolean settleFirst(
            List<UpdateItemRequest> requests, Predicate<UpdateItemRequest> send) {
        for (UpdateItemRequest r : requests) {
            if (send.test(r)) {
                return true;
            }
        }
        return false;
    }

    /**
     * REPLAY_REQUESTED → REPLAY_PARKED: the job's gate holds the replayed event behind a gap of its
     * key ({@code note} names the gap and the missing version). Conditional on the requested
     * version like every settle, so a park that arrives after the outcome changes nothing.
     */
    public static UpdateItemRequest replayParked(
            String table,
            DeadLetterKey key,
            long requestedVersion,
            String actor,
            String note,
            Instant at) {
        return transition(
                table,
                key,
                DeadLetterStatus.REPLAY_REQUESTED,
                requestedVersion,
                DeadLetterStatus.REPLAY_PARKED,
                "REPLAY_PARKED",
                actor,
                note,
                at,
                false);
    }

    /**
     * The version of an entry parked from {@code requestedVersion}: the park is the one transition
     * into REPLAY_PARKED and it bumps the version once; the only operator action from REPLAY_PARKED
     * is asking for the replay again (→ REPLAY_REQUESTED).
     */
    public static long parkedVersion(long requestedVersion) {
        return requestedVersion + 1;
    }

    private static UpdateItemRequest settle(
            String table,
            DeadLetterKey key,
            DeadLetterStatus from,
            long expectedVersion,
            boolean applied,
            boolean attemptCounted,
            String actor,
            String note,
            Instant at) {
        return transition(
                table,
                key,
                from,
                expectedVersion,
                applied ? DeadLetterStatus.REPLAYED : DeadLetterStatus.OPEN,
                applied ? "REPLAYED" : "REPLAY_FAILED",
                actor,
                note,
                at,
                !applied && !attemptCounted);
    }

    private static UpdateItemRequest transition(
            String table,
            DeadLetterKey key,
            DeadLetterStatus from,
            long expectedVersion,
            DeadLetterStatus to,
            String action,
            String actor,
            String note,
            Instant at,
            boolean addAttempt) {
        Map<String, AttributeValue> event = new HashMap<>();
        event.put("at", s(at.toString()));
        event.put("actor", s(actor));
        event.put("action", s(action));
        event.put("fromStatus", s(from.name()));
        event.put("toStatus", s(to.name()));
        event.put("fromVersion", n(expectedVersion));
        event.put("note", s(note == null ? "" : note));
        boolean queued = queued(to);
        String update =
                "SET #st = :to, #v = #v + :one, #h = list_append(if_not_exists(#h, :empty), :ev)"
                        + (queued ? ", #g1pk = :qpk, #g1sk = :qsk" : " REMOVE #g1pk, #g1sk")
                        + (addAttempt ? " ADD #attempts :one" : "");
        Map<String, String> names = new HashMap<>();
        names.put("#st", A_STATUS);
        names.put("#v", A_VERSION);
        names.put("#h", A_HISTORY);
        names.put("#g1pk", Attr.GSI1PK);
        names.put("#g1sk", Attr.GSI1SK);
        if (addAttempt) {
            names.put("#attempts", A_ATTEMPTS);
        }
        Map<String, AttributeValue> values = new HashMap<>();
        values.put(":to", s(to.name()));
        values.put(":from", s(from.name()));
        values.put(":expected", n(expectedVersion));
        values.put(":one", n(1));
        values.put(":empty", AttributeValue.fromL(List.of()));
        values.put(":ev", AttributeValue.fromL(List.of(AttributeValue.fromM(event))));
        if (queued) {
            DeadLetterStatusKey queue =
                    new DeadLetterStatusKey(
                            key.tenant(),
                            to.name(),
                            shardOf(key.job(), key.id()),
                            at,
                            key.job(),
                            key.id());
            values.put(":qpk", s(queue.pk()));
            values.put(":qsk", s(queue.sk()));
        }
        return UpdateItemRequest.builder()
                .tableName(table)
                .key(Map.of(Attr.PK, s(key.pk()), Attr.SK, s(key.sk())))
                .updateExpression(update)
                .conditionExpression("#st = :from AND #v = :expected")
                .expressionAttributeNames(names)
                .expressionAttributeValues(values)
                .returnValues(ReturnValue.ALL_NEW)
                .build();
    }

    /** Statuses with a status queue: OPEN (operators list) and REPLAY_REQUESTED (jobs poll). */
    public static boolean queued(DeadLetterStatus status) {
        return status == DeadLetterStatus.OPEN || status == DeadLetterStatus.REPLAY_REQUESTED;
    }

    /** Reads a stored entry back (every field an operator sees). */
    public static DeadLetterView view(Map<String, AttributeValue> i) {
        List<DeadLetterView.Change> history = new ArrayList<>();
        AttributeValue h = i.get(A_HISTORY);
        if (h != null && h.hasL()) {
            for (AttributeValue e : h.l()) {
                Map<String, AttributeValue> m = e.m();
                history.add(
                        new DeadLetterView.Change(
                                Instant.parse(m.get("at").s()),
                                m.get("actor").s(),
                                m.get("action").s(),
                                DeadLetterStatus.valueOf(m.get("fromStatus").s()),
                                DeadLetterStatus.valueOf(m.get("toStatus").s()),
                                Long.parseLong(m.get("fromVersion").n()),
                                m.get("note").s()));
            }
        }
        return new DeadLetterView(
                str(i, A_TENANT),
                str(i, A_JOB),
                str(i, A_OPERATOR),
                DeadLetterReason.of(str(i, A_REASON)),
                str(i, A_ID),
                str(i, A_DETAIL),
                str(i, A_PAYLOAD),
                str(i, A_PAYLOAD_ENCODING),
                str(i, A_ORIGIN),
                str(i, A_SOURCE_POSITION),
                str(i, A_AGGREGATE_KEY),
                num(i, A_AGGREGATE_VERSION, 0),
                Instant.parse(str(i, A_FIRST_SEEN)),
                Instant.parse(str(i, A_LAST_SEEN)),
                num(i, A_ATTEMPTS, 1),
                DeadLetterStatus.valueOf(str(i, A_STATUS)),
                num(i, A_VERSION, 1),
                List.copyOf(history));
    }

    private static String str(Map<String, AttributeValue> i, String a) {
        AttributeValue v = i.get(a);
        return v == null ? null : v.s();
    }

    private static long num(Map<String, AttributeValue> i, String a, long absent) {
        AttributeValue v = i.get(a);
        return v == null ? absent : Long.parseLong(v.n());
    }

    private static AttributeValue s(String v) {
        return AttributeValue.fromS(v);
    }

    private static AttributeValue n(long v) {
        return AttributeValue.fromN(Long.toString(v));
    }
}
