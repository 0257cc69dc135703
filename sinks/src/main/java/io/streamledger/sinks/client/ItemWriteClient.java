package io.streamledger.sinks.client;

import java.util.concurrent.CompletableFuture;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;

/**
 * The two single-item DynamoDB calls the versioned sink needs (seed CS06 conditional projection
 * write); narrow so tests can use a small in-process fake instead of a mock.
 *
 * <p>Futures complete with the write units the service reported (0 if it reported none) or
 * exceptionally with the SDK exception; implementations must not block the caller.
 */
public interface ItemWriteClient extends AutoCloseable {

    CompletableFuture<Double> updateItem(UpdateItemRequest request);

    CompletableFuture<Double> putItem(PutItemRequest request);

    @Override
    void close();
}
