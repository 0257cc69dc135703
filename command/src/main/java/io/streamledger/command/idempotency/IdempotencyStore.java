package io.streamledger.command.idempotency;

import io.streamledger.aws.items.Av;
import io.streamledger.command.config.Schema;
import io.streamledger.command.dynamo.CapacityMeter;
import io.streamledger.command.dynamo.Ddb;
import io.streamledger.model.keys.RepairDueKey;
import io.streamledger.model.keys.RequestKey;
import io.streamledger.model.table.Attr;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import javax.annotation.Nullable;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.Put;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;
import software.amazon.awssdk.services.dynamodb.model.ReturnValuesOnConditionCheckFailure;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;

/**
 * Reads and conditionally transitions AP08 request records (IDX08) and their sparse AP18 repair
 * membership (IDX19). Every transition is conditioned on owner + attempt, never on TTL.
 */
public final class IdempotencyStore {

    // attribute names of the IDX08 record
    public static final String A_TENANT = "tenant";
    public static final String A_KEY = "requestKey";
    public static final String A_OPERATION = "operation";
    public static final String A_FINGERPRINT = Attr.FINGERPRINT;
    public static final String A_STATE = Attr.STATE;
    public static final String A_OWNER = Attr.LEASE_OWNER;
    public static final String A_LEASE = Attr.LEASE_UNTIL;
    public static final String A_ATTEMPT = "attempt";
    public static final String A_COMMAND = "command";
    public static final String A_EFFECT = "effectId";
    public static final String A_RESPONSE_STATUS = "responseCode";
    public static final String A_RESPONSE_BODY = "responseBody";
    public static final String A_RESPONSE_DIGEST = "responseDigest";
    public static final String A_CREATED = "createdAt";
    public static final String A_UPDATED = "updatedAt";
    public static final String A_EXPIRES = Attr.EXPIRES_AT;
    public static final String A_REPAIR_REASON = "repairReason";
    public static final String A_REPAIR_COUNT = "repairCount";
    public static final String A_ESCALATED_AT = "escalatedAt";

    /**
     * Due time (and lease) of an escalated record: after every real due time, so the repair
     * worker's {@code SK < DUE#now} never reaches it and it waits for an operator (AP18).
     */
    public static final Instant OPERATOR_HOLD = Instant.parse("9999-12-31T23:59:59.999Z");

    private final Ddb ddb;
    private final String table;
    private final Clock clock;
    private final Duration lease;
    private final Duration retention;
    private final boolean repairIndexOnClaim;

    /**
     * @param repairIndexOnClaim when true an IN_PROGRESS claim is placed in the IDX19 repair queue
     *     (due at lease expiry) so a crashed attempt is found by the repair worker; completion then
     *     removes that entry (one extra GSI delete beyond AMP14).
     */
    public IdempotencyStore(
            Ddb ddb,
            String table,
            Clock clock,
            Duration lease,
            Duration retention,
            boolean repairIndexOnClaim) {
        this.ddb = ddb.ap("AP08");
        this.table = table;
        this.clock = clock;
        this.lease = lease;
        this.retention = retention;
        this.repairIndexOnClaim = repairIndexOnClaim;
    }

    public String table() {
        return table;
    }

    public Clock clock() {
        return clock;
    }

    public Duration lease() {
        return lease;
    }

    public static Map<String, AttributeValue> key(String tenant, String requestKey) {
        RequestKey k = Schema.request(tenant, requestKey);
        return Map.of(Schema.PK, Av.s(k.pk()), Schema.SK, Av.s(k.sk()));
    }

    /** Thrown when a claim meets an existing record; carries that record (read strongly). */
    public static final class RecordExists extends RuntimeException {
        private final IdempotencyRecord existing;

        RecordExists(IdempotencyRecord existing) {
            super("request record exists", null, false, false);
            this.existing = existing;
        }

