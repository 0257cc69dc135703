package io.streamledger.aws.items;

import io.streamledger.model.keys.KeyTime;
import io.streamledger.model.keys.ProjectionAliasKey;
import io.streamledger.model.table.Attr;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;

/**
 * The first write of a projection's alias item ({@code ALIAS#name / ALIAS → activeVersion}, CS09,
 * AP07) when its live namespace is provisioned: a create-once put, so an alias a cutover has moved
 * is never set back.
 */
public final class ProjectionAliasItems {

    /** When provisioning wrote the alias (a cutover adds its own {@code cutoverAt}). */
    public static final String A_PROVISIONED_AT = "provisionedAt";

    private ProjectionAliasItems() {}

    public static Map<String, AttributeValue> key(ProjectionAliasKey alias) {
        return Map.of(Attr.PK, Av.s(alias.pk()), Attr.SK, Av.s(alias.sk()));
    }

    /**
     * Writes the alias at {@code version} unless an alias item exists already.
     *
     * @return true when this call wrote it, false when one was there (whatever its version)
     */
    public static boolean provisionIfAbsent(
            DynamoDbClient ddb,
            String projectionTable,
            ProjectionAliasKey alias,
            int version,
            Instant at) {
        if (version < 1) {
            throw new IllegalArgumentException("an alias names a version >= 1, not " + version);
        }
        Map<String, AttributeValue> item = new HashMap<>(key(alias));
        item.put(Attr.ACTIVE_VERSION, Av.n(version));
        item.put(A_PROVISIONED_AT, Av.s(KeyTime.format(at)));
        try {
            ddb.putItem(
                    b ->
                            b.tableName(projectionTable)
                                    .item(item)
                                    .conditionExpression("attribute_not_exists(#pk)")
                                    .expressionAttributeNames(Map.of("#pk", Attr.PK)));
            return true;
        } catch (ConditionalCheckFailedException exists) {
            return false;
        }
    }
}
