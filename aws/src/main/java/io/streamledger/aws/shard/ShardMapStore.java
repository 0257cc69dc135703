package io.streamledger.aws.shard;

import io.streamledger.aws.items.Av;
import io.streamledger.aws.items.ModelAv;
import io.streamledger.aws.metrics.ApTag;
import io.streamledger.model.shard.ShardMap;
import io.streamledger.model.shard.ShardMapState;
import io.streamledger.model.table.Attr;
import java.util.HashMap;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.GetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.GetItemResponse;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;

/**
 * Reads and writes the durable {@link ShardMapState} item ({@code SHARDMAP#map / STATE}) in the
 * table whose keys the map shards (AP09: Inbox, AP13: Projection); every write is a compare-and-set
 * on the item's version, so two operators cannot both advance a reshard.
 *
 * @param ddb client
 * @param table physical table holding the item
 * @param seed the map in force when no item exists
 * @param ap the access pattern the item belongs to (metrics tag)
 */
public record ShardMapStore(DynamoDbClient ddb, String table, ShardMap seed, String ap) {

    /** The inbox receipts' map (AP09) in {@code inboxTable}. */
    public static ShardMapStore inbox(DynamoDbClient ddb, String inboxTable) {
        return new ShardMapStore(ddb, inboxTable, ShardMap.INBOX, "AP09");
    }

    /** The projection checkpoints' map (AP13) in {@code projectionTable}. */
    public static ShardMapStore checkpoints(DynamoDbClient ddb, String projectionTable) {
        return new ShardMapStore(ddb, projectionTable, ShardMap.PROJECTION_CHECKPOINTS, "AP13");
    }

    /** The item's key. */
    public Map<String, AttributeValue> key() {
        return Map.of(
                Attr.PK, Av.s(ShardMapState.pk(seed.name())), Attr.SK, Av.s(ShardMapState.SK));
    }

    /** The current state, strongly read; {@link ShardMapState#initial} when there is no item. */
    public ShardMapState load() {
        GetItemResponse r =
                ddb.getItem(
                        ApTag.on(GetItemRequest.builder(), ap)
                                .tableName(table)
                                .key(key())
                                .consistentRead(true)
                                .build());
        if (!r.hasItem() || r.item().isEmpty()) {
            return ShardMapState.initial(seed);
        }
        ShardMapState s = ShardMapState.fromAttributes(ModelAv.fromSdk(r.item()));
        if (!s.map().equals(seed.name())) {
            throw new IllegalStateException("item of map " + s.map() + " under " + seed.name());
        }
        return s;
    }

    /**
     * Writes {@code next} if the item is still at {@code next.revision()}; returns it at its new
     * revision. A lost race is a {@code ConditionalCheckFailedException}.
     */
    public ShardMapState write(ShardMapState next) {
        ShardMapState stored = next.withRevision(next.revision() + 1);
        Map<String, AttributeValue> item = new HashMap<>(ModelAv.toSdk(stored.toAttributes()));
        item.putAll(key());
        PutItemRequest.Builder put =
                ApTag.on(PutItemRequest.builder(), ap).tableName(table).item(item);
        if (next.revision() == 0) {
            put.conditionExpression("attribute_not_exists(#pk)")
                    .expressionAttributeNames(Map.of("#pk", Attr.PK));
        } else {
            put.conditionExpression("#v = :v")
                    .expressionAttributeNames(Map.of("#v", Attr.VERSION))
                    .expressionAttributeValues(Map.of(":v", Av.n(next.revision())));
        }
        ddb.putItem(put.build());
        return stored;
    }
}
