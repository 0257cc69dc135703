package io.streamledger.aws.deadletter;

import io.streamledger.model.deadletter.ParkedGapStatus;
import io.streamledger.model.keys.DeadLetterStatusKey;
import io.streamledger.model.keys.ParkedGapKey;
import io.streamledger.model.keys.ParkedGapQueueKey;
import io.streamledger.model.table.Attr;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;

/**
 * Reads parked-gap records (CS07): one by key, strongly, and the keys in one status queue of a
 * tenant and job over every queue shard (the sparse GSI1, no scan).
 */
public final class ParkedGapReader {

    private final DynamoDbClient ddb;
    private final String table;

    public ParkedGapReader(DynamoDbClient ddb, String table) {
        this.ddb = ddb;
        this.table = table;
    }

    /** One record, strongly read; empty if there is none. */
    public Optional<ParkedGapItems.View> get(ParkedGapKey key) {
        Map<String, AttributeValue> item =
                ddb.getItem(
                                b ->
                                        b.tableName(table)
                                                .key(ParkedGapItems.key(key))
                                                .consistentRead(true))
                        .item();
        return item == null || item.isEmpty()
                ? Optional.empty()
                : Optional.of(ParkedGapItems.view(item));
    }

    /**
     * Keys of {@code tenant}'s records of {@code job} in the {@code status} queue, oldest first per
     * shard (eventually consistent: read each record with {@link #get} before acting on it).
     *
     * @param max stop after this many keys
     */
    public List<ParkedGapKey> queued(String tenant, String job, ParkedGapStatus status, int max) {
        if (!status.queued()) {
            throw new IllegalArgumentException(status + " has no queue");
        }
        List<ParkedGapKey> out = new ArrayList<>();
        for (int shard = 0; shard < DeadLetterStatusKey.SHARDS && out.size() < max; shard++) {
            String pk = ParkedGapItems.queuePk(tenant, status, shard);
            Map<String, AttributeValue> start = null;
            do {
                QueryResponse page =
                        ddb.query(
                                QueryRequest.builder()
                                        .tableName(table)
                                        .indexName("GSI1")
                                        .keyConditionExpression("#p = :p")
                                        .expressionAttributeNames(Map.of("#p", Attr.GSI1PK))
                                        .expressionAttributeValues(
                                                Map.of(":p", AttributeValue.fromS(pk)))
                                        .exclusiveStartKey(start)
                                        .build());
                for (Map<String, AttributeValue> k : page.items()) {
                    ParkedGapQueueKey q = ParkedGapQueueKey.parse(pk, k.get(Attr.GSI1SK).s());
                    if (q.job().equals(job) && out.size() < max) {
                        out.add(new ParkedGapKey(tenant, job, q.id()));
                    }
                }
                start = page.hasLastEvaluatedKey() ? page.lastEvaluatedKey() : null;
            } while (start != null && !start.isEmpty() && out.size() < max);
        }
        return out;
    }
}
