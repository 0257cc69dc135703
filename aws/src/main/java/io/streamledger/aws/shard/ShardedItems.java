package io.streamledger.aws.shard;

import io.streamledger.aws.items.Av;
import io.streamledger.aws.metrics.ApTag;
import io.streamledger.model.keys.CheckpointKey;
import io.streamledger.model.keys.InboxKey;
import io.streamledger.model.projection.ProjectionSchema;
import io.streamledger.model.shard.ShardMap;
import io.streamledger.model.table.Attr;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;

/**
 * The items one versioned shard map spreads (AP09 receipts {@code CONSUMER#name#V#v#SHARD#s}, AP13
 * checkpoints {@code PROJ#name#V#v#SHARD#s}), read shard by shard with strongly consistent keyed
 * queries: no scan, one query fan-out of N per map version.
 *
 * @param kind which key grammar
 * @param name consumer or projection name
 */
public record ShardedItems(Kind kind, String name) {

    /** The two sharded key grammars a reshard moves. */
    public enum Kind {
        /** IDX09 inbox receipts (AP09). */
        RECEIPTS("AP09"),
        /** IDX12 projection checkpoints (AP13). */
        CHECKPOINTS("AP13");

        final String ap;

        Kind(String ap) {
            this.ap = ap;
        }
    }

    /** One item found under one shard of one map version. */
    public record Found(int shard, String id, Map<String, AttributeValue> item, boolean placed) {}

    /** Partition key of {@code shard} under {@code map}. */
    public String pk(ShardMap map, int shard) {
        return kind == Kind.RECEIPTS
                ? new InboxKey(name, map.shardMapVersion(), shard, "x").pk()
                : new CheckpointKey(name, map.shardMapVersion(), shard, "x").pk();
    }

    /** The key of {@code id} under {@code map}: PK and SK. */
    public Map<String, AttributeValue> key(ShardMap map, String id) {
        if (kind == Kind.RECEIPTS) {
            InboxKey k = InboxKey.forEvent(name, id, map);
            return Map.of(Attr.PK, Av.s(k.pk()), Attr.SK, Av.s(k.sk()));
        }
        CheckpointKey k = CheckpointKey.forSource(name, id, map);
        return Map.of(Attr.PK, Av.s(k.pk()), Attr.SK, Av.s(k.sk()));
    }

    /** Every item of {@code map}, shard by shard; {@code placed} = its shard is the hash's. */
    public List<Found> list(DynamoDbClient ddb, String table, ShardMap map) {
        List<Found> out = new ArrayList<>();
        for (int shard = 0; shard < map.shardCount(); shard++) {
            Map<String, AttributeValue> start = null;
            do {
                QueryRequest.Builder q =
                        ApTag.on(QueryRequest.builder(), kind.ap)
                                .tableName(table)
                                .keyConditionExpression("#pk = :pk")
                                .expressionAttributeNames(Map.of("#pk", Attr.PK))
                                .expressionAttributeValues(Map.of(":pk", Av.s(pk(map, shard))))
                                .consistentRead(true);
                if (start != null) {
                    q.exclusiveStartKey(start);
                }
                QueryResponse r = ddb.query(q.build());
                for (Map<String, AttributeValue> i : r.items()) {
                    String pk = i.get(Attr.PK).s();
                    String sk = i.get(Attr.SK).s();
                    boolean placed;
                    String id;
                    if (kind == Kind.RECEIPTS) {
                        InboxKey k = InboxKey.parse(pk, sk);
                        id = k.eventId();
                        placed = k.isConsistentWith(map);
                    } else {
                        CheckpointKey k = CheckpointKey.parse(pk, sk);
                        id = k.sourceKey();
                        placed = k.isConsistentWith(map);
                    }
                    out.add(new Found(shard, id, i, placed));
                }
                start =
                        r.hasLastEvaluatedKey() && !r.lastEvaluatedKey().isEmpty()
                                ? r.lastEvaluatedKey()
                                : null;
            } while (start != null);
        }
        return out;
    }

    /** The checkpoint row's guard revision (0 when absent). */
    static long revision(Map<String, AttributeValue> item) {
        AttributeValue r = item.get(ProjectionSchema.REVISION);
        return r == null || r.n() == null ? 0 : Long.parseLong(r.n());
    }
}
