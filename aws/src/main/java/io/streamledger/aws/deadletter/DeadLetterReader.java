package io.streamledger.aws.deadletter;

import io.streamledger.model.keys.DeadLetterKey;
import io.streamledger.model.table.Attr;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;

/** Reads the dead-letter entries of one tenant and job (CS08), page by page with a page limit. */
public final class DeadLetterReader {

    /** Items per page. */
    public static final int PAGE_SIZE = 100;

    private final DynamoDbClient ddb;
    private final String table;

    public DeadLetterReader(DynamoDbClient ddb, String table) {
        this.ddb = ddb;
        this.table = table;
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
                    QueryRequest.builder()
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
