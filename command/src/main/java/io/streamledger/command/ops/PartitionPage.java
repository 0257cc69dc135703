package io.streamledger.command.ops;

import io.streamledger.command.api.PageCursor;
import io.streamledger.model.table.Attr;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import javax.annotation.Nullable;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;

/**
 * One page of one partition's items in key order, strongly read, optionally narrowed by a sort-key
 * prefix and filtered by status, with an opaque cursor that cannot leave the partition: the listing
 * of the dead letters (CS08) and the parked gaps (CS07).
 */
final class PartitionPage {

    /** Largest page. */
    static final int MAX_PAGE = 100;

    /** Page size when none is given. */
    static final int DEFAULT_PAGE = 50;

    private static final Set<String> CURSOR_ATTRS = Set.of(Attr.PK, Attr.SK);

    private PartitionPage() {}

    /** Items of a page and the cursor of the next one (null on the last). */
    record Page<T>(List<T> items, @Nullable String cursor) {}

    /**
     * @param skPrefix null for the whole partition
     * @param status null for every status (a filter: a page may hold fewer items)
     * @param limit null for {@link #DEFAULT_PAGE}
     * @throws IllegalArgumentException for a limit outside [1, {@value #MAX_PAGE}] or a bad cursor
     */
    static <T> Page<T> read(
            DynamoDbClient ddb,
            String table,
            String pk,
            @Nullable String skPrefix,
            String statusAttr,
            @Nullable String status,
            @Nullable Integer limit,
            @Nullable String cursor,
            Function<Map<String, AttributeValue>, T> view) {
        int n = limit == null ? DEFAULT_PAGE : limit;
        if (n < 1 || n > MAX_PAGE) {
            throw new IllegalArgumentException("limit must be in [1, " + MAX_PAGE + "], got " + n);
        }
        Map<String, String> names = new HashMap<>(Map.of("#pk", Attr.PK));
        Map<String, AttributeValue> values = new HashMap<>();
        values.put(":pk", AttributeValue.fromS(pk));
        String key = "#pk = :pk";
        if (skPrefix != null) {
            names.put("#sk", Attr.SK);
            values.put(":prefix", AttributeValue.fromS(skPrefix));
            key += " AND begins_with(#sk, :prefix)";
        }
        QueryRequest.Builder q =
                QueryRequest.builder()
                        .tableName(table)
                        .keyConditionExpression(key)
                        .consistentRead(true)
                        .limit(n);
        if (status != null) {
            names.put("#st", statusAttr);
            values.put(":st", AttributeValue.fromS(status));
            q.filterExpression("#st = :st");
        }
        Map<String, AttributeValue> start = PageCursor.decode(cursor, CURSOR_ATTRS, Attr.PK, pk);
        if (start != null) {
            q.exclusiveStartKey(start);
        }
        QueryResponse r =
                ddb.query(
                        q.expressionAttributeNames(names)
                                .expressionAttributeValues(values)
                                .build());
        return new Page<>(
                r.items().stream().map(view).toList(),
                r.hasLastEvaluatedKey() ? PageCursor.encode(r.lastEvaluatedKey()) : null);
    }
}
