package io.streamledger.aws.deadletter;

import io.streamledger.aws.items.Av;
import io.streamledger.model.deadletter.DeadLetterIds;
import io.streamledger.model.deadletter.ParkedGapIds;
import io.streamledger.model.deadletter.ParkedGapStatus;
import io.streamledger.model.keys.DeadLetterStatusKey;
import io.streamledger.model.keys.ParkedGapKey;
import io.streamledger.model.keys.ParkedGapQueueKey;
import io.streamledger.model.shard.ShardHash;
import io.streamledger.model.table.Attr;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.annotation.Nullable;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ReturnValue;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;

/**
 * The parked-gap record (CS07: a blocked key visible beside the dead letters, CS08) and its writes,
 * one per gap transition and never per event: {@link #observe} creates or refreshes an open gap,
 * {@link #settle} closes it (ARRIVED or SKIPPED) and works on an absent item too, {@link
 * #requestSkip} is the operator's audited OPEN → SKIP_REQUESTED and {@link #refuseSkip} puts a
 * request the gate could not apply back to OPEN. Every write is conditional, so a repeat or a
 * reordered delivery changes nothing: terminal records never change, refreshes only move forward.
 */
public final class ParkedGapItems {

    public static final String ENTITY = "PARKED_GAP";
    public static final String A_TENANT = "tenant";
    public static final String A_JOB = "job";
    public static final String A_OPERATOR = "operator";
    public static final String A_ID = "gapId";
    public static final String A_SOURCE_KEY = "aggregateKey";
    public static final String A_MISSING_VERSION = "missingVersion";
    public static final String A_SINCE = "firstParkedAt";
    public static final String A_SLA_DEADLINE = "slaDeadline";
    public static final String A_PARKED_COUNT = "parkedCount";
    public static final String A_PARKED_VERSIONS = "parkedVersions";
    public static final String A_OVERDUE = "overdue";
    public static final String A_OBSERVED_AT = "observedAt";
    public static final String A_STATUS = Attr.STATUS;
    public static final String A_VERSION = Attr.VERSION;
    public static final String A_SHARD = "shard";
    public static final String A_SKIP_REQUESTED_BY = "skipRequestedBy";
    public static final String A_SKIP_REASON = "skipReason";
    public static final String A_SKIP_REQUESTED_AT = "skipRequestedAt";
    public static final String A_CLOSED_AT = "closedAt";
    public static final String A_CLOSED_BY = "closedBy";
    public static final String A_HISTORY = "history";

    private static final Pattern REF =
            Pattern.compile("([a-z][a-z0-9-]{0,31}):([0-9a-f]{" + DeadLetterIds.LENGTH + "})");

    private ParkedGapItems() {}

    /**
     * One gap as a gate saw it at {@code atMillis}.
     *
     * @param parkedVersions versions parked behind the gap (added to the record's set)
     */
    public record Observation(
            String tenant,
            String job,
            String operator,
            String sourceKey,
            long missingVersion,
            long sinceMillis,
            long slaDeadlineMillis,
            int parkedCount,
            List<Long> parkedVersions,
            boolean overdue,
            long atMillis) {

        public ParkedGapKey key() {
            return new ParkedGapKey(tenant, job, id());
        }

        public String id() {
            return ParkedGapIds.of(job, operator, sourceKey, missingVersion);
        }
    }

    /** A history entry: who did what, when, to which status. */
    public record Change(
            Instant at, String actor, String action, ParkedGapStatus toStatus, String note) {}

    /** A stored record, as operators see it. */
    public record View(
            String tenant,
            String job,
            String operator,
            String id,
            String sourceKey,
            long missingVersion,
            Instant firstParkedAt,
            Instant slaDeadline,
            int parkedCount,
            List<Long> parkedVersions,
            boolean overdue,
            ParkedGapStatus status,
            long version,
            @Nullable String skipRequestedBy,
            @Nullable String skipReason,
            @Nullable Instant closedAt,
            @Nullable String closedBy,
            List<Change> history) {

        public String ref() {
            return ParkedGapItems.ref(job, id);
        }

        public ParkedGapKey key() {
            return new ParkedGapKey(tenant, job, id);
        }
    }

