package io.streamledger.model.change;

import java.time.Instant;
import java.util.Map;
import java.util.Objects;
import javax.annotation.Nullable;

/**
 * One item change as DynamoDB Streams describes it (DESIGN "Change records"; seed "DynamoDB Streams
 * and semantic outbox events"), whichever transport delivered it. Immutable; images are absent when
 * the operation or the stream view type does not carry them.
 *
 * @param eventId the record's {@code eventID} (unique per change, repeated on redelivery)
 * @param operation INSERT, MODIFY or REMOVE
 * @param tableName table the item belongs to
 * @param keys primary-key attributes of the item
 * @param oldImage item before the change (never for INSERT)
 * @param newImage item after the change (never for REMOVE)
 * @param sequenceNumber DynamoDB Streams sequence number; for Kinesis the Kinesis record's sequence
 *     number when the caller supplied it, else null
 * @param approximateCreationDateTime when DynamoDB wrote the change (Streams: seconds precision)
 * @param sourcePosition shard and sequence number where it was read, if known
 * @param userIdentity set for TTL service deletes
 * @param transport which transport delivered the record
 */
public record ChangeRecord(
        String eventId,
        Operation operation,
        String tableName,
        Map<String, AttributeValue> keys,
        @Nullable Map<String, AttributeValue> oldImage,
        @Nullable Map<String, AttributeValue> newImage,
        @Nullable String sequenceNumber,
        Instant approximateCreationDateTime,
        @Nullable SourcePosition sourcePosition,
        @Nullable UserIdentity userIdentity,
        Transport transport) {
    public ChangeRecord {
        Objects.requireNonNull(eventId, "eventId");
        Objects.requireNonNull(operation, "operation");
        Objects.requireNonNull(tableName, "tableName");
        Objects.requireNonNull(approximateCreationDateTime, "approximateCreationDateTime");
        Objects.requireNonNull(transport, "transport");
        keys = AttributeValue.ordered(keys);
        if (keys.isEmpty()) {
            throw new IllegalArgumentException("keys must not be empty");
        }
        oldImage = oldImage == null ? null : AttributeValue.ordered(oldImage);
        newImage = newImage == null ? null : AttributeValue.ordered(newImage);
        if (operation == Operation.INSERT && oldImage != null) {
            throw new IllegalArgumentException("an INSERT has no old image");
        }
        if (operation == Operation.REMOVE && newImage != null) {
            throw new IllegalArgumentException("a REMOVE has no new image");
        }
    }

    /** True for a delete made by the TTL service (cleanup, not a business delete). */
    public boolean isTtlDelete() {
        return operation == Operation.REMOVE && userIdentity != null && userIdentity.isTtlService();
    }

    /** The string value of a key attribute, e.g. {@code key("PK")}; null when absent or not S. */
    public @Nullable String stringKey(String attribute) {
        return keys.get(attribute) instanceof AttributeValue.S s ? s.value() : null;
    }
}
