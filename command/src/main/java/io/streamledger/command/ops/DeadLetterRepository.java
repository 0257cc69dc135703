package io.streamledger.command.ops;

import io.streamledger.aws.deadletter.DeadLetterItems;
import io.streamledger.aws.deadletter.DeadLetterReader;
import io.streamledger.aws.deadletter.DeadLetterRef;
import io.streamledger.aws.deadletter.DeadLetterView;
import io.streamledger.aws.items.OpsAuditItems;
import io.streamledger.aws.metrics.ApTag;
import io.streamledger.model.deadletter.DeadLetterReason;
import io.streamledger.model.deadletter.DeadLetterStatus;
import io.streamledger.model.keys.DeadLetterKey;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import javax.annotation.Nullable;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;

/**
 * The operators' dead-letter operations (CS08) behind both the {@code deadletters} CLI and the
 * {@code /v1/ops/dead-letters} routes: list one tenant's entries of one job (key order, optional
 * reason prefix and status filter, bounded page, opaque cursor that cannot leave the partition),
 * show one entry by strong read, and move it OPEN → DISCARDED or OPEN/REPLAY_PARKED →
 * REPLAY_REQUESTED only by a conditional write on status and version that appends the audit change;
 * nothing is deleted.
 */
public final class DeadLetterRepository {
    /** The metrics tag of its DynamoDB calls: the CS08 dead-letter table. */
    private static final String AP = "CS08";

    /** Largest page. */
    public static final int MAX_PAGE = PartitionPage.MAX_PAGE;

    /** Page size when none is given. */
    public static final int DEFAULT_PAGE = PartitionPage.DEFAULT_PAGE;

    private final DynamoDbClient ddb;
    private final String table;
    private final Clock clock;

    @Nullable private final String auditTable;

    /** Without ops audit items (the entry's own history still records every change). */
    public DeadLetterRepository(DynamoDbClient ddb, String table, Clock clock) {
        this(ddb, table, clock, null);
    }

    /**
     * @param auditTable the Reconciliation table: each change writes its {@code OpsAuditItems}
     *     entry there in the same transaction
     */
    public DeadLetterRepository(
            DynamoDbClient ddb, String table, Clock clock, @Nullable String auditTable) {
        this.ddb = ddb;
        this.table = table;
        this.clock = clock;
        this.auditTable = auditTable;
    }

    /** A page of entries; {@code cursor} is null on the last page. */
    public record Page(List<DeadLetterView> items, @Nullable String cursor) {}

    /** What a conditional status change did. */
    public enum Outcome {
        DONE,
        NOT_FOUND,
        CONFLICT,
        /** A replay of an entry whose reason is never re-injected (its replay refusal). */
        NOT_REPLAYABLE
    }

    /** The outcome with the entry as it is now (after the change, or the one that conflicted). */
    public record Result(Outcome outcome, @Nullable DeadLetterView current) {}

    /**
     * @param reason null for every reason
     * @param status null for every status (applied as a filter: a page may hold fewer items)
     * @param limit null for {@link #DEFAULT_PAGE}
     * @throws IllegalArgumentException for a bad job or limit
     */
    public Page list(
            String tenant,
            String job,
            @Nullable DeadLetterReason reason,
            @Nullable DeadLetterStatus status,
            @Nullable Integer limit,
            @Nullable String cursor) {
        PartitionPage.Page<DeadLetterView> p =
                PartitionPage.read(
                        ddb,
                        table,
                        DeadLetterKey.PK.build(tenant, job),
                        reason == null ? "DL#" : "DL#" + reason.name() + "#",
                        DeadLetterItems.A_STATUS,
                        status == null ? null : status.name(),
                        limit,
                        cursor,
                        DeadLetterItems::view);
        return new Page(p.items(), p.cursor());
    }

    /** One entry, strongly read. */
    public Optional<DeadLetterView> show(String tenant, DeadLetterRef ref) {
        return new DeadLetterReader(ddb, table).get(ref.key(tenant));
    }

    /**
     * OPEN → DISCARDED with the operator's reason; the entry stays readable as the audit record.
     */
    public Result discard(
            String tenant, DeadLetterRef ref, long expectedVersion, String actor, String reason) {
        if (reason == null || reason.isBlank()) {
            throw new IllegalArgumentException("a discard needs a reason");
        }
        return transition(
                tenant,
                ref,
                DeadLetterStatus.OPEN,
                expectedVersion,
                DeadLetterStatus.DISCARDED,
                "DISCARD",
                actor,
                reason);
    }