    /** The public reference of a record, {@code job:id}. */
    public static String ref(String job, String id) {
        return job + ":" + id;
    }

    /**
     * @throws IllegalArgumentException with the expected shape when {@code ref} is not one
     */
    public static ParkedGapKey parseRef(String tenant, String ref) {
        Matcher m = ref == null ? null : REF.matcher(ref);
        if (m == null || !m.matches()) {
            throw new IllegalArgumentException(
                    "parked-gap id must be 'job:"
                            + DeadLetterIds.LENGTH
                            + " hex digits', got '"
                            + ref
                            + "'");
        }
        return new ParkedGapKey(tenant, m.group(1), m.group(2));
    }

    /** Queue shard of a record: the seed's shard hash of {@code job/id}. */
    public static int shardOf(String job, String id) {
        return ShardHash.shard(job + "/" + id, DeadLetterStatusKey.SHARDS);
    }

    /** The queue partition of {@code status} for {@code tenant} and shard. */
    public static String queuePk(String tenant, ParkedGapStatus status, int shard) {
        return ParkedGapQueueKey.PK.build(tenant, status.name(), Integer.toString(shard));
    }

    /**
     * Creates the open gap, or refreshes its parked count/versions if it is still open and this
     * observation is newer; a closed record, or an older observation, is a conditional no-op.
     */
    public static UpdateItemRequest observe(String table, Observation o) {
        ParkedGapKey key = o.key();
        Instant since = Instant.ofEpochMilli(o.sinceMillis());
        int shard = shardOf(o.job(), key.id());
        ParkedGapQueueKey queue =
                new ParkedGapQueueKey(
                        o.tenant(), ParkedGapStatus.OPEN.name(), shard, since, o.job(), key.id());
        Expr x = identity(o, shard);
        x.once(A_STATUS, Av.s(ParkedGapStatus.OPEN.name()));
        x.once(A_VERSION, Av.n(1));
        x.once(Attr.GSI1PK, Av.s(queue.pk()));
        x.once(Attr.GSI1SK, Av.s(queue.sk()));
        x.set(A_PARKED_COUNT, Av.n(o.parkedCount()));
        x.set(A_OVERDUE, Av.bool(o.overdue()));
        x.set(A_OBSERVED_AT, Av.n(o.atMillis()));
        x.names.put("#pk", Attr.PK);
        x.names.put("#st", A_STATUS);
        x.names.put("#obs", A_OBSERVED_AT);
        x.values.put(":open", Av.s(ParkedGapStatus.OPEN.name()));
        x.values.put(":req", Av.s(ParkedGapStatus.SKIP_REQUESTED.name()));
        x.values.put(":at", Av.n(o.atMillis()));
        String add = "";
        if (!o.parkedVersions().isEmpty()) {
            // a number set: repeats and refreshes only ever add the same versions
            x.names.put("#pv", A_PARKED_VERSIONS);
            x.values.put(":pv", versions(o.parkedVersions()));
            add = " ADD #pv :pv";
        }
        return x.request(
                table,
                key,
                add,
                "attribute_not_exists(#pk) OR (#st IN (:open, :req) AND #obs < :at)");
    }

