package io.streamledger.local.it;

import java.net.URI;
import java.time.Duration;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.retry.RetryMode;
import software.amazon.awssdk.http.apache.ApacheHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/** Real AWS SDK v2 clients pointed at the local endpoint with dummy credentials. */
public final class Clients {
    private Clients() {}

    public static DynamoDbClient dynamo(URI endpoint) {
        return dynamo(endpoint, "AKIDLOCAL", true);
    }

    public static DynamoDbClient dynamo(URI endpoint, String accessKey, boolean retries) {
        return DynamoDbClient.builder()
                .endpointOverride(endpoint)
                .region(Region.US_EAST_1)
                .credentialsProvider(
                        StaticCredentialsProvider.create(
                                AwsBasicCredentials.create(accessKey, "secret")))
                .httpClientBuilder(
                        ApacheHttpClient.builder()
                                .maxConnections(64)
                                .connectionTimeout(Duration.ofSeconds(5)))
                .overrideConfiguration(
                        o -> {
                            if (retries) {
                                o.retryStrategy(RetryMode.STANDARD);
                            } else {
                                o.retryStrategy(b -> b.maxAttempts(1));
                            }
                        })
                .build();
    }
}
