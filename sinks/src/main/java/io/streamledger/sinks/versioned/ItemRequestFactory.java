package io.streamledger.sinks.versioned;

import java.util.HashMap;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;
import software.amazon.awssdk.services.dynamodb.model.ReturnConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;

/**
 * Turns a {@link VersionedWrite} into its guarded single-item request (seed CS06 conditional
 * projection update; AP13 version guard): UpdateItem for VERSION_GUARD, PutItem for CREATE_ONCE.
 *
 * <p>Every attribute name goes through a placeholder, so reserved words and odd names are safe.
 */
public final class ItemRequestFactory {
    static final String PK_NAME = "#sl_pk";
    static final String VERSION_NAME = "#sl_ver";
    static final String VERSION_VALUE = ":sl_v";
    private static final String ATTR_NAME = "#sl_a";
    private static final String ATTR_VALUE = ":sl_a";

    private final WriteGuard guard;
    private final ReturnConsumedCapacity consumedCapacity;

    public ItemRequestFactory(WriteGuard guard, ReturnConsumedCapacity consumedCapacity) {
        this.guard = guard;
        this.consumedCapacity = consumedCapacity;
    }

    public WriteGuard guard() {
        return guard;
    }

    /**
     * @throws IllegalArgumentException if the write's key lacks the guard's partition key or the
     *     write sets the version attribute itself
     */
    public UpdateItemRequest updateItem(VersionedWrite write) {
        requireGuardable(write);
        Map<String, String> names = new HashMap<>();
        Map<String, AttributeValue> values = new HashMap<>();
        names.put(PK_NAME, guard.partitionKeyAttribute());
        names.put(VERSION_NAME, guard.versionAttribute());
        values.put(VERSION_VALUE, AttributeValue.fromN(Long.toString(write.sourceVersion())));

        StringBuilder update = new StringBuilder("SET ").append(VERSION_NAME).append(" = ");
        update.append(VERSION_VALUE);
        int i = 0;
        for (Map.Entry<String, AttributeValue> e : write.attributes().entrySet()) {
            String name = ATTR_NAME + i;
            String value = ATTR_VALUE + i;
            names.put(name, e.getKey());
            values.put(value, e.getValue());
            update.append(", ").append(name).append(" = ").append(value);
            i++;
        }
        String condition =
                "(attribute_not_exists("
                        + PK_NAME
                        + ") OR "
                        + VERSION_NAME
                        + " < "
                        + VERSION_VALUE
                        + ")";
        condition = withExtra(condition, write, names, values);
        return UpdateItemRequest.builder()
                .tableName(write.tableName())
                .key(write.key())
                .updateExpression(update.toString())
                .conditionExpression(condition)
                .expressionAttributeNames(names)
                .expressionAttributeValues(values)
                .returnConsumedCapacity(consumedCapacity)
                .build();
    }

    /**
     * @throws IllegalArgumentException as {@link #updateItem}
     */
    public PutItemRequest putItem(VersionedWrite write) {
        requireGuardable(write);
        Map<String, AttributeValue> item = new HashMap<>(write.key());
        item.putAll(write.attributes());
        item.put(
                guard.versionAttribute(),
                AttributeValue.fromN(Long.toString(write.sourceVersion())));
        Map<String, String> names = new HashMap<>();
        Map<String, AttributeValue> values = new HashMap<>();
        names.put(PK_NAME, guard.partitionKeyAttribute());
        String condition = withExtra("attribute_not_exists(" + PK_NAME + ")", write, names, values);
        PutItemRequest.Builder b =
                PutItemRequest.builder()
                        .tableName(write.tableName())
                        .item(item)
                        .conditionExpression(condition)
                        .expressionAttributeNames(names)
                        .returnConsumedCapacity(consumedCapacity);
        if (!values.isEmpty()) {
            b.expressionAttributeValues(values); // DynamoDB rejects an empty value map
        }
        return b.build();
    }

    private void requireGuardable(VersionedWrite write) {
        if (!write.key().containsKey(guard.partitionKeyAttribute())) {
            throw new IllegalArgumentException(
                    "key of "
                            + write
                            + " lacks the guard's partition key '"
                            + guard.partitionKeyAttribute()
                            + "'");
        }
        if (write.attributes().containsKey(guard.versionAttribute())) {
            throw new IllegalArgumentException(
                    write
                            + " sets the guard's version attribute '"
                            + guard.versionAttribute()
                            + "' itself; pass the version as sourceVersion");
        }
    }

    private static String withExtra(
            String guardCondition,
            VersionedWrite write,
            Map<String, String> names,
            Map<String, AttributeValue> values) {
        ExtraCondition extra = write.extraCondition();
        if (extra == null) {
            return guardCondition;
        }
        names.putAll(extra.names());
        values.putAll(extra.values());
        return guardCondition + " AND (" + extra.expression() + ")";
    }
}