    /**
     * Closes the gap as {@code to} (ARRIVED or SKIPPED) if it is open or absent: leaves both
     * queues, bumps the version, appends the change; a closed record is a conditional no-op.
     */
    public static UpdateItemRequest settle(
            String table, Observation o, ParkedGapStatus to, String actor, String note) {
        if (to != ParkedGapStatus.ARRIVED && to != ParkedGapStatus.SKIPPED) {
            throw new IllegalArgumentException("a gap settles as ARRIVED or SKIPPED, not " + to);
        }
        ParkedGapKey key = o.key();
        Expr x = identity(o, shardOf(o.job(), key.id()));
        x.once(A_PARKED_COUNT, Av.n(o.parkedCount()));
        if (!o.parkedVersions().isEmpty()) {
            x.once(A_PARKED_VERSIONS, versions(o.parkedVersions()));
        }
        x.once(A_OVERDUE, Av.bool(o.overdue()));
        x.once(A_OBSERVED_AT, Av.n(o.atMillis()));
        x.set(A_STATUS, Av.s(to.name()));
        x.set(A_CLOSED_AT, Av.s(Instant.ofEpochMilli(o.atMillis()).toString()));
        x.set(A_CLOSED_BY, Av.s(actor));
        x.names.put("#pk", Attr.PK);
        x.names.put("#st", A_STATUS);
        x.names.put("#v", A_VERSION);
        x.names.put("#h", A_HISTORY);
        x.values.put(":open", Av.s(ParkedGapStatus.OPEN.name()));
        x.values.put(":req", Av.s(ParkedGapStatus.SKIP_REQUESTED.name()));
        x.values.put(":zero", Av.n(0));
        x.values.put(":one", Av.n(1));
        x.values.put(":empty", AttributeValue.fromL(List.of()));
        x.values.put(":ev", change(Instant.ofEpochMilli(o.atMillis()), actor, to.name(), to, note));
        x.set.append(", #v = if_not_exists(#v, :zero) + :one")
                .append(", #h = list_append(if_not_exists(#h, :empty), :ev)");
        x.names.put("#g1pk", Attr.GSI1PK);
        x.names.put("#g1sk", Attr.GSI1SK);
        return x.request(
                table,
                key,
                " REMOVE #g1pk, #g1sk",
                "attribute_not_exists(#pk) OR #st IN (:open, :req)");
    }

    /**
     * The operator's OPEN → SKIP_REQUESTED, conditional on status and version: records who and why,
     * moves the record into the queue the job polls.
     */
    public static UpdateItemRequest requestSkip(
            String table,
            ParkedGapKey key,
            long expectedVersion,
            String actor,
            String reason,
            Instant at) {
        ParkedGapQueueKey queue =
                new ParkedGapQueueKey(
                        key.tenant(),
                        ParkedGapStatus.SKIP_REQUESTED.name(),
                        shardOf(key.job(), key.id()),
                        at,
                        key.job(),
                        key.id());
        Map<String, String> names = new HashMap<>();
        names.put("#st", A_STATUS);
        names.put("#v", A_VERSION);
        names.put("#h", A_HISTORY);
        names.put("#by", A_SKIP_REQUESTED_BY);
        names.put("#why", A_SKIP_REASON);
        names.put("#when", A_SKIP_REQUESTED_AT);
        names.put("#g1pk", Attr.GSI1PK);
        names.put("#g1sk", Attr.GSI1SK);
        Map<String, AttributeValue> values = new HashMap<>();
        values.put(":to", Av.s(ParkedGapStatus.SKIP_REQUESTED.name()));
        values.put(":from", Av.s(ParkedGapStatus.OPEN.name()));
        values.put(":expected", Av.n(expectedVersion));
        values.put(":one", Av.n(1));
        values.put(":by", Av.s(actor));
        values.put(":why", Av.s(reason));
        values.put(":when", Av.s(at.toString()));
        values.put(":qpk", Av.s(queue.pk()));
        values.put(":qsk", Av.s(queue.sk()));
        values.put(":empty", AttributeValue.fromL(List.of()));
        values.put(":ev", change(at, actor, "SKIP", ParkedGapStatus.SKIP_REQUESTED, reason));
        return UpdateItemRequest.builder()
                .tableName(table)
                .key(key(key))
                .updateExpression(
                        "SET #st = :to, #v = #v + :one, #by = :by, #why = :why, #when = :when,"
                                + " #g1pk = :qpk, #g1sk = :qsk,"
                                + " #h = list_append(if_not_exists(#h, :empty), :ev)")
                .conditionExpression("#st = :from AND #v = :expected")
                .expressionAttributeNames(names)
                .expressionAttributeValues(values)
                .returnValues(ReturnValue.ALL_NEW)
                .build();
    }