        public IdempotencyRecord existing() {
            return existing;
        }
    }

    /** AP08 step 1: conditionally create IN_PROGRESS with a short lease. */
    public Claim claim(
            String tenant,
            String requestKey,
            String operation,
            String fingerprint,
            String owner,
            String commandJson,
            String effectId,
            CapacityMeter meter) {
        Instant now = clock.instant().truncatedTo(java.time.temporal.ChronoUnit.MILLIS);
        long leaseUntil = now.plus(lease).toEpochMilli();
        Map<String, AttributeValue> item = new HashMap<>(key(tenant, requestKey));
        item.put(A_TENANT, Av.s(tenant));
        item.put(A_KEY, Av.s(requestKey));
        item.put(A_OPERATION, Av.s(operation));
        item.put(A_FINGERPRINT, Av.s(fingerprint));
        item.put(A_STATE, Av.s(RequestState.IN_PROGRESS.name()));
        item.put(A_OWNER, Av.s(owner));
        item.put(A_LEASE, Av.n(leaseUntil));
        item.put(A_ATTEMPT, Av.n(1));
        item.put(A_COMMAND, Av.s(commandJson));
        item.put(A_EFFECT, Av.s(effectId));
        item.put(A_CREATED, Av.s(now.toString()));
        item.put(A_UPDATED, Av.s(now.toString()));
        item.put(A_EXPIRES, Av.n(now.plus(retention).getEpochSecond()));
        if (repairIndexOnClaim) {
            putRepairKeys(item, tenant, requestKey, Instant.ofEpochMilli(leaseUntil));
        }
        try {
            ddb.put(
                    PutItemRequest.builder()
                            .tableName(table)
                            .item(item)
                            .conditionExpression("attribute_not_exists(#pk)")
                            .expressionAttributeNames(Map.of("#pk", Schema.PK))
                            .returnValuesOnConditionCheckFailure(
                                    ReturnValuesOnConditionCheckFailure.ALL_OLD),
                    meter);
        } catch (ConditionalCheckFailedException e) {
            Map<String, AttributeValue> old =
                    e.hasItem() && !e.item().isEmpty()
                            ? e.item()
                            : ddb.getStrong(table, key(tenant, requestKey), meter);
            if (old == null) {
                // deleted between the failed condition and the read (TTL cleanup): try again
                return claim(
                        tenant,
                        requestKey,
                        operation,
                        fingerprint,
                        owner,
                        commandJson,
                        effectId,
                        meter);
            }
            throw new RecordExists(toRecord(old));
        }
        return new Claim(
                tenant,
                requestKey,
                operation,
                fingerprint,
                owner,
                1,
                leaseUntil,
                commandJson,
                effectId);
    }

    private static void putRepairKeys(
            Map<String, AttributeValue> item, String tenant, String requestKey, Instant due) {
        RepairDueKey rk = Schema.repairDue(tenant, requestKey, due);
        item.put(Schema.REPAIR_PK, Av.s(rk.pk()));
        item.put(Schema.REPAIR_SK, Av.s(rk.sk()));
    }

