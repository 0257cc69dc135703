package io.streamledger.sinks.breaks;

import io.streamledger.aws.items.Av;
import io.streamledger.aws.items.BreakItems;
import io.streamledger.model.table.Attr;
import io.streamledger.operators.recon.BreakRecord;
import java.io.Serializable;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;

/**
 * A detected AP15 break as its {@link BreakItems} item (IDX14 base item + IDX15 due-queue keys) at
 * version 1, owned by the configured team and due after a fixed delay: the one mapping every break
 * writer uses, whether through the versioned sink or as a direct create-once put.
 *
 * @param table physical Reconciliation table
 * @param owner team that owns new breaks, e.g. {@code finance-ops}
 * @param dueAfter time from detection to due
 */
public record BreakWrites(String table, String owner, Duration dueAfter) implements Serializable {

    /** The new OPEN break of {@code b}. */
    public BreakItems.NewBreak newBreak(BreakRecord b) {
        Instant detected = Instant.ofEpochMilli(b.getDetectedAtMillis());
        return new BreakItems.NewBreak(
                b.getTenant(),
                b.getBatchId(),
                b.getBreakId(),
                b.getReason(),
                b.getOrigin().name(),
                b.getSubject(),
                owner,
                detected,
                detected.plus(dueAfter),
                b.getEvidence());
    }

    /**
     * The create-once put of {@code b} at version 1: a repeat of the same deterministic id fails
     * its condition, which the caller counts as a no-op.
     */
    public PutItemRequest createOnce(BreakRecord b) {
        Map<String, AttributeValue> item =
                new HashMap<>(BreakItems.key(b.getTenant(), b.getBatchId(), b.getBreakId()));
        item.putAll(BreakItems.attributes(newBreak(b)));
        item.put(Attr.VERSION, Av.n(1));
        return PutItemRequest.builder()
                .tableName(table)
                .item(item)
                .conditionExpression("attribute_not_exists(#pk)")
                .expressionAttributeNames(Map.of("#pk", Attr.PK))
                .build();
    }
}
