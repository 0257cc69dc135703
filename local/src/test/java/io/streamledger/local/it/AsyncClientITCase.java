package io.streamledger.local.it;

import static io.streamledger.local.it.Tables.key;
import static io.streamledger.local.it.Tables.s;
import static org.assertj.core.api.Assertions.assertThat;

import io.streamledger.local.LocalDynamoDbExtension;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.nio.netty.NettyNioAsyncHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.PutRequest;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;

/**
 * The async SDK client on Netty, as Flink's DynamoDB sink uses it (BatchWriteItem), works against
 * the endpoint with many concurrent requests on pooled connections.
 */
@ExtendWith(LocalDynamoDbExtension.class)
class AsyncClientITCase {

    @Test
    void nettyAsyncClientBatchWritesAndReads(URI endpoint) {
        String table;
        try (DynamoDbClient sync = Clients.dynamo(endpoint)) {
            table = Tables.pkSk(sync, "Async");
        }
        try (DynamoDbAsyncClient async =
                DynamoDbAsyncClient.builder()
                        .endpointOverride(endpoint)
                        .region(Region.US_EAST_1)
                        .credentialsProvider(
                                StaticCredentialsProvider.create(
                                        AwsBasicCredentials.create("a", "b")))
                        .httpClientBuilder(NettyNioAsyncHttpClient.builder().maxConcurrency(32))
                        .build()) {
            List<CompletableFuture<?>> futures = new ArrayList<>();
            for (int batch = 0; batch < 20; batch++) {
                List<WriteRequest> writes = new ArrayList<>();
                for (int i = 0; i < 25; i++) {
                    writes.add(
                            WriteRequest.builder()
                                    .putRequest(
                                            PutRequest.builder()
                                                    .item(
                                                            Map.of(
                                                                    "PK",
                                                                    s("b" + batch),
                                                                    "SK",
                                                                    s("i" + i)))
                                                    .build())
                                    .build());
                }
                futures.add(async.batchWriteItem(b -> b.requestItems(Map.of(table, writes))));
            }
            CompletableFuture.allOf(futures.toArray(CompletableFuture[]::new)).join();
            assertThat(
                            async.getItem(b -> b.tableName(table).key(key("b19", "i24")))
                                    .join()
                                    .hasItem())
                    .isTrue();
            assertThat(async.scan(b -> b.tableName(table)).join().count()).isEqualTo(500);
        }
    }
}