    /**
     * AP08 step 3: one conditional takeover of an expired lease (or of a REPAIR_REQUIRED record by
     * the repair worker). Returns null when another owner won.
     */
    @Nullable
    public Claim takeOver(IdempotencyRecord seen, String newOwner, CapacityMeter meter) {
        Instant now = clock.instant().truncatedTo(java.time.temporal.ChronoUnit.MILLIS);
        long leaseUntil = now.plus(lease).toEpochMilli();
        int next = seen.attempt() + 1;
        Map<String, String> names = new HashMap<>();
        names.put("#state", A_STATE);
        names.put("#owner", A_OWNER);
        names.put("#lease", A_LEASE);
        names.put("#attempt", A_ATTEMPT);
        names.put("#updated", A_UPDATED);
        Map<String, AttributeValue> values = new HashMap<>();
        values.put(":seenState", Av.s(seen.state().name()));
        values.put(":attempt", Av.n(seen.attempt()));
        values.put(":next", Av.n(next));
        values.put(":owner", Av.s(newOwner));
        values.put(":lease", Av.n(leaseUntil));
        values.put(":now", Av.n(now.toEpochMilli()));
        values.put(":updated", Av.s(now.toString()));
        names.put("#exp", A_EXPIRES);
        String set = "SET #owner = :owner, #lease = :lease, #attempt = :next, #updated = :updated";
        if (repairIndexOnClaim || seen.state() == RequestState.REPAIR_REQUIRED) {
            names.put("#rpk", Schema.REPAIR_PK);
            names.put("#rsk", Schema.REPAIR_SK);
            RepairDueKey rk =
                    Schema.repairDue(
                            seen.tenant(), seen.requestKey(), Instant.ofEpochMilli(leaseUntil));
            values.put(":rpk", Av.s(rk.pk()));
            values.put(":rsk", Av.s(rk.sk()));
            set += ", #rpk = :rpk, #rsk = :rsk";
        }
        try {
            ddb.update(
                    UpdateItemRequest.builder()
                            .tableName(table)
                            .key(key(seen.tenant(), seen.requestKey()))
                            // a record under repair is unresolved: TTL returns at completion
                            .updateExpression(set + " REMOVE #exp")
                            .conditionExpression(
                                    "#state = :seenState AND #attempt = :attempt AND #lease <="
                                            + " :now")
                            .expressionAttributeNames(names)
                            .expressionAttributeValues(values),
                    meter);
        } catch (ConditionalCheckFailedException e) {
            return null;
        }
        return new Claim(
                seen.tenant(),
                seen.requestKey(),
                seen.operation(),
                seen.fingerprint(),
                newOwner,
                next,
                leaseUntil,
                seen.commandJson(),
                seen.effectId());
    }

    /**
     * AP08 step 4: the COMPLETED record with the durable response, as one action of the effect's
     * transaction; it only applies while this claim still owns the record.
     */
    public TransactWriteItem completionPut(Claim claim, DurableResponse response) {
        return TransactWriteItem.builder()
                .put(
                        Put.builder()
                                .tableName(table)
                                .item(completedItem(claim, response))
                                .conditionExpression(ownedCondition())
                                .expressionAttributeNames(ownedNames())
                                .expressionAttributeValues(ownedValues(claim))
                                .returnValuesOnConditionCheckFailure(
                                        ReturnValuesOnConditionCheckFailure.ALL_OLD)
                                .build())
                .build();
    }

    /** The full COMPLETED item; repair keys are absent, so the record leaves IDX19. */
    public Map<String, AttributeValue> completedItem(Claim claim, DurableResponse response) {
        Instant now = clock.instant().truncatedTo(java.time.temporal.ChronoUnit.MILLIS);
        Map<String, AttributeValue> item = new HashMap<>(key(claim.tenant(), claim.requestKey()));
        item.put(A_TENANT, Av.s(claim.tenant()));
        item.put(A_KEY, Av.s(claim.requestKey()));
        item.put(A_OPERATION, Av.s(claim.operation()));
        item.put(A_FINGERPRINT, Av.s(claim.fingerprint()));
        item.put(A_STATE, Av.s(RequestState.COMPLETED.name()));
        item.put(A_OWNER, Av.s(claim.owner()));
        item.put(A_ATTEMPT, Av.n(claim.attempt()));
        item.put(A_LEASE, Av.n(0));
        item.put(A_EFFECT, Av.s(claim.effectId()));
        item.put(A_RESPONSE_STATUS, Av.n(response.status()));
        item.put(A_RESPONSE_BODY, Av.s(response.body()));
        item.put(A_RESPONSE_DIGEST, Av.s(response.digest()));
        item.put(A_UPDATED, Av.s(now.toString()));
        item.put(A_EXPIRES, Av.n(now.plus(retention).getEpochSecond()));
        return item;
    }