    /**
     * A skip the gate could not apply (the key no longer waits for that version): SKIP_REQUESTED →
     * OPEN with the gate's note, back in the open queue; any other status is a no-op.
     */
    public static UpdateItemRequest refuseSkip(
            String table, Observation o, String actor, String note) {
        ParkedGapKey key = o.key();
        ParkedGapQueueKey queue =
                new ParkedGapQueueKey(
                        o.tenant(),
                        ParkedGapStatus.OPEN.name(),
                        shardOf(o.job(), key.id()),
                        Instant.ofEpochMilli(o.sinceMillis()),
                        o.job(),
                        key.id());
        Instant at = Instant.ofEpochMilli(o.atMillis());
        return UpdateItemRequest.builder()
                .tableName(table)
                .key(key(key))
                .updateExpression(
                        "SET #st = :to, #v = #v + :one, #g1pk = :qpk, #g1sk = :qsk,"
                                + " #h = list_append(if_not_exists(#h, :empty), :ev)")
                .conditionExpression("#st = :from")
                .expressionAttributeNames(
                        Map.of(
                                "#st", A_STATUS,
                                "#v", A_VERSION,
                                "#h", A_HISTORY,
                                "#g1pk", Attr.GSI1PK,
                                "#g1sk", Attr.GSI1SK))
                .expressionAttributeValues(
                        Map.of(
                                ":to", Av.s(ParkedGapStatus.OPEN.name()),
                                ":from", Av.s(ParkedGapStatus.SKIP_REQUESTED.name()),
                                ":one", Av.n(1),
                                ":qpk", Av.s(queue.pk()),
                                ":qsk", Av.s(queue.sk()),
                                ":empty", AttributeValue.fromL(List.of()),
                                ":ev",
                                        change(
                                                at,
                                                actor,
                                                "SKIP_REFUSED",
                                                ParkedGapStatus.OPEN,
                                                note)))
                .build();
    }

    /** Reads a stored record back. */
    public static View view(Map<String, AttributeValue> i) {
        List<Change> history = new ArrayList<>();
        AttributeValue h = i.get(A_HISTORY);
        if (h != null && h.hasL()) {
            for (AttributeValue e : h.l()) {
                Map<String, AttributeValue> m = e.m();
                history.add(
                        new Change(
                                Instant.parse(m.get("at").s()),
                                m.get("actor").s(),
                                m.get("action").s(),
                                ParkedGapStatus.valueOf(m.get("toStatus").s()),
                                m.get("note").s()));
            }
        }
        List<Long> parked = new ArrayList<>();
        AttributeValue pv = i.get(A_PARKED_VERSIONS);
        if (pv != null && pv.hasNs()) {
            pv.ns().forEach(v -> parked.add(Long.parseLong(v)));
            parked.sort(null);
        }
        String closedAt = Av.str(i, A_CLOSED_AT);
        AttributeValue overdue = i.get(A_OVERDUE);
        return new View(
                Av.reqStr(i, A_TENANT),
                Av.reqStr(i, A_JOB),
                Av.reqStr(i, A_OPERATOR),
                Av.reqStr(i, A_ID),
                Av.reqStr(i, A_SOURCE_KEY),
                Av.lng(i, A_MISSING_VERSION, 0),
                Instant.parse(Av.reqStr(i, A_SINCE)),
                Instant.parse(Av.reqStr(i, A_SLA_DEADLINE)),
                (int) Av.lng(i, A_PARKED_COUNT, 0),
                List.copyOf(parked),
                overdue != null && Boolean.TRUE.equals(overdue.bool()),
                ParkedGapStatus.valueOf(Av.reqStr(i, A_STATUS)),
                Av.lng(i, A_VERSION, 1),
                Av.str(i, A_SKIP_REQUESTED_BY),
                Av.str(i, A_SKIP_REASON),
                closedAt == null ? null : Instant.parse(closedAt),
                Av.str(i, A_CLOSED_BY),
                List.copyOf(history));
    }

