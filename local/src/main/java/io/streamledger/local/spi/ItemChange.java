package io.streamledger.local.spi;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Instant;
import java.util.Objects;
import javax.annotation.Nullable;

/**
 * One committed change of one item, as DynamoDB Streams sees it.
 *
 * @param table table name
 * @param eventName INSERT, MODIFY or REMOVE
 * @param keys the item's primary key attributes, wire form
 * @param oldImage the item before the change (absent for INSERT)
 * @param newImage the item after the change (absent for REMOVE)
 * @param sizeBytes size of the larger image by DynamoDB's item-size rules
 * @param transactionId id of the TransactWriteItems call that made it, or null for a single write
 * @param serviceDelete true for a TTL sweeper delete (userIdentity = dynamodb.amazonaws.com)
 * @param committedAt commit time on the endpoint's clock
 */
public record ItemChange(
        String table,
        EventName eventName,
        ObjectNode keys,
        @Nullable ObjectNode oldImage,
        @Nullable ObjectNode newImage,
        long sizeBytes,
        @Nullable String transactionId,
        boolean serviceDelete,
        Instant committedAt) {

    /** Stream event name. */
    public enum EventName {
        INSERT,
        MODIFY,
        REMOVE
    }

    public ItemChange {
        Objects.requireNonNull(table, "table");
        Objects.requireNonNull(eventName, "eventName");
        Objects.requireNonNull(keys, "keys");
        Objects.requireNonNull(committedAt, "committedAt");
    }
}
