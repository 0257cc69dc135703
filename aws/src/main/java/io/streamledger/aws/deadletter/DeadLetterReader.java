package io.streamledger.aws.deadletter;

import io.streamledger.aws.metrics.ApTag;
import io.streamledger.model.keys.DeadLetterKey;
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
 * Reads dead-letter entries (CS08): one by key, strongly, or those of one tenant and job page by
 * page with a page limit.
 */
public final class DeadLetterReader {
    /** The metrics tag of its DynamoDB calls: the CS08 dead-letter table. */
    private static final String AP = "CS08";

    /** Items per page. */
    public static final int PAGE_SIZE = 100;

    private final DynamoDbClient ddb;
    private final String table;

    public DeadLetterReader(DynamoDbClient ddb, String table) {
        this.ddb = ddb;
        this.table = table;
    }

    /** One entry, strongly read; empty if there is none. */
    public Optional<DeadLetterView> get(DeadLetterKey key) {
        Map<String, AttributeValue> item =
                ddb.getItem(
                                b ->
                                        ApTag.on(b, AP)
                                                .tableName(table)
                                                .key(
                                                        Map.of(
                                                                Attr.PK,
                                                                AttributeValue.fromS(key.pk()),
                                                                Attr.SK,
                                                                AttributeValue.fromS(key.sk())))
                                                .consistentRead(true))
                        .item();
        return item == null || item.isEmpty()
                ? Optional.empty()
                : Optional.of(DeadLetterItems.view(item));
    }

    /**
     * Entries of {@code tenant}'s {@code job}, in key order (reason, id).
     *
     * @param maxPages stop after this many pages (a listing never reads without bound)
     */
    public List<Map<String, AttributeValue>> list(String tenant, String job, int maxPages) {
        String pk = DeadLetterKey.PK.build(tenant, job);
        List<Map<String, AttributeValue>> out = new ArrayList<>();
        Map<String, AttributeValue> start = null;
        for (int page = 0; page < maxPages; page++) {
            QueryRequest.Builder q =
                    ApTag.on(QueryRequest.builder(), AP)
                            .tableName(table)
                            .keyConditionExpression("#pk = :pk")
                            .expressionAttributeNames(Map.of("#pk", Attr.PK))
                            .expressionAttributeValues(Map.of(":pk", AttributeValue.fromS(pk)))
                            .consistentRead(true)
                            .limit(PAGE_SIZE);
            if (start != null) {
                q.exclusiveStartKey(start);
            }
            QueryResponse r = ddb.query(q.build());
            out.addAll(r.items());
            if (!r.hasLastEvaluatedKey() || r.lastEvaluatedKey().isEmpty()) {
                break;
            }
            start = r.lastEvaluatedKey();
        }
        return out;
    }
}