    private static String ownedCondition() {
        return "#owner = :owner AND #attempt = :attempt AND #fp = :fp AND #state IN (:inprog,"
                + " :repair)";
    }

    private static Map<String, String> ownedNames() {
        return Map.of(
                "#owner", A_OWNER, "#attempt", A_ATTEMPT, "#fp", A_FINGERPRINT, "#state", A_STATE);
    }

    private static Map<String, AttributeValue> ownedValues(Claim claim) {
        Map<String, AttributeValue> v = new HashMap<>();
        v.put(":owner", Av.s(claim.owner()));
        v.put(":attempt", Av.n(claim.attempt()));
        v.put(":fp", Av.s(claim.fingerprint()));
        v.put(":inprog", Av.s(RequestState.IN_PROGRESS.name()));
        v.put(":repair", Av.s(RequestState.REPAIR_REQUIRED.name()));
        return v;
    }

    /**
     * Completes outside an effect transaction, for outcomes decided without writing an effect (e.g.
     * a business rejection or an effect already present). False when ownership was lost.
     */
    public boolean completeAlone(Claim claim, DurableResponse response, CapacityMeter meter) {
        try {
            ddb.put(
                    PutItemRequest.builder()
                            .tableName(table)
                            .item(completedItem(claim, response))
                            .conditionExpression(ownedCondition())
                            .expressionAttributeNames(ownedNames())
                            .expressionAttributeValues(ownedValues(claim)),
                    meter);
            return true;
        } catch (ConditionalCheckFailedException e) {
            return false;
        }
    }

    /**
     * AP08 step 4 fallback: the outcome is ambiguous, so hand the record to the AP18 repair worker
     * (AMP13: failed state + repair GSI entry). False when ownership was lost.
     */
    public boolean markRepairRequired(
            Claim claim, String reason, Duration delay, CapacityMeter meter) {
        Instant now = clock.instant().truncatedTo(java.time.temporal.ChronoUnit.MILLIS);
        Instant due = now.plus(delay);
        Map<String, String> names = new HashMap<>(ownedNames());
        names.put("#reason", A_REPAIR_REASON);
        names.put("#lease", A_LEASE);
        names.put("#updated", A_UPDATED);
        names.put("#rpk", Schema.REPAIR_PK);
        names.put("#rsk", Schema.REPAIR_SK);
        names.put("#exp", A_EXPIRES);
        Map<String, AttributeValue> values = new HashMap<>(ownedValues(claim));
        values.put(":reason", Av.s(truncate(reason, 500)));
        values.put(":lease", Av.n(due.toEpochMilli()));
        values.put(":updated", Av.s(now.toString()));
        values.put(":repairState", Av.s(RequestState.REPAIR_REQUIRED.name()));
        RepairDueKey rk = Schema.repairDue(claim.tenant(), claim.requestKey(), due);
        values.put(":rpk", Av.s(rk.pk()));
        values.put(":rsk", Av.s(rk.sk()));
        try {
            ddb.update(
                    UpdateItemRequest.builder()
                            .tableName(table)
                            .key(key(claim.tenant(), claim.requestKey()))
                            .updateExpression(
                                    "SET #state = :repairState, #reason = :reason, #lease = :lease,"
                                            + " #updated = :updated, #rpk = :rpk, #rsk = :rsk"
                                            + " REMOVE #exp")
                            .conditionExpression(ownedCondition())
                            .expressionAttributeNames(names)
                            .expressionAttributeValues(values),
                    meter);
            return true;
        } catch (ConditionalCheckFailedException e) {
            return false;
        }
    }

