package io.streamledger.command.ops;

import io.streamledger.aws.deadletter.ParkedGapItems;
import io.streamledger.aws.deadletter.ParkedGapReader;
import io.streamledger.aws.items.OpsAuditItems;
import io.streamledger.command.api.PageCursor;
import io.streamledger.model.deadletter.ParkedGapStatus;
import io.streamledger.model.keys.ParkedGapKey;
import io.streamledger.model.table.Attr;
import java.time.Clock;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import javax.annotation.Nullable;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;
import software.amazon.awssdk.services.dynamodb.model.Update;
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
    public static final int MAX_PAGE = 100;

    /** Page size when none is given. */
    public static final int DEFAULT_PAGE = 50;

    /** Longest skip reason. */
    public static final int MAX_REASON = 500;

    /** The audit target type of a parked gap. */
    public static final String TARGET = "PARKED_GAP";

    private static final Set<String> CURSOR_ATTRS = Set.of(Attr.PK, Attr.SK);

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
        int n = limit == null ? DEFAULT_PAGE : limit;
        if (n < 1 || n > MAX_PAGE) {
            throw new IllegalArgumentException("limit must be in [1, " + MAX_PAGE + "], got " + n);
        }
        String pk = ParkedGapKey.PK.build(tenant, job);
        Map<String, String> names = new HashMap<>(Map.of("#pk", Attr.PK));
        Map<String, AttributeValue> values = new HashMap<>();
        values.put(":pk", AttributeValue.fromS(pk));
        QueryRequest.Builder q =
                QueryRequest.builder()
                        .tableName(table)
                        .keyConditionExpression("#pk = :pk")
                        .consistentRead(true)
                        .limit(n);
        if (status != null) {
            names.put("#st", ParkedGapItems.A_STATUS);
            values.put(":st", AttributeValue.fromS(status.name()));
            q.filterExpression("#st = :st");
        }
        Map<String, AttributeValue> start = PageCursor.decode(cursor, CURSOR_ATTRS, Attr.PK, pk);
        if (start != null) {
            q.exclusiveStartKey(start);
        }
        QueryResponse r =
                ddb.query(
                        q.expressionAttributeNames(names)
                                .expressionAttributeValues(values)
                                .build());
        return new Page(
                r.items().stream().map(ParkedGapItems::view).toList(),
                r.hasLastEvaluatedKey() ? PageCursor.encode(r.lastEvaluatedKey()) : null);
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
        TransactWriteItem update =
                TransactWriteItem.builder()
                        .update(
                                Update.builder()
                                        .tableName(change.tableName())
                                        .key(change.key())
                                        .updateExpression(change.updateExpression())
                                        .conditionExpression(change.conditionExpression())
                                        .expressionAttributeNames(change.expressionAttributeNames())
                                        .expressionAttributeValues(
                                                change.expressionAttributeValues())
                                        .build())
                        .build();
        boolean done = OpsAudit.write(ddb, update, OpsAuditItems.put(auditTable, audit));
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
