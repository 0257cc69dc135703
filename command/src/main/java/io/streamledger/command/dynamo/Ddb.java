package io.streamledger.command.dynamo;

import io.streamledger.aws.metrics.ApTag;
import io.streamledger.aws.retry.Retrying;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import javax.annotation.Nullable;
import software.amazon.awssdk.awscore.AwsRequest;
import software.amazon.awssdk.awscore.AwsRequestOverrideConfiguration;
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
 * classification); {@link #ap} tags the calls with the AP they serve for the per-AP metrics.
 */
public final class Ddb {

    private final DynamoDbClient client;
    private final Retrying retrying;
    private final @Nullable AwsRequestOverrideConfiguration tag;

    public Ddb(DynamoDbClient client, Retrying retrying) {
        this(client, retrying, null);
    }

    private Ddb(
            DynamoDbClient client,
            Retrying retrying,
            @Nullable AwsRequestOverrideConfiguration tag) {
        this.client = client;
        this.retrying = retrying;
        this.tag = tag;
    }

    /** This access with every call tagged as serving {@code ap} ({@link ApTag}, for metrics). */
    public Ddb ap(String ap) {
        return new Ddb(client, retrying, ApTag.override(ap));
    }

    private <B extends AwsRequest.Builder> B tagged(B builder) {
        if (tag != null) {
            builder.overrideConfiguration(tag);
        }
        return builder;
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
                                        tagged(GetItemRequest.builder())
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
                                        tagged(GetItemRequest.builder())
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
        PutItemRequest built =
                tagged(req).returnConsumedCapacity(ReturnConsumedCapacity.INDEXES).build();
        PutItemResponse r = retrying.call(() -> client.putItem(built));
        meter.add(r.consumedCapacity());
        return r;
    }

    public UpdateItemResponse update(UpdateItemRequest.Builder req, CapacityMeter meter) {
        UpdateItemRequest built =
                tagged(req).returnConsumedCapacity(ReturnConsumedCapacity.INDEXES).build();
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
                tagged(TransactWriteItemsRequest.builder())
                        .transactItems(items)
                        .clientRequestToken(clientRequestToken)
                        .returnConsumedCapacity(ReturnConsumedCapacity.INDEXES)
                        .build();
        TransactWriteItemsResponse r = retrying.call(() -> client.transactWriteItems(built));
        meter.addAll(r.consumedCapacity());
        return r;
    }

    public QueryResponse query(QueryRequest.Builder req, CapacityMeter meter) {
        QueryRequest built =
                tagged(req).returnConsumedCapacity(ReturnConsumedCapacity.INDEXES).build();
        QueryResponse r = retrying.call(() -> client.query(built));
        meter.add(r.consumedCapacity());
        return r;
    }

    /** Every page of one Query, in order; for key conditions the caller knows to be small. */
    public List<Map<String, AttributeValue>> queryAll(
            QueryRequest.Builder req, CapacityMeter meter) {
        List<Map<String, AttributeValue>> out = new ArrayList<>();
        Map<String, AttributeValue> start = null;
        do {
            QueryResponse r = query(req.exclusiveStartKey(start), meter);
            out.addAll(r.items());
            start =
                    r.hasLastEvaluatedKey() && !r.lastEvaluatedKey().isEmpty()
                            ? r.lastEvaluatedKey()
                            : null;
        } while (start != null);
        return out;
    }
}
