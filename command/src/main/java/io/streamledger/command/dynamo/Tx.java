package io.streamledger.command.dynamo;

import io.streamledger.aws.error.CancellationCode;
import io.streamledger.aws.update.ConditionalUpdate;
import io.streamledger.command.config.Schema;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.CancellationReason;
import software.amazon.awssdk.services.dynamodb.model.Put;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;
import software.amazon.awssdk.services.dynamodb.model.Update;

/** Transaction action helpers shared by the admission effects. */
public final class Tx {

    private Tx() {}

    /** Deterministic creation: a Put that only applies when the item does not exist. */
    public static TransactWriteItem createPut(String table, Map<String, AttributeValue> item) {
        return TransactWriteItem.builder()
                .put(
                        Put.builder()
                                .tableName(table)
                                .item(item)
                                .conditionExpression("attribute_not_exists(#pk)")
                                .expressionAttributeNames(Map.of("#pk", Schema.PK))
                                .build())
                .build();
    }

    /** A conditional update of one item as a transaction action. */
    public static TransactWriteItem update(
            String table, Map<String, AttributeValue> key, ConditionalUpdate update) {
        return TransactWriteItem.builder()
                .update(update.applyTo(Update.builder().tableName(table).key(key)).build())
                .build();
    }

    /** True when action {@code index} of a cancelled transaction failed its condition. */
    public static boolean conditionFailed(List<CancellationReason> reasons, int index) {
        return CancellationCode.conditionFailed(reasons, index);
    }
}
