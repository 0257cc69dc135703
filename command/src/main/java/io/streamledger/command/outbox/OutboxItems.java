package io.streamledger.command.outbox;

import io.streamledger.aws.items.Av;
import io.streamledger.aws.items.ModelAv;
import io.streamledger.command.config.Schema;
import io.streamledger.model.change.OutboxEvent;
import io.streamledger.model.change.OutboxEventCodec;
import io.streamledger.model.keys.OutboxReadyKey;
import io.streamledger.model.table.Attr;
import java.util.HashMap;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.Put;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;

/**
 * Builds the AP16 outbox item (IDX16): the model's semantic envelope ({@link OutboxEventCodec})
 * plus relay lifecycle attributes in state READY with its sparse IDX17 READY keys (seed lifecycle
 * step 1, ABSENT → READY), written in the same transaction as the state it announces.
 */
public final class OutboxItems {

    /** The {@code svc} of this service's READY partitions. */
    public static final String SERVICE = "command";

    public static final String A_TENANT = "tenant";
    public static final String A_STATE = Attr.STATE;
    public static final String A_VERSION = Attr.VERSION;
    public static final String A_ATTEMPT = "attempt";
    public static final String A_DUE = "dueAt";
    public static final String A_OWNER = Attr.LEASE_OWNER;
    public static final String A_LEASE = Attr.LEASE_UNTIL;
    public static final String A_LAST_ERROR = "lastError";
    public static final String A_ACK = "brokerSequenceNumber";
    public static final String A_ACK_SHARD = "brokerShardId";
    public static final String A_COMPLETED = "completedAt";

    private OutboxItems() {}

    public static Map<String, AttributeValue> readyItem(String tenant, OutboxEvent e) {
        Map<String, AttributeValue> item = new HashMap<>(ModelAv.toSdk(OutboxEventCodec.toItem(e)));
        OutboxReadyKey ready = Schema.ready(SERVICE, e.occurredAt(), e.eventId());
        item.put(A_TENANT, Av.s(tenant));
        item.put(A_STATE, Av.s(OutboxState.READY.name()));
        item.put(A_VERSION, Av.n(1));
        item.put(A_ATTEMPT, Av.n(0));
        item.put(A_DUE, Av.n(e.occurredAt().toEpochMilli()));
        item.put(Attr.HASH_VERSION, Av.n(Schema.READY_SHARDS.hashVersion()));
        item.put(Attr.SHARD_MAP_VERSION, Av.n(Schema.READY_SHARDS.shardMapVersion()));
        item.put(Schema.READY_PK, Av.s(ready.pk()));
        item.put(Schema.READY_SK, Av.s(ready.sk()));
        return item;
    }

    public static Map<String, AttributeValue> key(String eventId) {
        var k = Schema.outbox(eventId);
        return Map.of(Schema.PK, Av.s(k.pk()), Schema.SK, Av.s(k.sk()));
    }

    public static TransactWriteItem createPut(String table, String tenant, OutboxEvent e) {
        return TransactWriteItem.builder()
                .put(
                        Put.builder()
                                .tableName(table)
                                .item(readyItem(tenant, e))
                                .conditionExpression("attribute_not_exists(#pk)")
                                .expressionAttributeNames(Map.of("#pk", Schema.PK))
                                .build())
                .build();
    }
}
