package io.streamledger.command.ops;

import io.streamledger.aws.items.OpsAuditItems;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.List;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.CancellationReason;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;
import software.amazon.awssdk.services.dynamodb.model.TransactionCanceledException;
import software.amazon.awssdk.services.dynamodb.model.Update;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;

/**
 * Writes an ops change (AP14/AP15/AP18) and its {@link OpsAuditItems} entry in one
 * TransactWriteItems, so no change exists without its audit item and no audit item without its
 * change.
 */
public final class OpsAudit {

    private static final SecureRandom RANDOM = new SecureRandom();

    private OpsAudit() {}

    /** A fresh audit id: 16 random hex digits (the SK also carries the time). */
    public static String newId() {
        byte[] b = new byte[8];
        RANDOM.nextBytes(b);
        return HexFormat.of().formatHex(b);
    }

    /** A conditional UpdateItem as the update action of a transaction. */
    public static TransactWriteItem update(UpdateItemRequest change) {
        return TransactWriteItem.builder()
                .update(
                        Update.builder()
                                .tableName(change.tableName())
                                .key(change.key())
                                .updateExpression(change.updateExpression())
                                .conditionExpression(change.conditionExpression())
                                .expressionAttributeNames(change.expressionAttributeNames())
                                .expressionAttributeValues(change.expressionAttributeValues())
                                .build())
                .build();
    }

    /**
     * One transaction of {@code change} (a conditional write) and the audit put.
     *
     * @return false when the change's condition failed (nothing was written)
     * @throws TransactionCanceledException for any other cancellation
     */
    public static boolean write(
            DynamoDbClient ddb, TransactWriteItem change, TransactWriteItem auditPut) {
        try {
            ddb.transactWriteItems(b -> b.transactItems(List.of(change, auditPut)));
            return true;
        } catch (TransactionCanceledException e) {
            List<CancellationReason> reasons = e.cancellationReasons();
            if (reasons != null
                    && !reasons.isEmpty()
                    && "ConditionalCheckFailed".equals(reasons.get(0).code())) {
                return false;
            }
            throw e;
        }
    }
}
