package io.streamledger.sinks.it;

import java.util.HashMap;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeDefinition;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.ScanRequest;
import software.amazon.awssdk.services.dynamodb.model.ScanResponse;

/**
 * A Portfolio-shaped test table (seed IDX07: PK / SK strings) created and read back over the SDK.
 */
public final class PortfolioTable {
    private final DynamoDbClient client;
    private final String name;

    private PortfolioTable(DynamoDbClient client, String name) {
        this.client = client;
        this.name = name;
    }

    public static PortfolioTable create(DynamoDbClient client, String name) {
        client.createTable(
                b ->
                        b.tableName(name)
                                .billingMode(BillingMode.PAY_PER_REQUEST)
                                .attributeDefinitions(
                                        AttributeDefinition.builder()
                                                .attributeName("PK")
                                                .attributeType(ScalarAttributeType.S)
                                                .build(),
                                        AttributeDefinition.builder()
                                                .attributeName("SK")
                                                .attributeType(ScalarAttributeType.S)
                                                .build())
                                .keySchema(
                                        KeySchemaElement.builder()
                                                .attributeName("PK")
                                                .keyType(KeyType.HASH)
                                                .build(),
                                        KeySchemaElement.builder()
                                                .attributeName("SK")
                                                .keyType(KeyType.RANGE)
                                                .build()));
        return new PortfolioTable(client, name);
    }

    public String name() {
        return name;
    }

    /** Writes an item directly, bypassing the sink (e.g. a newer state already in the table). */
    public void put(PositionEvent e) {
        client.putItem(
                b ->
                        b.tableName(name)
                                .item(
                                        Map.of(
                                                "PK", AttributeValue.fromS(e.pk()),
                                                "SK", AttributeValue.fromS(e.sk()),
                                                "sourceVersion",
                                                        AttributeValue.fromN(
                                                                Long.toString(e.version)),
                                                "quantity",
                                                        AttributeValue.fromN(
                                                                Long.toString(
                                                                        PositionEvent.quantityAt(
                                                                                e.version))))));
    }

    /** Every item as "pk|sk" to {sourceVersion, quantity}. */
    public Map<String, long[]> readAll() {
        Map<String, long[]> out = new HashMap<>();
        Map<String, AttributeValue> start = null;
        do {
            ScanRequest.Builder req = ScanRequest.builder().tableName(name).consistentRead(true);
            if (start != null) {
                req.exclusiveStartKey(start);
            }
            ScanResponse page = client.scan(req.build());
            for (Map<String, AttributeValue> item : page.items()) {
                out.put(
                        item.get("PK").s() + "|" + item.get("SK").s(),
                        new long[] {
                            Long.parseLong(item.get("sourceVersion").n()),
                            Long.parseLong(item.get("quantity").n())
                        });
            }
            start = page.hasLastEvaluatedKey() ? page.lastEvaluatedKey() : null;
        } while (start != null && !start.isEmpty());
        return out;
    }
}