    /**
     * OPEN (or REPLAY_PARKED) → REPLAY_REQUESTED: the request the job reads back through its own
     * input path; refused ({@link Outcome#NOT_REPLAYABLE}, nothing changes) for a reason no job
     * re-injects.
     *
     * @param expectedVersion null to act on the version read just before (still conditional)
     */
    public Result replay(
            String tenant,
            DeadLetterRef ref,
            @Nullable Long expectedVersion,
            String actor,
            @Nullable String note) {
        if (ref.reason().replayRefusal() != null) {
            return show(tenant, ref)
                    .map(now -> new Result(Outcome.NOT_REPLAYABLE, now))
                    .orElseGet(() -> new Result(Outcome.NOT_FOUND, null));
        }
        Optional<DeadLetterView> now = show(tenant, ref);
        if (now.isEmpty()) {
            return new Result(Outcome.NOT_FOUND, null);
        }
        long v = expectedVersion != null ? expectedVersion : now.get().version();
        return transition(
                tenant,
                ref,
                replayableFrom(now.get().status()),
                v,
                DeadLetterStatus.REPLAY_REQUESTED,
                "REPLAY",
                actor,
                note);
    }

    /**
     * The status a replay request moves from: OPEN, or REPLAY_PARKED — a parked replay asked again
     * (its gate lost the parked copy, e.g. restored from a savepoint taken before the park; if the
     * gate still holds it, the new copy takes its place and one outcome settles the entry).
     */
    static DeadLetterStatus replayableFrom(DeadLetterStatus current) {
        return current == DeadLetterStatus.REPLAY_PARKED
                ? DeadLetterStatus.REPLAY_PARKED
                : DeadLetterStatus.OPEN;
    }

    private Result transition(
            String tenant,
            DeadLetterRef ref,
            DeadLetterStatus from,
            long expectedVersion,
            DeadLetterStatus to,
            String action,
            String actor,
            @Nullable String note) {
        Instant at = clock.instant();
        UpdateItemRequest change =
                DeadLetterItems.transition(
                        table, ref.key(tenant), from, expectedVersion, to, action, actor, note, at);
        if (auditTable != null) {
            return audited(tenant, ref, from, expectedVersion, to, action, actor, note, at, change);
        }
        try {
            Map<String, AttributeValue> after = ddb.updateItem(ApTag.tag(change, AP)).attributes();
            return new Result(Outcome.DONE, DeadLetterItems.view(after));
        } catch (ConditionalCheckFailedException e) {
            Optional<DeadLetterView> now = show(tenant, ref);
            return now.map(v -> new Result(Outcome.CONFLICT, v))
                    .orElseGet(() -> new Result(Outcome.NOT_FOUND, null));
        }
    }

    /** The same conditional change and its ops audit item in one TransactWriteItems. */
    private Result audited(
            String tenant,
            DeadLetterRef ref,
            DeadLetterStatus from,
            long expectedVersion,
            DeadLetterStatus to,
            String action,
            String actor,
            @Nullable String note,
            Instant now,
            UpdateItemRequest change) {
        OpsActor who = OpsActor.named(actor);
        String target = DeadLetterRef.format(ref.job(), ref.reason(), ref.id());
        OpsAuditItems.Entry audit =
                new OpsAuditItems.Entry(
                        tenant,
                        OpsAudit.newId(),
                        now,
                        who.keyId(),
                        who.role(),
                        action,
                        DEAD_LETTER_TARGET,
                        target,
                        from.name(),
                        to.name(),
                        expectedVersion,
                        expectedVersion + 1,
                        note);
        boolean done =
                OpsAudit.write(
                        ddb, AP, OpsAudit.update(change), OpsAuditItems.put(auditTable, audit));
        Optional<DeadLetterView> current = show(tenant, ref);
        if (done) {
            return new Result(
                    Outcome.DONE,
                    current.orElseThrow(() -> new IllegalStateException("entry vanished")));
        }
        return current.map(v -> new Result(Outcome.CONFLICT, v))
                .orElseGet(() -> new Result(Outcome.NOT_FOUND, null));
    }

    /** The audit target type of a dead letter. */
    public static final String DEAD_LETTER_TARGET = "DEAD_LETTER";
}
