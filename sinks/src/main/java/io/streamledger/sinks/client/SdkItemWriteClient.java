package io.streamledger.sinks.client;

import io.streamledger.aws.client.DynamoDbClientConfig;
import io.streamledger.aws.metrics.ApTag;
import io.streamledger.sinks.metrics.FlinkMetricsBackend;
import java.util.concurrent.CompletableFuture;
import javax.annotation.Nullable;
import org.apache.flink.metrics.MetricGroup;
import software.amazon.awssdk.awscore.AwsRequest;
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
    private final @Nullable String accessPattern;

    public SdkItemWriteClient(DynamoDbAsyncClient client) {
        this(client, null);
    }

    /** Every write tagged as serving {@code accessPattern} ({@link ApTag}; null = untagged). */
    public SdkItemWriteClient(DynamoDbAsyncClient client, @Nullable String accessPattern) {
        this.client = client;
        this.accessPattern = accessPattern;
    }

    /** A provider building the client from {@code config} on the task manager. */
    public static ItemWriteClientProvider provider(DynamoDbClientConfig config) {
        return provider(config, null);
    }

    /**
     * A provider building the client from {@code config} on the task manager, its writes tagged
     * {@code accessPattern} and recorded per AP in the writer's metric group.
     */
    public static ItemWriteClientProvider provider(
            DynamoDbClientConfig config, @Nullable String accessPattern) {
        return new Provider(config, accessPattern);
    }

    @Override
    public CompletableFuture<Double> updateItem(UpdateItemRequest request) {
        return client.updateItem(tagged(request)).thenApply(r -> units(r.consumedCapacity()));
    }

    @Override
    public CompletableFuture<Double> putItem(PutItemRequest request) {
        return client.putItem(tagged(request)).thenApply(r -> units(r.consumedCapacity()));
    }

    private <R extends AwsRequest> R tagged(R request) {
        return accessPattern == null ? request : ApTag.tag(request, accessPattern);
    }

    /** Serializable recipe: config plus the AP its writes serve. */
    private static final class Provider implements ItemWriteClientProvider {
        private static final long serialVersionUID = 1L;
        private final DynamoDbClientConfig config;
        private final @Nullable String accessPattern;

        Provider(DynamoDbClientConfig config, @Nullable String accessPattern) {
            this.config = config;
            this.accessPattern = accessPattern;
        }

        @Override
        public ItemWriteClient create(int maxConcurrency) {
            return new SdkItemWriteClient(config.buildAsyncClient(maxConcurrency), accessPattern);
        }

        @Override
        public ItemWriteClient create(int maxConcurrency, MetricGroup metrics) {
            return new SdkItemWriteClient(
                    config.buildAsyncClient(maxConcurrency, FlinkMetricsBackend.recorder(metrics)),
                    accessPattern);
        }
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
