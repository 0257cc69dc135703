package io.streamledger.command.dynamo;

import io.streamledger.aws.retry.Retrying;
import java.util.Collection;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.GetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.GetItemResponse;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;
import software.amazon.awssdk.services.dynamodb.model.PutItemResponse;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;
import software.amazon.awssdk.services.dynamodb.model.ReturnConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItemsRequest;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItemsResponse;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemResponse;

/**
 * The service's DynamoDB access: every call asks for INDEXES consumed capacity, charges it to the
 * request's {@link CapacityMeter}, and goes through the one retry policy (seed CS06
 * classification).
 */
public final class Ddb {

    private final DynamoDbClient client;
    private final Retrying retrying;

    public Ddb(DynamoDbClient client, Retrying retrying) {
        this.client = client;
        this.retrying = retrying;
    }

    public DynamoDbClient client() {
        return client;
    }

    public Retrying retrying() {
        return retrying;
    }

    public Map<String, AttributeValue> getStrong(
            String table, Map<String, AttributeValue> key, CapacityMeter meter) {
        GetItemResponse r =
                retrying.call(
                        () ->
                                client.getItem(
                                        GetItemRequest.builder()
                                                .tableName(table)
                                                .key(key)
                                                .consistentRead(true)
                                                .returnConsumedCapacity(
                                                        ReturnConsumedCapacity.INDEXES)
                                                .build()));
        meter.add(r.consumedCapacity());
        return r.hasItem() && !r.item().isEmpty() ? r.item() : null;
    }

    /** An eventually consistent GetItem (half the read units of {@link #getStrong}). */
    public Map<String, AttributeValue> getEventual(
            String table, Map<String, AttributeValue> key, CapacityMeter meter) {
        GetItemResponse r =
                retrying.call(
                        () ->
                                client.getItem(
                                        GetItemRequest.builder()
                                                .tableName(table)
                                                .key(key)
                                                .consistentRead(false)
                                                .returnConsumedCapacity(
                                                        ReturnConsumedCapacity.INDEXES)
                                                .build()));
        meter.add(r.consumedCapacity());
        return r.hasItem() && !r.item().isEmpty() ? r.item() : null;
    }

    /** A conditional put; ConditionalCheckFailedException propagates to the caller. */
    public PutItemResponse put(PutItemRequest.Builder req, CapacityMeter meter) {
        PutItemRequest built = req.returnConsumedCapacity(ReturnConsumedCapacity.INDEXES).build();
        PutItemResponse r = retrying.call(() -> client.putItem(built));
        meter.add(r.consumedCapacity());
        return r;
    }

    public UpdateItemResponse update(UpdateItemRequest.Builder req, CapacityMeter meter) {
        UpdateItemRequest built =
                req.returnConsumedCapacity(ReturnConsumedCapacity.INDEXES).build();
        UpdateItemResponse r = retrying.call(() -> client.updateItem(built));
        meter.add(r.consumedCapacity());
        return r;
    }

    /**
     * One TransactWriteItems. A fixed ClientRequestToken makes the SDK-level retries of a transport
     * failure idempotent within DynamoDB's ten-minute window (seed: a short retry aid, not the
     * durable record).
     */
    public TransactWriteItemsResponse transact(
            Collection<TransactWriteItem> items, String clientRequestToken, CapacityMeter meter) {
        TransactWriteItemsRequest built =
                TransactWriteItemsRequest.builder()
                        .transactItems(items)
                        .clientRequestToken(clientRequestToken)
                        .returnConsumedCapacity(ReturnConsumedCapacity.INDEXES)
                        .build();
        TransactWriteItemsResponse r = retrying.call(() -> client.transactWriteItems(built));
        meter.addAll(r.consumedCapacity());
        return r;
    }

    public QueryResponse query(QueryRequest.Builder req, CapacityMeter meter) {
        QueryRequest built = req.returnConsumedCapacity(ReturnConsumedCapacity.INDEXES).build();
        QueryResponse r = retrying.call(() -> client.query(built));
        meter.add(r.consumedCapacity());
        return r;
    }
}
