package io.streamledger.aws.client;

import io.streamledger.aws.metrics.DynamoDbMetricsInterceptor;
import io.streamledger.aws.metrics.DynamoDbMetricsRecorder;
import java.io.Serializable;
import java.net.URI;
import java.time.Duration;
import java.util.Objects;
import javax.annotation.Nullable;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.core.client.config.ClientOverrideConfiguration;
import software.amazon.awssdk.http.apache.ApacheHttpClient;
import software.amazon.awssdk.http.nio.netty.NettyNioAsyncHttpClient;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.retries.api.RetryStrategy;
import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * The one serializable recipe for a DynamoDB SDK v2 client (region, endpoint override, credentials,
 * HTTP client, attempt timeout, SDK retry strategy), used by the command service, sinks, jobs and
 * tools and built where it runs (local endpoint or AWS by endpoint override).
 *
 * <p>{@code sdkMaxAttempts} defaults to 1: callers classify and retry themselves with {@code
 * RetryPolicy}, so SDK-internal retries would only hide throttling from their metrics and backoff.
 */
public final class DynamoDbClientConfig implements Serializable {
    private static final long serialVersionUID = 1L;

    /** Where credentials come from. */
    public enum CredentialsMode {
        /** The SDK default chain (env, system properties, profile, container/instance role). */
        DEFAULT_CHAIN,
        /** A fixed access key pair, e.g. dummy keys for the local endpoint. */
        STATIC
    }

    /** Which blocking HTTP client a sync client uses. */
    public enum HttpClientKind {
        /** JDK URL connection: no extra threads, fine for tools, setup code and tests. */
        URL_CONNECTION,
        /** Apache client: pooled keep-alive connections, for a service under load. */
        APACHE
    }

    /** Upper bound on {@code sdkMaxAttempts}: more belongs in the caller's own retry logic. */
    public static final int MAX_SDK_ATTEMPTS = 10;

    private final String region;
    private final @Nullable String endpointOverride;
    private final CredentialsMode credentialsMode;
    private final @Nullable String accessKeyId;
    private final @Nullable String secretAccessKey;
    private final int sdkMaxAttempts;
    private final Duration apiCallAttemptTimeout;
    private final HttpClientKind httpClient;
    private final int maxConnections;

    private DynamoDbClientConfig(Builder b) {
        this.region = Objects.requireNonNull(b.region, "region");
        this.endpointOverride = b.endpointOverride;
        this.credentialsMode = b.credentialsMode;
        this.accessKeyId = b.accessKeyId;
        this.secretAccessKey = b.secretAccessKey;
        this.sdkMaxAttempts = b.sdkMaxAttempts;
        this.apiCallAttemptTimeout = b.apiCallAttemptTimeout;
        this.httpClient = b.httpClient;
        this.maxConnections = b.maxConnections;
        if (maxConnections < 1) {
            throw new IllegalArgumentException("maxConnections must be >= 1");
        }
        if (endpointOverride != null) {
            URI uri = URI.create(endpointOverride);
            if (uri.getScheme() == null || uri.getHost() == null) {
                throw new IllegalArgumentException(
                        "endpointOverride must be an absolute URI, got " + endpointOverride);
            }
        }
        if (credentialsMode == CredentialsMode.STATIC
                && (isBlank(accessKeyId) || isBlank(secretAccessKey))) {
            throw new IllegalArgumentException("STATIC credentials need an access key and secret");
        }
        if (sdkMaxAttempts < 1 || sdkMaxAttempts > MAX_SDK_ATTEMPTS) {
            throw new IllegalArgumentException(
                    "sdkMaxAttempts must be in [1, "
                            + MAX_SDK_ATTEMPTS
                            + "], got "
                            + sdkMaxAttempts);
        }
        if (apiCallAttemptTimeout.isNegative() || apiCallAttemptTimeout.isZero()) {
            throw new IllegalArgumentException("apiCallAttemptTimeout must be positive");
        }
    }

    public static Builder builder() {
        return new Builder();
    }

    /** Config for a local endpoint on {@code endpoint} with dummy static keys. */
    public static DynamoDbClientConfig local(String endpoint) {
        return builder()
                .region("us-east-1")
                .endpointOverride(endpoint)
                .staticCredentials("local", "local")
                .build();
    }

    /**
     * Config for AWS ({@code endpoint} null: default credential chain) or for the local endpoint
     * (dummy static keys) in {@code region}.
     */
    public static Builder forEndpoint(@Nullable URI endpoint, String region) {
        Builder b = builder().region(region);
        if (endpoint != null) {
            b.endpointOverride(endpoint.toString()).staticCredentials("local", "local");
        }
        return b;
    }

    private static boolean isBlank(@Nullable String s) {
        return s == null || s.isBlank();
    }

    /**
     * An async client on the Netty HTTP client with at most {@code maxConcurrency} open requests;
     * further requests wait for a connection rather than opening more.
     */
    public DynamoDbAsyncClient buildAsyncClient(int maxConcurrency) {
        return buildAsyncClient(maxConcurrency, null);
    }