    /**
     * Escalation by the repair worker: keeps REPAIR_REQUIRED, records why and when, and parks the
     * record at {@link #OPERATOR_HOLD} in the repair index, so it waits for an operator (listed
     * with its age) instead of re-entering the worker's queue; it has no TTL until resolved.
     */
    public boolean escalate(Claim claim, String reason, CapacityMeter meter) {
        Instant now = clock.instant().truncatedTo(java.time.temporal.ChronoUnit.MILLIS);
        Map<String, String> names = new HashMap<>(ownedNames());
        names.put("#reason", A_REPAIR_REASON);
        names.put("#count", A_REPAIR_COUNT);
        names.put("#lease", A_LEASE);
        names.put("#rpk", Schema.REPAIR_PK);
        names.put("#rsk", Schema.REPAIR_SK);
        names.put("#escalated", A_ESCALATED_AT);
        names.put("#updated", A_UPDATED);
        names.put("#exp", A_EXPIRES);
        Map<String, AttributeValue> values = new HashMap<>(ownedValues(claim));
        values.put(":reason", Av.s(ESCALATED_PREFIX + truncate(reason, 480)));
        values.put(":one", Av.n(1));
        values.put(":zero", Av.n(0));
        values.put(":lease", Av.n(OPERATOR_HOLD.toEpochMilli()));
        values.put(":repairState", Av.s(RequestState.REPAIR_REQUIRED.name()));
        values.put(":now", Av.s(now.toString()));
        RepairDueKey rk = Schema.repairDue(claim.tenant(), claim.requestKey(), OPERATOR_HOLD);
        values.put(":rpk", Av.s(rk.pk()));
        values.put(":rsk", Av.s(rk.sk()));
        try {
            ddb.update(
                    UpdateItemRequest.builder()
                            .tableName(table)
                            .key(key(claim.tenant(), claim.requestKey()))
                            .updateExpression(
                                    "SET #state = :repairState, #reason = :reason, #lease = :lease,"
                                            + " #rpk = :rpk, #rsk = :rsk, #escalated = :now,"
                                            + " #updated = :now,"
                                            + " #count = if_not_exists(#count, :zero) + :one"
                                            + " REMOVE #exp")
                            .conditionExpression(ownedCondition())
                            .expressionAttributeNames(names)
                            .expressionAttributeValues(values),
                    meter);
            return true;
        } catch (ConditionalCheckFailedException e) {
            return false;
        }
    }

    /** Prefix of an escalated record's {@code repairReason}. */
    public static final String ESCALATED_PREFIX = "ESCALATED: ";

    @Nullable
    public IdempotencyRecord read(String tenant, String requestKey, CapacityMeter meter) {
        Map<String, AttributeValue> item = ddb.getStrong(table, key(tenant, requestKey), meter);
        return item == null ? null : toRecord(item);
    }

    public static IdempotencyRecord toRecord(Map<String, AttributeValue> item) {
        DurableResponse response = null;
        if (item.containsKey(A_RESPONSE_STATUS)) {
            response =
                    new DurableResponse(
                            (int) Av.lng(item, A_RESPONSE_STATUS, 0),
                            Av.reqStr(item, A_RESPONSE_BODY));
        }
        return new IdempotencyRecord(
                Av.reqStr(item, A_TENANT),
                Av.reqStr(item, A_KEY),
                Av.reqStr(item, A_OPERATION),
                Av.reqStr(item, A_FINGERPRINT),
                RequestState.valueOf(Av.reqStr(item, A_STATE)),
                Av.str(item, A_OWNER),
                Av.lng(item, A_LEASE, 0),
                (int) Av.lng(item, A_ATTEMPT, 1),
                Av.str(item, A_COMMAND),
                Av.str(item, A_EFFECT),
                response,
                Av.str(item, A_REPAIR_REASON),
                (int) Av.lng(item, A_REPAIR_COUNT, 0));
    }

    private static String truncate(String s, int max) {
        if (s == null) {
            return "";
        }
        return s.length() <= max ? s : s.substring(0, max);
    }
}
