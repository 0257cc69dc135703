package io.streamledger.aws.items;

import io.streamledger.model.keys.KeyPattern;
import io.streamledger.model.keys.KeyTime;
import io.streamledger.model.table.Attr;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.Map;
import javax.annotation.Nullable;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.Put;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;

/**
 * The append-only ops audit item (who, when, what, before/after version of an AP14/AP15/AP18 ops
 * action) in the Reconciliation table, {@code TEN#t#OPSAUDIT#yyyy-mm-dd / AT#at#auditId}: the one
 * codec every ops action writes, as a create-once put inside the action's own TransactWriteItems.
 */
public final class OpsAuditItems {

    /** Partition by tenant and UTC day of the action: an auditor reads one day with one Query. */
    public static final KeyPattern PK = KeyPattern.of("TEN#t#OPSAUDIT#date");

    public static final KeyPattern SK = KeyPattern.of("AT#at#auditId");

    public static final String ENTITY = "OPS_AUDIT";
    public static final String A_TENANT = "tenant";
    public static final String A_AUDIT_ID = "auditId";
    public static final String A_AT = "at";
    public static final String A_KEY_ID = "keyId";
    public static final String A_ROLE = "role";
    public static final String A_ACTION = "action";
    public static final String A_TARGET_TYPE = "targetType";
    public static final String A_TARGET = "target";
    public static final String A_FROM_STATUS = "fromStatus";
    public static final String A_TO_STATUS = "toStatus";
    public static final String A_FROM_VERSION = "fromVersion";
    public static final String A_TO_VERSION = "toVersion";
    public static final String A_DETAIL = "detail";

    /** What an ops action records; {@code detail} is JSON (evidence, note, owner). */
    public record Entry(
            String tenant,
            String auditId,
            Instant at,
            String keyId,
            String role,
            String action,
            String targetType,
            String target,
            @Nullable String fromStatus,
            @Nullable String toStatus,
            long fromVersion,
            long toVersion,
            @Nullable String detail) {

        /** The audit actor as the ops API names it: {@code role:keyId}. */
        public String actor() {
            return role + ":" + keyId;
        }
    }

    private OpsAuditItems() {}

    public static Map<String, AttributeValue> key(String tenant, Instant at, String auditId) {
        String day = at.atZone(ZoneOffset.UTC).toLocalDate().toString();
        return Map.of(
                Attr.PK, Av.s(PK.build(tenant, day)),
                Attr.SK, Av.s(SK.build(KeyTime.format(at), auditId)));
    }

    public static Map<String, AttributeValue> item(Entry e) {
        Map<String, AttributeValue> a = new HashMap<>(key(e.tenant(), e.at(), e.auditId()));
        a.put(Attr.ENTITY_TYPE, Av.s(ENTITY));
        a.put(A_TENANT, Av.s(e.tenant()));
        a.put(A_AUDIT_ID, Av.s(e.auditId()));
        a.put(A_AT, Av.s(KeyTime.format(e.at())));
        a.put(A_KEY_ID, Av.s(e.keyId()));
        a.put(A_ROLE, Av.s(e.role()));
        a.put(A_ACTION, Av.s(e.action()));
        a.put(A_TARGET_TYPE, Av.s(e.targetType()));
        a.put(A_TARGET, Av.s(e.target()));
        if (e.fromStatus() != null) {
            a.put(A_FROM_STATUS, Av.s(e.fromStatus()));
        }
        if (e.toStatus() != null) {
            a.put(A_TO_STATUS, Av.s(e.toStatus()));
        }
        a.put(A_FROM_VERSION, Av.n(e.fromVersion()));
        a.put(A_TO_VERSION, Av.n(e.toVersion()));
        if (e.detail() != null) {
            a.put(A_DETAIL, Av.s(e.detail()));
        }
        return a;
    }

    /** The create-once put of an entry: an audit item is never overwritten. */
    public static TransactWriteItem put(String table, Entry e) {
        return TransactWriteItem.builder()
                .put(
                        Put.builder()
                                .tableName(table)
                                .item(item(e))
                                .conditionExpression("attribute_not_exists(#pk)")
                                .expressionAttributeNames(Map.of("#pk", Attr.PK))
                                .build())
                .build();
    }

    public static Entry view(Map<String, AttributeValue> i) {
        return new Entry(
                Av.reqStr(i, A_TENANT),
                Av.reqStr(i, A_AUDIT_ID),
                KeyTime.parse(A_AT, Av.reqStr(i, A_AT)),
                Av.reqStr(i, A_KEY_ID),
                Av.reqStr(i, A_ROLE),
                Av.reqStr(i, A_ACTION),
                Av.reqStr(i, A_TARGET_TYPE),
                Av.reqStr(i, A_TARGET),
                Av.str(i, A_FROM_STATUS),
                Av.str(i, A_TO_STATUS),
                Av.lng(i, A_FROM_VERSION, 0),
                Av.lng(i, A_TO_VERSION, 0),
                Av.str(i, A_DETAIL));
    }
}