    /** As {@link #buildAsyncClient(int)}, every call recorded by {@code metrics} (null: none). */
    public DynamoDbAsyncClient buildAsyncClient(
            int maxConcurrency, @Nullable DynamoDbMetricsRecorder metrics) {
        var builder =
                DynamoDbAsyncClient.builder()
                        .region(Region.of(region))
                        .credentialsProvider(credentialsProvider())
                        .overrideConfiguration(overrideConfiguration(metrics))
                        .httpClientBuilder(
                                NettyNioAsyncHttpClient.builder()
                                        .maxConcurrency(maxConcurrency)
                                        .maxPendingConnectionAcquires(
                                                Math.max(1000, maxConcurrency * 4)));
        if (endpointOverride != null) {
            builder.endpointOverride(URI.create(endpointOverride));
        }
        return builder.build();
    }

    /** A blocking client on the configured HTTP client. */
    public DynamoDbClient buildSyncClient() {
        return buildSyncClient(null);
    }

    /** As {@link #buildSyncClient()}, every call recorded by {@code metrics} (null: none). */
    public DynamoDbClient buildSyncClient(@Nullable DynamoDbMetricsRecorder metrics) {
        var builder =
                DynamoDbClient.builder()
                        .region(Region.of(region))
                        .credentialsProvider(credentialsProvider())
                        .overrideConfiguration(overrideConfiguration(metrics));
        if (httpClient == HttpClientKind.APACHE) {
            builder.httpClientBuilder(ApacheHttpClient.builder().maxConnections(maxConnections));
        } else {
            builder.httpClientBuilder(UrlConnectionHttpClient.builder());
        }
        if (endpointOverride != null) {
            builder.endpointOverride(URI.create(endpointOverride));
        }
        return builder.build();
    }

    private ClientOverrideConfiguration overrideConfiguration(
            @Nullable DynamoDbMetricsRecorder metrics) {
        ClientOverrideConfiguration.Builder b =
                ClientOverrideConfiguration.builder()
                        .retryStrategy(sdkRetryStrategy())
                        .apiCallAttemptTimeout(apiCallAttemptTimeout);
        if (metrics != null) {
            b.addExecutionInterceptor(new DynamoDbMetricsInterceptor(metrics));
        }
        return b.build();
    }

    /** The SDK's own AWS retry strategy, with {@code sdkMaxAttempts} attempts (1 = none). */
    public RetryStrategy sdkRetryStrategy() {
        return sdkMaxAttempts == 1
                ? AwsRetryStrategy.doNotRetry()
                : AwsRetryStrategy.standardRetryStrategy().toBuilder()
                        .maxAttempts(sdkMaxAttempts)
                        .build();
    }

    private AwsCredentialsProvider credentialsProvider() {
        if (credentialsMode == CredentialsMode.STATIC) {
            return StaticCredentialsProvider.create(
                    AwsBasicCredentials.create(accessKeyId, secretAccessKey));
        }
        return DefaultCredentialsProvider.builder().build();
    }

    public String region() {
        return region;
    }

    public @Nullable String endpointOverride() {
        return endpointOverride;
    }

    public CredentialsMode credentialsMode() {
        return credentialsMode;
    }

    public int sdkMaxAttempts() {
        return sdkMaxAttempts;
    }

    public Duration apiCallAttemptTimeout() {
        return apiCallAttemptTimeout;
    }

    public HttpClientKind httpClient() {
        return httpClient;
    }

    public int maxConnections() {
        return maxConnections;
    }

    /** Never prints the secret. */
    @Override
    public String toString() {
        return "DynamoDbClientConfig{region="
                + region
                + ", endpoint="
                + endpointOverride
                + ", credentials="
                + credentialsMode
                + ", sdkMaxAttempts="
                + sdkMaxAttempts
                + ", http="
                + httpClient
                + "}";
    }

    /** Builder with production defaults: us-east-1, default credential chain, 1 SDK attempt. */
    public static final class Builder {
        private String region = "us-east-1";
        private @Nullable String endpointOverride;
        private CredentialsMode credentialsMode = CredentialsMode.DEFAULT_CHAIN;
        private @Nullable String accessKeyId;
        private @Nullable String secretAccessKey;
        private int sdkMaxAttempts = 1;
        private Duration apiCallAttemptTimeout = Duration.ofSeconds(10);
        private HttpClientKind httpClient = HttpClientKind.URL_CONNECTION;
        private int maxConnections = 50;

        private Builder() {}

        /** Pooled Apache HTTP client with up to {@code maxConnections} open connections. */
        public Builder apacheHttpClient(int maxConnections) {
            this.httpClient = HttpClientKind.APACHE;
            this.maxConnections = maxConnections;
            return this;
        }

        public Builder region(String region) {
            this.region = region;
            return this;
        }

        public Builder endpointOverride(@Nullable String endpoint) {
            this.endpointOverride = endpoint;
            return this;
        }

        public Builder staticCredentials(String accessKeyId, String secretAccessKey) {
            this.credentialsMode = CredentialsMode.STATIC;
            this.accessKeyId = accessKeyId;
            this.secretAccessKey = secretAccessKey;
            return this;
        }

        public Builder defaultCredentialsChain() {
            this.credentialsMode = CredentialsMode.DEFAULT_CHAIN;
            this.accessKeyId = null;
            this.secretAccessKey = null;
            return this;
        }

        public Builder sdkMaxAttempts(int attempts) {
            this.sdkMaxAttempts = attempts;
            return this;
        }

        public Builder apiCallAttemptTimeout(Duration timeout) {
            this.apiCallAttemptTimeout = Objects.requireNonNull(timeout);
            return this;
        }

        public DynamoDbClientConfig build() {
            return new DynamoDbClientConfig(this);
        }
    }
}
