package io.streamledger.command.ops;

import io.streamledger.aws.metrics.ApTag;
import io.streamledger.model.table.Attr;
import java.util.Map;
import javax.annotation.Nullable;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.GetItemRequest;

/** The ops reads' one strongly consistent GetItem, tagged with its AP: null when absent. */
final class StrongRead {

    private StrongRead() {}

    @Nullable
    static Map<String, AttributeValue> item(
            DynamoDbClient ddb, String ap, String table, Map<String, AttributeValue> key) {
        Map<String, AttributeValue> item =
                ddb.getItem(
                                ApTag.on(GetItemRequest.builder(), ap)
                                        .tableName(table)
                                        .key(key)
                                        .consistentRead(true)
                                        .build())
                        .item();
        return item == null || item.isEmpty() ? null : item;
    }

    @Nullable
    static Map<String, AttributeValue> item(
            DynamoDbClient ddb, String ap, String table, String pk, String sk) {
        return item(
                ddb,
                ap,
                table,
                Map.of(Attr.PK, AttributeValue.fromS(pk), Attr.SK, AttributeValue.fromS(sk)));
    }
}
