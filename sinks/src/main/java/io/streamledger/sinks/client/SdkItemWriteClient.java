package io.streamledger.sinks.client;

import io.streamledger.aws.client.DynamoDbClientConfig;
import java.util.concurrent.CompletableFuture;
import javax.annotation.Nullable;
import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;
import software.amazon.awssdk.services.dynamodb.model.ConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;

/**
 * {@link ItemWriteClient} over the SDK v2 {@link DynamoDbAsyncClient} (seed CS06 writes), reading
 * the consumed write units from each response.
 */
public final class SdkItemWriteClient implements ItemWriteClient {
    private final DynamoDbAsyncClient client;

    public SdkItemWriteClient(DynamoDbAsyncClient client) {
        this.client = client;
    }

    /** A provider building the client from {@code config} on the task manager. */
    public static ItemWriteClientProvider provider(DynamoDbClientConfig config) {
        return maxConcurrency -> new SdkItemWriteClient(config.buildAsyncClient(maxConcurrency));
    }

    @Override
    public CompletableFuture<Double> updateItem(UpdateItemRequest request) {
        return client.updateItem(request).thenApply(r -> units(r.consumedCapacity()));
    }

    @Override
    public CompletableFuture<Double> putItem(PutItemRequest request) {
        return client.putItem(request).thenApply(r -> units(r.consumedCapacity()));
    }

    /** Total units of the call: table plus indexes (TOTAL and INDEXES both fill capacityUnits). */
    static double units(@Nullable ConsumedCapacity capacity) {
        if (capacity == null || capacity.capacityUnits() == null) {
            return 0.0;
        }
        return capacity.capacityUnits();
    }

    @Override
    public void close() {
        client.close();
    }
}
