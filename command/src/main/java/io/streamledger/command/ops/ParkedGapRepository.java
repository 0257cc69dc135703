package io.streamledger.command.ops;

import io.streamledger.aws.deadletter.ParkedGapItems;
import io.streamledger.aws.deadletter.ParkedGapReader;
import io.streamledger.aws.items.OpsAuditItems;
import io.streamledger.model.deadletter.ParkedGapStatus;
import io.streamledger.model.keys.ParkedGapKey;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import javax.annotation.Nullable;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;

/**
 * The operators' parked-gap operations (CS07: a blocked key is visible and released only by its
 * missing version or an audited skip) behind both the {@code parkedgaps} CLI and the {@code
 * /v1/ops/parked-gaps} routes: list one tenant's gaps of one job (key order, optional status
 * filter, bounded page, opaque cursor that cannot leave the partition), show one by strong read,
 * and request the skip of its missing version: OPEN → SKIP_REQUESTED by a conditional write on
 * status and version, with its {@link OpsAuditItems} entry in the same transaction. The job then
 * applies the skip and settles the record; nothing here releases a key by itself.
 */
public final class ParkedGapRepository {

    /** Largest page. */
    public static final int MAX_PAGE = PartitionPage.MAX_PAGE;

    /** Page size when none is given. */
    public static final int DEFAULT_PAGE = PartitionPage.DEFAULT_PAGE;

    /** Longest skip reason. */
    public static final int MAX_REASON = 500;

    /** The audit target type of a parked gap. */
    public static final String TARGET = "PARKED_GAP";

    private final DynamoDbClient ddb;
    private final String table;
    private final String auditTable;
    private final Clock clock;

    /**
     * @param table the DeadLetter table
     * @param auditTable the Reconciliation table (ops audit items)
     */
    public ParkedGapRepository(DynamoDbClient ddb, String table, String auditTable, Clock clock) {
        this.ddb = ddb;
        this.table = table;
        this.auditTable = auditTable;
        this.clock = clock;
    }

    /** A page of records; {@code cursor} is null on the last page. */
    public record Page(List<ParkedGapItems.View> items, @Nullable String cursor) {}

    /** What a skip request did. */
    public enum Outcome {
        DONE,
        NOT_FOUND,
        CONFLICT
    }

    /** The outcome with the record as it is now. */
    public record Result(Outcome outcome, @Nullable ParkedGapItems.View current) {}

    /**
     * @param status null for every status (a filter: a page may hold fewer items)
     * @param limit null for {@link #DEFAULT_PAGE}
     * @throws IllegalArgumentException for a bad limit
     */
    public Page list(
            String tenant,
            String job,
            @Nullable ParkedGapStatus status,
            @Nullable Integer limit,
            @Nullable String cursor) {
        PartitionPage.Page<ParkedGapItems.View> p =
                PartitionPage.read(
                        ddb,
                        table,
                        ParkedGapKey.PK.build(tenant, job),
                        null,
                        ParkedGapItems.A_STATUS,
                        status == null ? null : status.name(),
                        limit,
                        cursor,
                        ParkedGapItems::view);
        return new Page(p.items(), p.cursor());
    }

    /** One record, strongly read; {@code ref} is {@code job:id}. */
    public Optional<ParkedGapItems.View> show(String tenant, String ref) {
        return new ParkedGapReader(ddb, table).get(ParkedGapItems.parseRef(tenant, ref));
    }

    /**
     * Asks the job to skip the gap's missing version: OPEN → SKIP_REQUESTED with who and why, and
     * the ops audit item, in one transaction.
     *
     * @param expectedVersion null to act on the version read just before (still conditional)
     * @throws IllegalArgumentException for a bad ref or a missing reason
     */
    public Result requestSkip(
            String tenant,
            String ref,
            @Nullable Long expectedVersion,
            String actor,
            String reason) {
        if (reason == null || reason.isBlank()) {
            throw new IllegalArgumentException("a skip needs a reason");
        }
        if (reason.length() > MAX_REASON) {
            throw new IllegalArgumentException("reason is longer than " + MAX_REASON);
        }
        ParkedGapKey key = ParkedGapItems.parseRef(tenant, ref);
        long v;
        if (expectedVersion != null) {
            v = expectedVersion;
        } else {
            Optional<ParkedGapItems.View> now = show(tenant, ref);
            if (now.isEmpty()) {
                return new Result(Outcome.NOT_FOUND, null);
            }
            v = now.get().version();
        }
        Instant at = clock.instant();
        UpdateItemRequest change = ParkedGapItems.requestSkip(table, key, v, actor, reason, at);
        OpsActor who = OpsActor.named(actor);
        OpsAuditItems.Entry audit =
                new OpsAuditItems.Entry(
                        tenant,
                        OpsAudit.newId(),
                        at,
                        who.keyId(),
                        who.role(),
                        "SKIP",
                        TARGET,
                        ref,
                        ParkedGapStatus.OPEN.name(),
                        ParkedGapStatus.SKIP_REQUESTED.name(),
                        v,
                        v + 1,
                        reason);
        boolean done =
                OpsAudit.write(ddb, OpsAudit.update(change), OpsAuditItems.put(auditTable, audit));
        Optional<ParkedGapItems.View> current = show(tenant, ref);
        if (done) {
            return new Result(
                    Outcome.DONE,
                    current.orElseThrow(() -> new IllegalStateException("record vanished")));
        }
        return current.map(c -> new Result(Outcome.CONFLICT, c))
                .orElseGet(() -> new Result(Outcome.NOT_FOUND, null));
    }
}
