package io.streamledger.savepoints.proof;

import io.streamledger.model.keys.CheckpointKey;
import io.streamledger.model.shard.ShardMap;
import io.streamledger.savepoints.bootstrap.Namespace;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;
import software.amazon.awssdk.services.dynamodb.model.ScanResponse;

/**
 * Paged, strongly consistent reads the proof needs (CS09 step 6): a whole-table scan with an
 * optional {@code begins_with(SK)} filter, and the seven IDX12 checkpoint shards of a namespace
 * (AP13: a whole-projection listing fans out one query per shard).
 */
public final class NamespaceScans {

    /** Items per page; bounds each response. */
    static final int PAGE = 500;

    private NamespaceScans() {}

    public static void scan(
            DynamoDbClient ddb,
            String table,
            String skPrefix,
            Consumer<Map<String, AttributeValue>> each) {
        Map<String, AttributeValue> start = null;
        do {
            Map<String, AttributeValue> from = start;
            ScanResponse r =
                    ddb.scan(
                            b -> {
                                b.tableName(table).consistentRead(true).limit(PAGE);
                                if (skPrefix != null) {
                                    b.filterExpression("begins_with(SK, :p)")
                                            .expressionAttributeValues(
                                                    Map.of(":p", AttributeValue.fromS(skPrefix)));
                                }
                                if (from != null) {
                                    b.exclusiveStartKey(from);
                                }
                            });
            r.items().forEach(each);
            start =
                    r.hasLastEvaluatedKey() && !r.lastEvaluatedKey().isEmpty()
                            ? r.lastEvaluatedKey()
                            : null;
        } while (start != null);
    }

    /** Every IDX12 checkpoint row of the namespace, shard by shard. */
    public static List<Map<String, AttributeValue>> checkpoints(DynamoDbClient ddb, Namespace ns) {
        ShardMap map = ShardMap.PROJECTION_CHECKPOINTS;
        List<Map<String, AttributeValue>> out = new ArrayList<>();
        for (int shard = 0; shard < map.shardCount(); shard++) {
            String pk =
                    new CheckpointKey(ns.checkpointName(), map.shardMapVersion(), shard, "x").pk();
            Map<String, AttributeValue> start = null;
            do {
                Map<String, AttributeValue> from = start;
                QueryResponse r =
                        ddb.query(
                                b -> {
                                    b.tableName(ns.projectionTable())
                                            .consistentRead(true)
                                            .limit(PAGE)
                                            .keyConditionExpression("PK = :pk")
                                            .expressionAttributeValues(
                                                    Map.of(":pk", AttributeValue.fromS(pk)));
                                    if (from != null) {
                                        b.exclusiveStartKey(from);
                                    }
                                });
                out.addAll(r.items());
                start =
                        r.hasLastEvaluatedKey() && !r.lastEvaluatedKey().isEmpty()
                                ? r.lastEvaluatedKey()
                                : null;
            } while (start != null);
        }
        return out;
    }
}
