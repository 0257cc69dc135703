package io.streamledger.command.outbox;

import io.streamledger.aws.items.Av;
import io.streamledger.aws.items.ModelAv;
import io.streamledger.aws.update.ConditionalUpdate;
import io.streamledger.command.config.Schema;
import io.streamledger.model.change.OutboxEvent;
import io.streamledger.model.change.OutboxEventCodec;
import io.streamledger.model.keys.OutboxLeaseKey;
import io.streamledger.model.keys.OutboxReadyKey;
import io.streamledger.model.table.Attr;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.Put;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;

/**
 * Builds the AP16 outbox item (IDX16): the model's semantic envelope ({@link OutboxEventCodec})
 * plus relay lifecycle attributes in state READY with its sparse IDX17 READY keys (seed lifecycle
 * step 1, ABSENT → READY), written in the same transaction as the state it announces; and the index
 * keys of the other states: the OUTBOX-LEASE entry of an IN_FLIGHT item, the TTL of a COMPLETED
 * one.
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

    /** TTL of a COMPLETED item (epoch seconds): cleanup only, after the retention. */
    public static final String A_EXPIRES_AT = Attr.EXPIRES_AT;

    /** How long a COMPLETED item stays readable before TTL may delete it (AP16, cleanup only). */
    public static final Duration COMPLETED_RETENTION = Duration.ofDays(7);

    /**
     * The lease-expiry entry (OUTBOX-LEASE) an IN_FLIGHT item carries until it leaves IN_FLIGHT.
     */
    public static final String[] LEASE_ENTRY = {Attr.LEASE_PK, Attr.LEASE_SK};

    /** Longest lastError stored on the item. */
    private static final int MAX_ERROR_CHARS = 500;

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

    /** The OUTBOX-LEASE entry of an event claimed until {@code leaseUntil} (AP16 step 2). */
    public static Map<String, AttributeValue> leaseEntry(String eventId, Instant leaseUntil) {
        OutboxLeaseKey k =
                OutboxLeaseKey.forEvent(SERVICE, leaseUntil, eventId, Schema.READY_SHARDS);
        return Map.of(Attr.LEASE_PK, Av.s(k.pk()), Attr.LEASE_SK, Av.s(k.sk()));
    }

    /**
     * IN_FLIGHT → READY (seed step 4) without its condition: state, a new dueAt with its IDX17
     * keys, the failure, and the lease (owner, expiry, OUTBOX-LEASE entry) removed.
     */
    static ConditionalUpdate.Builder backToReady(String eventId, Instant due, String error) {
        OutboxReadyKey ready = Schema.ready(SERVICE, due, eventId);
        return ConditionalUpdate.builder()
                .set(A_STATE, Av.s(OutboxState.READY.name()))
                .set(Schema.READY_PK, Av.s(ready.pk()))
                .set(Schema.READY_SK, Av.s(ready.sk()))
                .set(A_DUE, Av.n(due.toEpochMilli()))
                .set(
                        A_LAST_ERROR,
                        Av.s(
                                error.length() > MAX_ERROR_CHARS
                                        ? error.substring(0, MAX_ERROR_CHARS)
                                        : error))
                .increment(A_VERSION, Av.n(1))
                .remove(A_OWNER, A_LEASE)
                .remove(LEASE_ENTRY);
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
