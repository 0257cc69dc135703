package io.streamledger.command.ops;

import io.streamledger.model.table.Attr;
import java.util.Map;
import javax.annotation.Nullable;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/** The ops reads' one strongly consistent GetItem: null when the item is absent. */
final class StrongRead {

    private StrongRead() {}

    @Nullable
    static Map<String, AttributeValue> item(
            DynamoDbClient ddb, String table, Map<String, AttributeValue> key) {
        Map<String, AttributeValue> item =
                ddb.getItem(g -> g.tableName(table).key(key).consistentRead(true)).item();
        return item == null || item.isEmpty() ? null : item;
    }

    @Nullable
    static Map<String, AttributeValue> item(
            DynamoDbClient ddb, String table, String pk, String sk) {
        return item(
                ddb,
                table,
                Map.of(Attr.PK, AttributeValue.fromS(pk), Attr.SK, AttributeValue.fromS(sk)));
    }
}