    /** True for a stored item of this kind (the DeadLetter table holds dead letters too). */
    public static boolean isParkedGap(Map<String, AttributeValue> i) {
        AttributeValue t = i.get(Attr.ENTITY_TYPE);
        return t != null && ENTITY.equals(t.s());
    }

    public static Map<String, AttributeValue> key(ParkedGapKey key) {
        return Map.of(Attr.PK, Av.s(key.pk()), Attr.SK, Av.s(key.sk()));
    }

    private static Expr identity(Observation o, int shard) {
        Expr x = new Expr();
        x.once(Attr.ENTITY_TYPE, Av.s(ENTITY));
        x.once(A_TENANT, Av.s(o.tenant()));
        x.once(A_JOB, Av.s(o.job()));
        x.once(A_OPERATOR, Av.s(o.operator()));
        x.once(A_ID, Av.s(o.id()));
        x.once(A_SOURCE_KEY, Av.s(o.sourceKey()));
        x.once(A_MISSING_VERSION, Av.n(o.missingVersion()));
        x.once(A_SINCE, Av.s(Instant.ofEpochMilli(o.sinceMillis()).toString()));
        x.once(A_SLA_DEADLINE, Av.s(Instant.ofEpochMilli(o.slaDeadlineMillis()).toString()));
        x.once(A_SHARD, Av.n(shard));
        x.once(Attr.HASH_VERSION, Av.n(ShardHash.HASH_VERSION));
        return x;
    }

    private static AttributeValue versions(List<Long> versions) {
        return AttributeValue.fromNs(versions.stream().map(String::valueOf).distinct().toList());
    }

    private static AttributeValue change(
            Instant at, String actor, String action, ParkedGapStatus to, String note) {
        Map<String, AttributeValue> m = new HashMap<>();
        m.put("at", Av.s(at.toString()));
        m.put("actor", Av.s(actor));
        m.put("action", Av.s(action));
        m.put("toStatus", Av.s(to.name()));
        m.put("note", Av.s(note == null ? "" : note));
        return AttributeValue.fromL(List.of(AttributeValue.fromM(m)));
    }

    /** An update expression under construction: create-once and always-set attributes. */
    private static final class Expr {
        final Map<String, String> names = new HashMap<>();
        final Map<String, AttributeValue> values = new HashMap<>();
        final StringBuilder set = new StringBuilder();
        private int n;

        void once(String attr, AttributeValue v) {
            String name = "#a" + n;
            String val = ":a" + n++;
            names.put(name, attr);
            values.put(val, v);
            sep().append(name)
                    .append(" = if_not_exists(")
                    .append(name)
                    .append(", ")
                    .append(val)
                    .append(')');
        }

        void set(String attr, AttributeValue v) {
            String name = "#a" + n;
            String val = ":a" + n++;
            names.put(name, attr);
            values.put(val, v);
            sep().append(name).append(" = ").append(val);
        }

        private StringBuilder sep() {
            return set.append(set.length() == 0 ? "SET " : ", ");
        }

        UpdateItemRequest request(String table, ParkedGapKey key, String tail, String condition) {
            return UpdateItemRequest.builder()
                    .tableName(table)
                    .key(ParkedGapItems.key(key))
                    .updateExpression(set + tail)
                    .conditionExpression(condition)
                    .expressionAttributeNames(names)
                    .expressionAttributeValues(values)
                    .build();
        }
    }
}
